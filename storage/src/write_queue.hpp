// The single writer thread and its queue: group commit.
//
// The thread takes everything queued when it starts a transaction (at most
// max_batch operations) and hands it to its BatchRunner (batch_runner.hpp),
// which runs the batch as one write transaction; then it calls each
// operation's callback with its result, once, after the try that counts.
//
// Thread safety: push(), flush() and metrics() may be called from any thread.
// stop() is called once, by the owner.
#pragma once

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
#include "tilecrush/storage/records.hpp"
#include "write_op.hpp"

namespace tilecrush::storage::detail {

class WriteQueue {
 public:
  // `connection` is used only by the writer thread until stop() returns.
  WriteQueue(Connection& connection, std::size_t max_batch);
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Queues the operation (moving from it) and returns true; returns false and
  // leaves `op` untouched once stop() has begun.
  bool push(WriteOp&& op);
  // Waits until every operation pushed before the call is committed and its
  // callback has returned. Returns at once on the writer thread itself.
  void flush();
  // Drains the queue, then ends the thread. Idempotent.
  void stop();

  WriterMetrics metrics() const;

 private:
  void loop();
  // Runs the batch (runner_), then the callbacks; counts it in metrics_.
  void run_batch(std::vector<WriteOp>& batch);

  Connection& connection_;
  BatchRunner runner_;  // writer thread only
  const std::size_t max_batch_;

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::deque<WriteOp> queue_;
  std::uint64_t pushed_ = 0;     // operations ever queued
  std::uint64_t completed_ = 0;  // operations whose callback has run
  bool stopping_ = false;
  WriterMetrics metrics_;  // queue_depth is filled in by metrics()

  std::thread thread_;         // starts once everything above exists
  std::thread::id writer_id_;  // set before the constructor returns, then constant
};

}  // namespace tilecrush::storage::detail
