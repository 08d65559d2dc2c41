// Undo without keeping a board per move: a snapshot of a game's state
// before every kEvery-th move, from which undo replays the few moves since.
// A game of n moves keeps ceil(n / kEvery) snapshots (a 15x15 Same Game
// after 60 moves: 4 boards of 225 bytes instead of 60), and an undo
// replays at most kEvery - 1 moves.
//
// Thread safety: none (it is part of one Game's state).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::game::detail {

// What every mode's snapshot holds: the board's cells and the score. A mode
// with more state (match-3's generator) derives its snapshot from it.
struct BoardSnapshot {
  std::vector<std::uint8_t> cells;
  std::int64_t score = 0;

  // Puts the board's cells and the score back as they were.
  void restore(Board& board, std::int64_t& score_now) const {
    std::copy(cells.begin(), cells.end(), board.cells().begin());
    score_now = score;
  }
};

template <typename State>
class UndoCheckpoints {
 public:
  static constexpr std::size_t kEvery = 16;

  // Called with the state before move `index` (0-based) is applied; keeps it
  // when a snapshot is due there. Snapshots of moves at or after `index`
  // (left by undone moves) are dropped first.
  void before_move(std::size_t index, const State& state) {
    if (index % kEvery != 0) return;
    snapshots_.resize(index / kEvery);
    snapshots_.push_back(state);
  }

  // Takes back the last of a game's `moves` moves (moves > 0, every one
  // seen by before_move()): restore(state) with the nearest snapshot before
  // it, then replay(i) for each move i from that snapshot up to the last
  // one (excluded), in order; the snapshots the game no longer needs go.
  // The caller then drops its last move.
  template <typename Restore, typename Replay>
  void take_back_last(std::size_t moves, Restore&& restore, Replay&& replay) {
    const std::size_t last = moves - 1;
    restore(snapshots_[last / kEvery]);
    for (std::size_t i = last - last % kEvery; i < last; ++i) replay(i);
    truncate(last);
  }

  // A mode's undo (Game::undo): refused while the game is `over` or has no
  // move, the same in every mode; otherwise take_back_last() over `moves`,
  // whose last move is then dropped.
  template <typename Restore, typename Replay>
  Outcome undo_last(bool over, std::vector<Move>& moves, Restore&& restore, Replay&& replay) {
    if (over) return Outcome::refuse(Status::not_allowed, "the game is over");
    if (moves.empty()) return Outcome::refuse(Status::not_allowed, "nothing to undo");
    take_back_last(moves.size(), restore, replay);
    moves.pop_back();
    return Outcome::success();
  }

 private:
  // The game now has `moves` moves: snapshots taken before later ones go.
  void truncate(std::size_t moves) { snapshots_.resize((moves + kEvery - 1) / kEvery); }

  std::vector<State> snapshots_;
};

}  // namespace tilecrush::game::detail
