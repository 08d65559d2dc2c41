#include "connection.hpp"

namespace tilecrush::server {

Reply& Reply::operator=(Reply&& other) noexcept {
  if (this != &other) {
    deliver(std::nullopt);
    conn_ = std::move(other.conn_);
    slot_ = other.slot_;
    other.conn_.reset();
  }
  return *this;
}

Reply::~Reply() {
  deliver(std::nullopt);
}

void Reply::send(std::string message) {
  deliver(std::move(message));
}

void Reply::deliver(std::optional<std::string> message) {
  std::shared_ptr<Connection> conn = conn_.lock();
  conn_.reset();
  if (!conn) return;
  net::dispatch(conn->executor(), [conn, slot = slot_, m = std::move(message)]() mutable {
    conn->fill_slot(slot, std::move(m));
  });
}

}  // namespace tilecrush::server
