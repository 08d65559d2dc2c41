#include "room_claims.hpp"

#include "pg_connection.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

std::int64_t room_lock_key(std::string_view code) {
  // 'R' in the top byte, then up to 7 bytes of the code: distinct codes of
  // up to 7 characters never share a key, and no key is a small constant
  // (the writer's and the migrations' locks).
  std::uint64_t key = 0x52;
  for (std::size_t i = 0; i < 7; ++i) {
    key = (key << 8) | (i < code.size() ? static_cast<unsigned char>(code[i]) : 0U);
  }
  return static_cast<std::int64_t>(key);
}

RoomClaims::RoomClaims(std::string url) : url_(std::move(url)) {}

RoomClaims::~RoomClaims() = default;

Connection* RoomClaims::session() {
  if (!connection_) {
    try {
      connection_ = std::make_unique<PgConnection>(url_, PgRole::claims);
    } catch (const StorageError&) {
      return nullptr;
    }
  }
  return connection_.get();
}

void RoomClaims::lose_session() {
  connection_.reset();
  if (!held_.empty()) ++generation_;
  held_.clear();
}

bool RoomClaims::claim(std::string_view code) {
  if (url_.empty()) return true;
  std::lock_guard lock(mutex_);
  if (held_.contains(code)) return true;
  Connection* c = session();
  if (c == nullptr) return false;
  try {
    auto q = c->query("SELECT pg_try_advisory_lock(?1)");
    q->bind(1, room_lock_key(code));
    if (!q->step() || q->get_int(0) == 0) return false;
    held_.emplace(code);
    return true;
  } catch (const StorageError&) {
    lose_session();
    return false;
  }
}

void RoomClaims::release(std::string_view code) {
  if (url_.empty()) return;
  std::lock_guard lock(mutex_);
  const auto it = held_.find(code);
  if (it == held_.end() || !connection_) return;
  held_.erase(it);
  try {
    auto q = connection_->query("SELECT pg_advisory_unlock(?1)");
    q->bind(1, room_lock_key(code));
    q->run();
  } catch (const StorageError&) {
    lose_session();
  }
}

void RoomClaims::check() {
  if (url_.empty()) return;
  std::lock_guard lock(mutex_);
  if (!connection_) return;
  try {
    // A broken session fails here; PostgreSQL has dropped its locks then.
    connection_->query("SELECT 1")->run();
  } catch (const StorageError&) {
    lose_session();
  }
}

std::uint64_t RoomClaims::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

}  // namespace tilecrush::storage::detail
