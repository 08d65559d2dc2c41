#include "write_queue.hpp"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "codec.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

namespace {

// The rate that turns the linger on is measured over windows this long:
// long enough that a paced rate well below min_rate does not cross it by
// chance (1,000/s: 50 operations a window), short enough to follow a change
// of load within a blink.
constexpr auto kRateWindow = std::chrono::milliseconds(50);

Linger normalized(Linger linger, std::size_t max_batch) {
  linger.batch = std::clamp<std::size_t>(linger.batch, 1, max_batch);
  if (linger.bound.count() < 0) linger.bound = std::chrono::microseconds(0);
  return linger;
}

}  // namespace

WriteQueue::WriteQueue(Connection& connection, std::size_t max_batch, const Linger& linger_options,
                       CompletionObserver* completions)
    : connection_(connection),
      runner_(connection),
      max_batch_(std::max<std::size_t>(max_batch, 1)),
      linger_(normalized(linger_options, max_batch_)),
      completions_(completions),
      window_start_(std::chrono::steady_clock::now()),
      busy_(linger_.min_rate <= 0),
      thread_([this] { loop(); }) {
  writer_id_ = thread_.get_id();
}

WriteQueue::~WriteQueue() {
  stop();
}

bool WriteQueue::push(WriteOp&& op) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    wake = queue_.empty();
    queue_.push_back(std::move(op));
    ++pushed_;
    if (lingering_ && queue_.size() == linger_.batch) wake = true;
  }
  // The writer sleeps on an empty queue, or lingers until the queue holds
  // linger_.batch (it checks under the lock), so only the push that ends
  // emptiness or fills the linger's batch needs to wake it.
  if (wake) work_ready_.notify_one();
  return true;
}

void WriteQueue::flush() {
  if (std::this_thread::get_id() == writer_id_) return;
  std::unique_lock lock(mutex_);
  const std::uint64_t target = pushed_;
  if (completed_ >= target) return;
  ++flushing_;
  if (lingering_) work_ready_.notify_one();  // the linger ends for a flush
  work_done_.wait(lock, [&] { return completed_ >= target; });
  --flushing_;
}

void WriteQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  if (thread_.joinable() && std::this_thread::get_id() != writer_id_) thread_.join();
}

WriterMetrics WriteQueue::metrics() const {
  std::lock_guard lock(mutex_);
  WriterMetrics m = metrics_;
  m.queue_depth = queue_.size();
  return m;
}

void WriteQueue::loop() {
  // Named for per-thread CPU figures (top -H, bench/peer_compare.sh).
  pthread_setname_np(pthread_self(), "tc-writer");
  std::vector<WriteOp> batch;
  // SQLite's page cache (8 MiB on the writer, backend_open.cpp) is given
  // back once the queue has been empty for kIdleRelease: an idle server
  // returns to its idle size. Under load it is kept: a full cache reuses
  // its page buffers, while freeing it every so often only refilled it
  // with new allocations between long-lived ones, a heap the allocator
  // could not return (bench/README.md, "Memory through a day of play").
  bool wrote = false;
  constexpr auto kIdleRelease = std::chrono::seconds(5);
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] { return !queue_.empty() || stopping_; };
      if (!wrote) {
        work_ready_.wait(lock, ready);
      } else if (!work_ready_.wait_for(lock, kIdleRelease, ready)) {
        wrote = false;
        lock.unlock();
        connection_.release_memory();
        continue;
      }
      if (queue_.empty()) return;  // stopping, and everything is committed
      wrote = true;
      linger(lock);
      const std::size_t n = std::min(queue_.size(), max_batch_);
      batch.clear();
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      note_taken(n, std::chrono::steady_clock::now());
    }
    run_batch(batch);
    last_commit_end_ = std::chrono::steady_clock::now();
  }
}

void WriteQueue::linger(std::unique_lock<std::mutex>& lock) {
  const auto done = [&] { return queue_.size() >= linger_.batch || stopping_ || flushing_ > 0; };
  if (!busy_ || linger_.bound.count() == 0 || done()) return;
  // Measured from the last commit's end, so that an operation arriving at
  // an idle writer long after it is taken at once, and none waits longer
  // than the bound.
  const auto deadline = last_commit_end_ + linger_.bound;
  if (std::chrono::steady_clock::now() >= deadline) return;
  ++metrics_.batches_lingered;
  lingering_ = true;
  work_ready_.wait_until(lock, deadline, done);
  lingering_ = false;
}

void WriteQueue::note_taken(std::size_t n, std::chrono::steady_clock::time_point now) {
  window_ops_ += n;
  const auto elapsed = now - window_start_;
  if (elapsed < kRateWindow) return;
  const double seconds = std::chrono::duration<double>(elapsed).count();
  busy_ = static_cast<double>(window_ops_) >= linger_.min_rate * seconds;
  window_start_ = now;
  window_ops_ = 0;
}

void WriteQueue::run_batch(std::vector<WriteOp>& batch) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<WriteResult> results(batch.size());
  const BatchRunner::Counts counts = runner_.run(batch, results);
  const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - started);

  if (completions_ != nullptr) completions_->completions_begin();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].done) continue;
    try {
      batch[i].done(results[i]);
    } catch (...) {
      // A callback must not throw; the writer has to outlive a bad one.
    }
  }
  if (completions_ != nullptr) completions_->completions_end();

  // A reload marker is bookkeeping, not a write: it is not an operation in
  // the counters, nor in a batch's size.
  std::uint64_t ops = 0;
  std::uint64_t ok = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].reload) continue;
    ++ops;
    if (results[i].ok()) ++ok;
  }
  {
    std::lock_guard lock(mutex_);
    metrics_.batches_committed += counts.commits;
    metrics_.batches_retried += counts.retried;
    metrics_.ops_committed += ok;
    metrics_.ops_failed += ops - ok;
    metrics_.last_batch_size = ops;
    metrics_.max_batch_size = std::max<std::uint64_t>(metrics_.max_batch_size, ops);
    metrics_.last_commit_latency_ns = static_cast<std::uint64_t>(elapsed.count());
    metrics_.total_commit_latency_ns += static_cast<std::uint64_t>(elapsed.count());
    completed_ += batch.size();
  }
  work_done_.notify_all();
  batch.clear();  // release the callbacks' captures outside the lock
}

}  // namespace tilecrush::storage::detail
