// The answer slot of one request: where its answer goes. Answers leave in
// the order their requests arrived, whenever each becomes ready (a move
// waits for its commit).
//
// Thread safety: send() may be called from any thread, once. A Reply
// destroyed unsent releases its slot without an answer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "net/reply_inbox.hpp"

namespace tilecrush::server {

class Reply {
 public:
  Reply() = default;
  Reply(std::weak_ptr<ReplyTarget> target, std::uint64_t slot)
      : target_(std::move(target)), slot_(slot) {}
  Reply(Reply&& other) noexcept : target_(std::move(other.target_)), slot_(other.slot_) {
    other.target_.reset();
  }
  Reply& operator=(Reply&& other) noexcept;
  Reply(const Reply&) = delete;
  Reply& operator=(const Reply&) = delete;
  ~Reply();

  void send(std::string message);

 private:
  // Fills the slot (nullopt: released without answer) at once on the
  // target's own thread, else through that thread's inbox when it has one,
  // else by a dispatch to its executor.
  void deliver(std::optional<std::string> message);

  std::weak_ptr<ReplyTarget> target_;
  std::uint64_t slot_ = 0;
};

}  // namespace tilecrush::server
