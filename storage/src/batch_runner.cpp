#include "batch_runner.hpp"

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "codec.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

// Transaction control, written bare (no raw-string newlines, unlike the
// stores' statements): PostgreSQL's session recognises these by their text
// (PgSession::note_transaction_control, PgStatement's COMMIT check).
constexpr std::string_view kCommit = "COMMIT";
constexpr std::string_view kRollbackToSavepoint = "ROLLBACK TO SAVEPOINT op";
constexpr std::string_view kSavepoint = "SAVEPOINT op";
constexpr std::string_view kRelease = "RELEASE op";
// A batch that lost a race with another node's writer (PostgreSQL) runs
// again from its start, this many times in all before its operations fail.
constexpr int kMaxAttempts = 5;

WriteResult failure(std::string message) {
  return write_error(WriteStatus::failed, std::move(message));
}

}  // namespace

BatchRunner::Counts BatchRunner::run(std::vector<WriteOp>& batch,
                                     std::vector<WriteResult>& results) {
  Counts counts;
  for (int attempt = 1;; ++attempt) {
    lost_race_ = false;
    refused_.discard();  // a try that is run again starts from the same set
    std::fill(results.begin(), results.end(), WriteResult{});
    counts.commits = attempt_batch(batch, results);
    if (!lost_race_) break;
    if (attempt == kMaxAttempts) {
      for (WriteResult& r : results) {
        if (r.ok()) r = failure("gave up after conflicts with other writers");
      }
      break;
    }
    ++counts.retried;
  }
  refused_.commit();
  return counts;
}

bool BatchRunner::settle_unrun(const WriteOp& op, WriteResult& result) {
  const std::string_view game = game_of(op);
  if (game.empty()) return false;
  if (op.reload) {
    refused_.erase(game);
    result = write_ok();
    return true;
  }
  if (!refused_.contains(game)) return false;
  result = write_error(WriteStatus::conflict, "game " + std::string(game) +
                                                  ": an earlier write of it was refused, and "
                                                  "this one was made after it");
  return true;
}

void BatchRunner::note_refusals(const std::vector<WriteOp>& batch, std::span<const std::size_t> ops,
                                const std::vector<WriteResult>& results) {
  for (const std::size_t j : ops) {
    if (results[j].status != WriteStatus::conflict) continue;
    const std::string_view game = game_of(batch[j]);
    if (!game.empty()) refused_.add(game, RefusedGames::Clock::now());
  }
}

WriteResult BatchRunner::run_one(WriteOp& op) {
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

void BatchRunner::run_pending_moves(std::vector<WriteOp>& batch,
                                    std::span<const std::size_t> pending,
                                    std::vector<WriteResult>& results) {
  // The moves of a game refused earlier are refused unrun; the rest go
  // together (append_moves refuses a game's moves after its first refused
  // one in the same way).
  std::vector<const MoveAppend*> moves;
  std::vector<std::size_t> index;  // batch index of each of `moves`
  moves.reserve(pending.size());
  index.reserve(pending.size());
  for (const std::size_t i : pending) {
    if (settle_unrun(batch[i], results[i])) continue;
    moves.push_back(&*batch[i].append);
    index.push_back(i);
  }
  if (moves.empty()) return;
  try {
    std::vector<WriteResult> stored = append_moves(connection_, moves);
    for (std::size_t k = 0; k < stored.size(); ++k) results[index[k]] = std::move(stored[k]);
  } catch (const StorageError& e) {
    if (is_retryable(e.sqlite_code())) lost_race_ = true;
    for (const std::size_t i : index) results[i] = failure(e.what());
  } catch (const std::exception& e) {
    for (const std::size_t i : index) results[i] = failure(e.what());
  }
}

bool BatchRunner::lock_ahead(std::vector<WriteOp>& batch, std::size_t from, std::string& error) {
  if (!connection_.locks_keys()) return true;
  std::vector<std::int32_t> keys;
  std::vector<std::string_view> ending;  // games whose end is in the transaction
  try {
    for (std::size_t i = from; i < batch.size(); ++i) {
      if (batch[i].lock_keys) batch[i].lock_keys(connection_, keys);
      if (batch[i].ends_game) ending.push_back(batch[i].game);
    }
    finish_games_lock_keys(connection_, ending, keys);
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

std::uint64_t BatchRunner::attempt_batch(std::vector<WriteOp>& batch,
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

  // PostgreSQL: the batch's moves not stored yet, by batch index, and their
  // games. They are stored together in one statement (run_pending_moves) when an
  // operation of one of their games comes, and before the commit, so that
  // operations of other games in between (a game created, another's end)
  // do not split them into several statements, each a round trip: an
  // operation names the game whose moves it writes or reads (WriteOp::game),
  // and one that names none touches no game's moves.
  std::vector<std::size_t> pending;
  std::set<std::string_view> pending_games;
  // Stores the pending moves; false when the transaction was lost with them
  // (their results and those of everything before `upto` say so).
  const auto store_pending = [&](std::size_t upto) {
    if (pending.empty()) return true;
    run_pending_moves(batch, pending, results);
    note_refusals(batch, pending, results);
    std::string why;
    for (const std::size_t j : pending) {
      if (!results[j].ok()) why = results[j].message;
    }
    pending.clear();
    pending_games.clear();
    if (!connection_.in_transaction()) {
      lose_open(upto, "transaction rolled back: " + why);
      return false;
    }
    return true;
  };
  const bool gather_moves = connection_.postgres();

  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].append && !pending_games.empty() && pending_games.contains(game_of(batch[i]))) {
      if (!store_pending(i) || lost_race_) break;
    }
    // Settled without a statement (a reload marker, a refused game's later
    // write): a batch of only these opens no transaction.
    if (settle_unrun(batch[i], results[i])) continue;
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
    if (batch[i].append && gather_moves) {
      pending.push_back(i);
      pending_games.insert(game_of(batch[i]));
      continue;
    }
    results[i] = run_one(batch[i]);
    note_refusals(batch, std::span<const std::size_t>(&i, 1), results);
    if (!connection_.in_transaction()) {
      // SQLite rolls a whole transaction back on some errors (disk full, I/O);
      // on PostgreSQL a failed statement outside a savepoint dooms it. The
      // pending moves go with it unrun.
      for (const std::size_t j : pending) results[j] = failure("not run: " + results[i].message);
      pending.clear();
      pending_games.clear();
      lose_open(i + 1, "transaction rolled back: " + results[i].message);
    }
    if (lost_race_) break;
  }
  if (!lost_race_ && open) store_pending(batch.size());
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

}  // namespace tilecrush::storage::detail
