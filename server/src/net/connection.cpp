#include "net/connection.hpp"

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
  conn->deliver(slot_, std::move(message));
}

void Connection::deliver(std::uint64_t slot, std::optional<std::string> message) {
  if (inbox_) {
    if (inbox_->running_in_this_thread()) return fill_slot(slot, std::move(message));
    return inbox_->post(shared_from_this(), slot, std::move(message));
  }
  net::dispatch(executor(), [self = shared_from_this(), slot, m = std::move(message)]() mutable {
    self->fill_slot(slot, std::move(m));
  });
}

}  // namespace tilecrush::server
