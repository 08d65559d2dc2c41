// One queued write operation: what the writer thread runs, what it calls
// back with the result, and what it needs to know ahead (WriteQueue,
// BatchRunner).
//
// Thread safety: a value, moved from the pushing thread to the writer
// thread; `run`, `lock_keys` and `done` are called on the writer thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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
  // The game whose moves, undo or end `run` writes (empty otherwise, and
  // for `append`, which names its game): after one of a game's writes is
  // refused as a conflict, the writer refuses its later ones unrun, until
  // an operation with `reload` of that game (Database::reload_game).
  // An operation that names no game neither writes nor reads any game's
  // moves, score or move count (creating a game only inserts its row): on
  // PostgreSQL the writer stores a batch's moves after such operations that
  // came later (BatchRunner), but before any operation that names a game of
  // theirs.
  std::string game;
  // No statement: the game `game` is being read afresh (ends the above).
  bool reload = false;
  // `run` ends the game `game`: its keys are finish_game's, which the writer
  // reads for every such operation of a transaction at once
  // (finish_games_lock_keys(), one statement), besides `lock_keys`.
  bool ends_game = false;
};

// The game an operation writes, or empty.
inline std::string_view game_of(const WriteOp& op) {
  return op.append ? std::string_view(op.append->game_id) : std::string_view(op.game);
}

}  // namespace tilecrush::storage::detail
