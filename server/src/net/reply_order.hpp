// The answers of one connection put back in the order their requests
// arrived: each request takes the next slot, and an answer that is ready
// before those of earlier requests waits for them.
//
// Thread safety: none; used on its connection's thread only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace tilecrush::server {

class ReplyOrder {
 public:
  // The slot of the next request.
  std::uint64_t take() { return next_++; }
  // Whether every slot taken has been filled and passed on.
  bool settled() const { return next_ == flush_; }

  // Slot `slot` is filled (nullopt: released without answer): calls
  // `emit(std::string)` with every answer now due, in request order.
  template <typename Emit>
  void fill(std::uint64_t slot, std::optional<std::string> message, Emit&& emit) {
    if (slot == flush_ && pending_.empty()) {
      // The usual case, answers ready in order: no reordering needed.
      ++flush_;
      if (message) emit(std::move(*message));
      return;
    }
    pending_.emplace(slot, std::move(message));
    while (!pending_.empty() && pending_.begin()->first == flush_) {
      if (pending_.begin()->second) emit(std::move(*pending_.begin()->second));
      pending_.erase(pending_.begin());
      ++flush_;
    }
  }

 private:
  std::uint64_t next_ = 0;
  std::uint64_t flush_ = 0;
  std::map<std::uint64_t, std::optional<std::string>> pending_;
};

}  // namespace tilecrush::server
