// Answers handed to one network thread from other threads, delivered in one
// go: the storage writer completes a whole committed batch at once, and
// instead of one post (one wake-up of the network thread) per answer, each
// network thread gets one post per burst, which then fills every reply slot
// of the burst.
//
// One inbox per io_context, as an Asio service (net::use_service), so every
// connection of a thread finds it through its executor.
//
// A thread that completes answers in bursts (the storage writer, a committed
// batch at a time) gathers them (begin_gathering / end_gathering): its
// posts are kept on the thread, and at the end each inbox gets its share
// with one drain. Posting one by one, a network thread that drained in
// between (on another core, or by preempting the writer on the same one)
// was woken again and again within one batch.
//
// It knows connections only as ReplyTargets (below), which Connection
// implements: reply.hpp and connection.hpp include this header, never the
// other way.
//
// Thread safety: post() may be called from any thread; delivery runs on the
// context's thread. Gathering is per calling thread.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "net/net.hpp"

namespace tilecrush::server {

class ReplyInbox;

// What a reply slot is filled on (Connection), on its own thread.
class ReplyTarget {
 public:
  virtual ~ReplyTarget() = default;
  // The executor of the one thread its slots are filled on.
  virtual net::any_io_executor executor() = 0;

 protected:
  friend class Reply;
  friend class ReplyInbox;
  // On its thread: fills a reply slot (nullopt: released without answer).
  virtual void fill_slot(std::uint64_t slot, std::optional<std::string> message) = 0;

  // The inbox of its thread, or null (replies are then dispatched to
  // executor()). Set once, before the target is shared.
  ReplyInbox* inbox_ = nullptr;
};

class ReplyInbox final : public net::execution_context::service {
 public:
  using key_type = ReplyInbox;
  static inline net::execution_context::id id;

  // Made by net::use_service for an io_context (of()), never directly.
  explicit ReplyInbox(net::io_context& context)
      : service(context), executor_(context.get_executor()) {}

  // The inbox of `context`.
  static ReplyInbox& of(net::io_context& context);

  // Whether the caller is this context's thread.
  bool running_in_this_thread() const { return executor_.running_in_this_thread(); }

  // Fills `slot` of `conn` (on `conn`'s thread, which must be this
  // context's) with `message` soon.
  void post(std::shared_ptr<ReplyTarget> conn, std::uint64_t slot,
            std::optional<std::string> message);

  // On the calling thread until end_gathering(): post() keeps what it is
  // given instead of scheduling drains. Not nested.
  static void begin_gathering() noexcept;
  // Hands each inbox what was gathered for it, one drain each, and stops
  // gathering. The inboxes must still exist (the caller's contexts do).
  static void end_gathering() noexcept;

 private:
  struct Item {
    std::shared_ptr<ReplyTarget> conn;
    std::uint64_t slot;
    std::optional<std::string> message;
  };
  // A thread's gathered items, by inbox (a handful: one per network thread).
  struct Gathered {
    bool on = false;
    std::vector<std::pair<ReplyInbox*, std::vector<Item>>> by_inbox;
  };
  static thread_local Gathered gathered_;

  // Appends `items` (moving them) and schedules a drain if none is due.
  void post_all(std::vector<Item>& items);
  void shutdown() override;
  void drain();

  // Kept typed: a type-erased executor costs a copy and a query per answer.
  const net::io_context::executor_type executor_;
  std::mutex mutex_;
  std::vector<Item> items_;     // guarded by mutex_
  std::vector<Item> draining_;  // the drain's own, on the context's thread
};

}  // namespace tilecrush::server
