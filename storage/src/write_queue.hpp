// The single writer thread and its queue: group commit.
//
// The thread takes everything queued when it starts a transaction (at most
// max_batch operations) and hands it to its BatchRunner (batch_runner.hpp),
// which runs the batch as one write transaction; then it calls each
// operation's callback with its result, once, after the try that counts.
//
// The linger (Options::linger): while operations arrive at min_rate or
// faster (ops taken over the last 50 ms window), the writer, finding fewer
// than linger.batch queued, waits until linger.bound after the end of its
// last commit (or until the queue holds linger.batch, a flush() is waiting,
// or stop() begins) before it takes them: fewer, larger commits, each
// operation delayed at most linger.bound. Slower than min_rate it never
// waits. A commit costs about the same whatever it holds, so this buys
// CPU per operation with latency, only when there is load to share it.
//
// Thread safety: push(), flush() and metrics() may be called from any thread.
// stop() is called once, by the owner.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "batch_runner.hpp"
#include "connection.hpp"
#include "tilecrush/storage/options.hpp"
#include "tilecrush/storage/records.hpp"
#include "write_op.hpp"

namespace tilecrush::storage::detail {

class WriteQueue {
 public:
  // `connection` is used only by the writer thread until stop() returns.
  // `completions` (may be null) is told around each batch's callbacks.
  WriteQueue(Connection& connection, std::size_t max_batch, const Linger& linger_options = {},
             CompletionObserver* completions = nullptr);
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Queues the operation (moving from it) and returns true; returns false and
  // leaves `op` untouched once stop() has begun.
  bool push(WriteOp&& op);
  // Waits until every operation pushed before the call is committed and its
  // callback has returned (ending a linger at once). Returns at once on the
  // writer thread itself.
  void flush();
  // Drains the queue, then ends the thread. Idempotent.
  void stop();

  WriterMetrics metrics() const;

 private:
  void loop();
  // Under the lock, with the queue not empty: waits while the linger says
  // so (see above).
  void linger(std::unique_lock<std::mutex>& lock);
  // Counts `n` operations taken now into the rate window; sets busy_.
  void note_taken(std::size_t n, std::chrono::steady_clock::time_point now);
  // Runs the batch (runner_), then the callbacks; counts it in metrics_.
  void run_batch(std::vector<WriteOp>& batch);

  Connection& connection_;
  BatchRunner runner_;  // writer thread only
  const std::size_t max_batch_;
  const Linger linger_;  // batch within [1, max_batch_]
  CompletionObserver* const completions_;

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::deque<WriteOp> queue_;
  std::uint64_t pushed_ = 0;     // operations ever queued
  std::uint64_t completed_ = 0;  // operations whose callback has run
  bool stopping_ = false;
  bool lingering_ = false;    // the writer waits in linger()
  std::size_t flushing_ = 0;  // flush() calls waiting: no linger meanwhile
  WriterMetrics metrics_;     // queue_depth is filled in by metrics()

  // Writer thread only: the linger's clock and its rate window.
  std::chrono::steady_clock::time_point last_commit_end_{};
  std::chrono::steady_clock::time_point window_start_{};
  std::uint64_t window_ops_ = 0;
  bool busy_ = false;  // the last window's rate reached linger_.min_rate

  std::thread thread_;         // starts once everything above exists
  std::thread::id writer_id_;  // set before the constructor returns, then constant
};

}  // namespace tilecrush::storage::detail
