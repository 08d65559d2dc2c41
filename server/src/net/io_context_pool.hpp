// The network threads: one io_context per thread. A connection is given one
// context when it is accepted and keeps it for its whole life, so its
// handlers run one at a time, in order, on one thread, with no strand: its
// own work costs no locking, and a reply posted from another thread (the
// storage writer, a room) lands on that thread's queue.
//
// Thread safety: next() and at() may be called from any thread; run() and
// stop() from one controlling thread.
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "net/net.hpp"

namespace tilecrush::server {

// Neither copied nor moved: its threads and contexts are its own (its
// members already make it so).
class IoContextPool {
 public:
  explicit IoContextPool(unsigned threads);
  ~IoContextPool();

  // The context of the next connection (round robin).
  net::io_context& next();
  net::io_context& at(std::size_t i) { return *contexts_[i]; }
  std::size_t size() const { return contexts_.size(); }

  // Starts one thread per context; each runs until stop().
  void run();
  // Stops every context and joins the threads. Idempotent.
  void stop();

 private:
  using Guard = net::executor_work_guard<net::io_context::executor_type>;
  std::vector<std::unique_ptr<net::io_context>> contexts_;
  std::vector<Guard> guards_;
  std::vector<std::thread> threads_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace tilecrush::server
