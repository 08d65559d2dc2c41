// The single writer thread and its queue: group commit.
//
// The thread takes everything queued when it starts a transaction (at most
// max_batch operations), takes the lock keys they announce (all at once, in
// ascending order), runs each in its own savepoint, commits once, then
// calls each operation's callback with its result. An operation that fails
// is rolled back to its savepoint alone; if the database aborts the whole
// transaction, or COMMIT fails, every operation of it is reported failed.
// A batch that lost a race with another writer (PostgreSQL's serialization
// failure, several nodes) is rolled back and run again from its start;
// callbacks run once, after the try that counts.
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

#include "connection.hpp"
#include "move_batch.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::storage::detail {

struct WriteOp {
  // Runs on the writer thread inside the operation's savepoint. Empty when
  // `append` is set: the writer then runs store_move(append).
  std::function<WriteResult(Connection&)> run;
  WriteCallback done;  // may be empty
  // `run` is one statement that changes nothing when it fails: it runs
  // without a savepoint (three statements fewer per move).
  bool single_statement = false;
  // May be empty. Adds the lock keys (Connection::lock_keys) `run` will take,
  // as far as they can be told before it runs (it may read): the writer
  // takes every key of a batch at once, in one order, before running it, so
  // that batches of several nodes never wait for each other in a circle.
  // `run` still takes its own keys (those it finds only by running, e.g. of
  // a game created earlier in the same batch).
  std::function<void(Connection&, std::vector<std::int32_t>&)> lock_keys;
  // A move appended (`run` stores it alone, single_statement): consecutive
  // such operations of a batch are stored together (append_moves()).
  std::optional<MoveAppend> append;
};

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
  void run_batch(std::vector<WriteOp>& batch);
  // One try at the batch; sets lost_race_ when it must run again.
  std::uint64_t attempt_batch(std::vector<WriteOp>& batch, std::vector<WriteResult>& results);
  WriteResult run_one(WriteOp& op);
  // Runs the moves of ops [from, end) (each with `append`) together into
  // results; as run_one() for a failure of the whole.
  void run_moves(std::vector<WriteOp>& batch, std::size_t from, std::size_t end,
                 std::vector<WriteResult>& results);
  // Takes the lock keys ops [from, end) announce; false when it failed (the
  // transaction is lost: lost_race_ is set when trying again may help).
  bool lock_ahead(std::vector<WriteOp>& batch, std::size_t from, std::string& error);

  Connection& connection_;
  const std::size_t max_batch_;

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::deque<WriteOp> queue_;
  std::uint64_t pushed_ = 0;     // operations ever queued
  std::uint64_t completed_ = 0;  // operations whose callback has run
  bool stopping_ = false;
  WriterMetrics metrics_;   // queue_depth is filled in by metrics()
  bool lost_race_ = false;  // writer thread only

  std::thread thread_;         // starts once everything above exists
  std::thread::id writer_id_;  // set before the constructor returns, then constant
};

}  // namespace tilecrush::storage::detail
