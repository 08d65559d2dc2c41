#include "net/reply_inbox.hpp"

namespace tilecrush::server {

ReplyInbox& ReplyInbox::of(net::io_context& context) {
  return net::use_service<ReplyInbox>(context);
}

void ReplyInbox::post(std::shared_ptr<ReplyTarget> conn, std::uint64_t slot,
                      std::optional<std::string> message) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = items_.empty();
    items_.push_back({std::move(conn), slot, std::move(message)});
  }
  // Only the item that ends emptiness schedules a drain; the others ride on it.
  if (first) net::post(executor_, [this]() { drain(); });
}

void ReplyInbox::drain() {
  {
    std::lock_guard lock(mutex_);
    draining_.swap(items_);
  }
  for (Item& item : draining_) item.conn->fill_slot(item.slot, std::move(item.message));
  draining_.clear();  // connections released outside the lock
}

void ReplyInbox::shutdown() {
  std::vector<Item> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(items_);
  }
  draining_.clear();
}

}  // namespace tilecrush::server
