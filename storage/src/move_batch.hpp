// The moves of a batch stored in a few statements instead of one each
// (PostgreSQL: every statement is a round trip to the server).
//
// Thread safety: none of its own; called by the writer thread on its
// connection, inside its transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "connection.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::storage::detail {

// One move to append (Database::append_move), as the statement stores it.
struct MoveAppend {
  std::string game_id;
  std::int64_t seq = 0;  // the moves the list holds before it
  std::string move;      // encode_move()
  std::string time;      // encode_move_time()
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::optional<std::int64_t> first_move_at;
};

// Appends one move (insert_encoded_move()): what the writer runs for an
// operation that carries `append` and no `run`.
WriteResult store_move(Connection& c, const MoveAppend& move);

// Appends each move as insert_encoded_move() would, one after the other in
// the order given, and returns each move's result (the i-th for moves[i]).
// PostgreSQL: one UPDATE of every game concerned (each game's moves of the
// batch, consecutive from its list's length, concatenated); the moves of a
// game that update did not change (a move not the next, the game over or
// unknown: another node's write, or a refused move) then run one by one,
// which gives each its own result. So a conflict in one game fails that
// game's moves only; a game's moves after its first refused as a conflict
// are refused unrun (they were made on it). SQLite: one statement each
// (in-process, as cheap).
// Throws StorageError as a statement does (the transaction is then lost).
std::vector<WriteResult> append_moves(Connection& c, std::span<const MoveAppend* const> moves);

// PostgreSQL: EXPLAIN of append_moves()'s statement as PostgreSQL plans it
// once it has settled on a generic plan (after a few runs it plans it
// without the arrays, and keeps that plan until the table is analyzed
// again), one line per plan row; empty on SQLite (one statement a move).
std::string explain_move_batch(Connection& c);

// Database::append_final_move, in the caller's savepoint: the move, then
// the end (finish_game_with_move: finish_game with moves_stored, the row
// read by the move's own statement). The first refusal is the result, and
// the savepoint's rollback then takes the move back with it.
WriteResult append_final_move(Connection& c, const MoveAppend& move, const GameResult& result);

}  // namespace tilecrush::storage::detail
