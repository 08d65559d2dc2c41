#include "net/reply_inbox.hpp"

#include <algorithm>
#include <iterator>

namespace tilecrush::server {

ReplyInbox& ReplyInbox::of(net::io_context& context) {
  return net::use_service<ReplyInbox>(context);
}

thread_local ReplyInbox::Gathered ReplyInbox::gathered_;

void ReplyInbox::begin_gathering() noexcept {
  gathered_.on = true;
}

void ReplyInbox::end_gathering() noexcept {
  gathered_.on = false;
  for (auto& [inbox, items] : gathered_.by_inbox) {
    if (items.empty()) continue;
    try {
      inbox->post_all(items);
    } catch (...) {
      // Out of memory: these answers are lost as a failed post would lose
      // them; their connections' later answers still go.
    }
    items.clear();  // keeps its capacity for the next burst
  }
}

void ReplyInbox::post_all(std::vector<Item>& items) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = items_.empty();
    items_.insert(items_.end(), std::make_move_iterator(items.begin()),
                  std::make_move_iterator(items.end()));
  }
  if (first) net::post(executor_, [this]() { drain(); });
}

void ReplyInbox::post(std::shared_ptr<ReplyTarget> conn, std::uint64_t slot,
                      std::optional<std::string> message) {
  if (gathered_.on) {
    auto& by_inbox = gathered_.by_inbox;
    auto it = std::find_if(by_inbox.begin(), by_inbox.end(),
                           [this](const auto& entry) { return entry.first == this; });
    if (it == by_inbox.end()) it = by_inbox.insert(by_inbox.end(), {this, {}});
    it->second.push_back({std::move(conn), slot, std::move(message)});
    return;
  }
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
