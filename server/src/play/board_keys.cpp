#include "play/board_keys.hpp"

#include <openssl/rand.h>

#include <future>
#include <memory>
#include <stdexcept>

namespace tilecrush::server {
BoardKeys::BoardKeys(storage::Database& db, KeySource source, NowFn now)
    : db_(db), source_(std::move(source)), now_(std::move(now)) {}

BoardKeys::KeySource BoardKeys::system_random() {
  return [](const storage::BoardKey&) {
    game::BoardSecret key{};
    if (RAND_bytes(key.data(), static_cast<int>(key.size())) != 1) {
      throw std::runtime_error("the random source failed");
    }
    return key;
  };
}

std::string BoardKeys::cache_key(const storage::BoardKey& board) {
  // Scope, preset and seed never hold a NUL (text rules refuse control
  // characters), so it separates them unambiguously.
  std::string key = board.scope;
  key += '\0';
  key += game::to_string(board.mode);
  key += '\0';
  key += board.preset;
  key += '\0';
  key += board.seed;
  return key;
}

std::optional<game::BoardSecret> BoardKeys::cached(const storage::BoardKey& board) const {
  std::lock_guard lock(mutex_);
  const auto it = cache_.find(cache_key(board));
  if (it == cache_.end()) return std::nullopt;
  return it->second;
}

void BoardKeys::remember(const storage::BoardKey& board, const game::BoardSecret& key) {
  std::lock_guard lock(mutex_);
  if (cache_.size() >= kMaxCached) cache_.clear();
  cache_[cache_key(board)] = key;
}

storage::BoardRecord BoardKeys::new_board(storage::BoardKey board,
                                          std::optional<std::int64_t> closes_at) {
  storage::BoardRecord record;
  record.key = source_(board);
  record.commitment = game::commitment(record.key);
  record.scope = std::move(board.scope);
  record.mode = board.mode;
  record.preset = std::move(board.preset);
  record.seed = std::move(board.seed);
  record.created_at = now_();
  record.closes_at = closes_at;
  return record;
}

std::optional<game::BoardSecret> BoardKeys::casual_key(const storage::BoardKey& board, bool fresh) {
  const std::string id = cache_key(board);
  if (fresh) {
    // A seed the server just drew names a board nobody has: its key is
    // queued for the database, and a game created afterwards is queued
    // behind it. Until the board is stored, the cache is where its key is
    // found (a second game on the seed must not draw another); once it is
    // (or failed), the key leaves the cache: every game on a seed the server
    // draws is a new board, and keeping them all would grow with every game
    // of the day. A later game on that seed reads it back from storage.
    std::lock_guard lock(mutex_);
    storage::BoardRecord record = new_board(board, std::nullopt);
    const game::BoardSecret key = record.key;
    db_.create_board(std::move(record), [this, id](const storage::WriteResult&) {
      std::lock_guard stored(mutex_);
      cache_.erase(id);
    });
    if (cache_.size() >= kMaxCached) cache_.clear();
    return cache_[id] = key;
  }
  if (auto key = cached(board)) return key;
  try {
    if (auto stored = db_.find_board(board)) {
      remember(board, stored->key);
      return stored->key;
    }
    // A new board on a label a player chose: another request (here or on
    // another node) may be creating it at the same moment. Its key is the
    // one that committed first, so the creation is waited for (without the
    // mutex: the writer's callbacks may need it) and, when it lost, the
    // winner's key is read back.
    storage::BoardRecord record = new_board(board, std::nullopt);
    const game::BoardSecret mine = record.key;
    auto created = std::make_shared<std::promise<storage::WriteResult>>();
    auto answer = created->get_future();
    db_.create_board(std::move(record),
                     [created](const storage::WriteResult& r) { created->set_value(r); });
    const storage::WriteResult r = answer.get();
    if (r.ok()) {
      remember(board, mine);
      return mine;
    }
    if (r.status != storage::WriteStatus::conflict) return std::nullopt;
    if (auto stored = db_.find_board(board)) {
      remember(board, stored->key);
      return stored->key;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::size_t BoardKeys::cached_count() const {
  std::lock_guard lock(mutex_);
  return cache_.size();
}

}  // namespace tilecrush::server
