#include "net/reply.hpp"

namespace tilecrush::server {

Reply& Reply::operator=(Reply&& other) noexcept {
  if (this != &other) {
    deliver(std::nullopt);
    target_ = std::move(other.target_);
    slot_ = other.slot_;
    other.target_.reset();
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
  std::shared_ptr<ReplyTarget> target = target_.lock();
  target_.reset();
  if (!target) return;
  if (ReplyInbox* inbox = target->inbox_) {
    if (inbox->running_in_this_thread()) return target->fill_slot(slot_, std::move(message));
    return inbox->post(std::move(target), slot_, std::move(message));
  }
  const net::any_io_executor executor = target->executor();
  net::dispatch(executor,
                [target = std::move(target), slot = slot_, m = std::move(message)]() mutable {
                  target->fill_slot(slot, std::move(m));
                });
}

}  // namespace tilecrush::server
