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

constexpr std::string_view kCommit = "COMMIT";
constexpr std::string_view kRollback = "ROLLBACK";
constexpr std::string_view kSavepoint = "SAVEPOINT op";
constexpr std::string_view kRollbackToSavepoint = "ROLLBACK TO SAVEPOINT op";
constexpr std::string_view kRelease = "RELEASE op";
// A batch that lost a race with another node's writer (PostgreSQL) runs
// again from its start, this many times in all before its operations fail.
constexpr int kMaxAttempts = 5;

WriteResult failure(std::string message) {
  return write_error(WriteStatus::failed, std::move(message));
}

}  // namespace

WriteQueue::WriteQueue(Connection& connection, std::size_t max_batch)
    : connection_(connection),
      max_batch_(std::max<std::size_t>(max_batch, 1)),
      thread_([this] { loop(); }) {
  writer_id_ = thread_.get_id();
}

WriteQueue::~WriteQueue() {
  stop();
}

bool WriteQueue::push(WriteOp&& op) {
  bool was_empty = false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    was_empty = queue_.empty();
    queue_.push_back(std::move(op));
    ++pushed_;
  }
  // The writer sleeps only on an empty queue (it checks under the lock), so
  // only the push that ends emptiness needs to wake it.
  if (was_empty) work_ready_.notify_one();
  return true;
}

void WriteQueue::flush() {
  if (std::this_thread::get_id() == writer_id_) return;
  std::unique_lock lock(mutex_);
  const std::uint64_t target = pushed_;
  work_done_.wait(lock, [&] { return completed_ >= target; });
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
      const std::size_t n = std::min(queue_.size(), max_batch_);
      batch.clear();
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    run_batch(batch);
  }
}

WriteResult WriteQueue::run_one(WriteOp& op) {
  if (op.single_statement) {
    try {
      return op.run ? op.run(connection_) : store_move(connection_, *op.append);
    } catch (const StorageError& e) {
      if (is_retryable(e.sqlite_code())) lost_race_ = true;
      return failure(e.what());
    } catch (const std::exception& e) {
      return failure(e.what());
    }
  }
  try {
    // PostgreSQL: sent with the operation's first statement (a pipeline).
    connection_.run_deferred(kSavepoint);
  } catch (const StorageError& e) {
    if (is_retryable(e.sqlite_code())) lost_race_ = true;
    return failure(e.what());
  }
  WriteResult result;
  try {
    result = op.run ? op.run(connection_) : store_move(connection_, *op.append);
  } catch (const StorageError& e) {
    if (is_retryable(e.sqlite_code())) lost_race_ = true;
    result = failure(e.what());
  } catch (const std::exception& e) {
    result = failure(e.what());
  }
  try {
    // The rollback runs at once: a failed statement left the transaction
    // unusable until then, and in_transaction() must say it is usable
    // again. The release goes with the next statement.
    if (!result.ok()) connection_.query(kRollbackToSavepoint)->run();
    connection_.run_deferred(kRelease);
  } catch (const StorageError& e) {
    if (is_retryable(e.sqlite_code())) lost_race_ = true;
    if (result.ok()) result = failure(e.what());
  }
  return result;
}

void WriteQueue::run_moves(std::vector<WriteOp>& batch, std::size_t from, std::size_t end,
                           std::vector<WriteResult>& results) {
  std::vector<const MoveAppend*> moves;
  moves.reserve(end - from);
  for (std::size_t i = from; i < end; ++i) moves.push_back(&*batch[i].append);
  try {
    std::vector<WriteResult> stored = append_moves(connection_, moves);
    std::move(stored.begin(), stored.end(), results.begin() + static_cast<std::ptrdiff_t>(from));
  } catch (const StorageError& e) {
    if (is_retryable(e.sqlite_code())) lost_race_ = true;
    for (std::size_t i = from; i < end; ++i) results[i] = failure(e.what());
  } catch (const std::exception& e) {
    for (std::size_t i = from; i < end; ++i) results[i] = failure(e.what());
  }
}

bool WriteQueue::lock_ahead(std::vector<WriteOp>& batch, std::size_t from, std::string& error) {
  if (!connection_.locks_keys()) return true;
  std::vector<std::int32_t> keys;
  try {
    for (std::size_t i = from; i < batch.size(); ++i) {
      if (batch[i].lock_keys) batch[i].lock_keys(connection_, keys);
    }
    connection_.lock_keys(std::move(keys));
  } catch (const StorageError& e) {
    if (is_retryable(e.sqlite_code())) lost_race_ = true;
    error = e.what();
    return false;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

std::uint64_t WriteQueue::attempt_batch(std::vector<WriteOp>& batch,
                                        std::vector<WriteResult>& results) {
  std::uint64_t commits = 0;
  std::size_t open_from = 0;  // first operation of the open transaction
  bool open = false;
  // Everything since open_from that looked fine was lost with its transaction.
  const auto lose_open = [&](std::size_t end, const std::string& why) {
    for (std::size_t j = open_from; j < end; ++j) {
      if (results[j].ok()) results[j] = failure(why);
    }
    open = false;
    connection_.abandon_transaction();
  };

  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!open) {
      try {
        connection_.begin_write();
        open = true;
        open_from = i;
      } catch (const StorageError& e) {
        // Another process holds the write lock past busy_timeout, or the
        // database is unusable: retrying per operation would only wait longer.
        for (std::size_t j = i; j < batch.size(); ++j) {
          results[j] = failure(std::string("cannot begin: ") + e.what());
        }
        break;
      }
      std::string error;
      if (!lock_ahead(batch, i, error)) {
        if (lost_race_) break;
        for (std::size_t j = i; j < batch.size(); ++j) {
          results[j] = failure("cannot lock: " + error);
        }
        open = false;
        connection_.abandon_transaction();
        break;
      }
    }
    std::size_t end = i + 1;  // the operations run by this step
    if (batch[i].append && connection_.postgres()) {
      while (end < batch.size() && batch[end].append) ++end;
      run_moves(batch, i, end, results);
    } else {
      results[i] = run_one(batch[i]);
    }
    if (!connection_.in_transaction()) {
      // SQLite rolls a whole transaction back on some errors (disk full, I/O);
      // on PostgreSQL a failed statement outside a savepoint dooms it.
      lose_open(end, "transaction rolled back: " + results[end - 1].message);
    }
    i = end - 1;
    if (lost_race_) break;
  }
  if (lost_race_) {
    connection_.abandon_transaction();
    return 0;
  }
  if (open) {
    try {
      connection_.query(kCommit)->run();
      ++commits;
    } catch (const StorageError& e) {
      if (is_retryable(e.sqlite_code())) lost_race_ = true;
      lose_open(batch.size(), std::string("commit failed: ") + e.what());
    }
  }
  return commits;
}

void WriteQueue::run_batch(std::vector<WriteOp>& batch) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<WriteResult> results(batch.size());
  std::uint64_t commits = 0;
  std::uint64_t retried = 0;
  for (int attempt = 1;; ++attempt) {
    lost_race_ = false;
    std::fill(results.begin(), results.end(), WriteResult{});
    commits = attempt_batch(batch, results);
    if (!lost_race_) break;
    if (attempt == kMaxAttempts) {
      for (WriteResult& r : results) {
        if (r.ok()) r = failure("gave up after conflicts with other writers");
      }
      break;
    }
    ++retried;
  }
  const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - started);

  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].done) continue;
    try {
      batch[i].done(results[i]);
    } catch (...) {
      // A callback must not throw; the writer has to outlive a bad one.
    }
  }

  const auto ok = static_cast<std::uint64_t>(
      std::count_if(results.begin(), results.end(), [](const WriteResult& r) { return r.ok(); }));
  {
    std::lock_guard lock(mutex_);
    metrics_.batches_committed += commits;
    metrics_.batches_retried += retried;
    metrics_.ops_committed += ok;
    metrics_.ops_failed += batch.size() - ok;
    metrics_.last_batch_size = batch.size();
    metrics_.max_batch_size = std::max<std::uint64_t>(metrics_.max_batch_size, batch.size());
    metrics_.last_commit_latency_ns = static_cast<std::uint64_t>(elapsed.count());
    metrics_.total_commit_latency_ns += static_cast<std::uint64_t>(elapsed.count());
    completed_ += batch.size();
  }
  work_done_.notify_all();
  batch.clear();  // release the callbacks' captures outside the lock
}

}  // namespace tilecrush::storage::detail
