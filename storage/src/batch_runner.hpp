// One batch of write operations run as one write transaction on the
// writer's connection (WriteQueue's group commit).
//
// Contract: run() begins a write transaction, takes the lock keys the
// operations announce (all at once, in ascending order), runs each
// operation in its own savepoint (a single statement without one; on
// PostgreSQL the batch's appended moves together, in one statement unless
// an operation of one of their games comes between them), and commits once. An operation
// that fails is rolled back to its savepoint alone; if the database aborts
// the whole transaction, or COMMIT fails, every operation of it is reported
// failed. A batch that lost a race with another writer (PostgreSQL's
// serialization failure or deadlock, several nodes) is rolled back and run
// again from its start, up to five tries. It calls no callback.
//
// Thread safety: none; the writer thread alone uses it (and its
// connection).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "connection.hpp"
#include "refused_games.hpp"
#include "write_op.hpp"

namespace tilecrush::storage::detail {

class BatchRunner {
 public:
  explicit BatchRunner(Connection& connection) : connection_(connection) {}

  struct Counts {
    std::uint64_t commits = 0;  // of the try that counts: 0 or 1
    std::uint64_t retried = 0;  // tries run again after a lost race
  };
  // Runs `batch`, leaving one result per operation in `results` (sized as
  // the batch).
  Counts run(std::vector<WriteOp>& batch, std::vector<WriteResult>& results);

 private:
  // One try at the batch; sets lost_race_ when it must run again.
  std::uint64_t attempt_batch(std::vector<WriteOp>& batch, std::vector<WriteResult>& results);
  WriteResult run_one(WriteOp& op);
  // Runs the moves of the ops at `pending` (batch indexes, in order, each
  // with `append`) together into results; as run_one() for a failure of
  // the whole.
  void run_pending_moves(std::vector<WriteOp>& batch, std::span<const std::size_t> pending,
                         std::vector<WriteResult>& results);
  // Takes the lock keys ops [from, end) announce; false when it failed (the
  // transaction is lost: lost_race_ is set when trying again may help).
  bool lock_ahead(std::vector<WriteOp>& batch, std::size_t from, std::string& error);

  // Refuses op unrun when its game is refused (refused_games.hpp), or runs
  // a `reload` marker; true when it did either, with the op's result.
  bool settle_unrun(const WriteOp& op, WriteResult& result);
  // Notes the games of the ops at `ops` (batch indexes) refused as
  // conflicts.
  void note_refusals(const std::vector<WriteOp>& batch, std::span<const std::size_t> ops,
                     const std::vector<WriteResult>& results);

  Connection& connection_;
  bool lost_race_ = false;
  RefusedGames refused_;  // with the current try's changes pending
};

}  // namespace tilecrush::storage::detail
