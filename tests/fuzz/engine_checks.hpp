// Facts about a game that hold between any two requests, checked from the
// outside: the shape of a settled board, what a hidden-mode player may see,
// and protocol.md's state_hash recomputed independently.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz_check.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::fuzz {

// protocol.md: FNV-1a 64 over the visible cells (hidden as 255), then
// move_count and score as 8-byte little-endian signed integers.
inline std::uint64_t spec_state_hash(const std::vector<int>& visible, std::int64_t move_count,
                                     std::int64_t score) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const auto eat = [&h](std::uint8_t b) {
    h ^= b;
    h *= 0x100000001b3ULL;
  };
  for (const int c : visible) eat(c < 0 ? 255 : static_cast<std::uint8_t>(c));
  for (const std::int64_t v : {move_count, score}) {
    const auto u = static_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i) eat(static_cast<std::uint8_t>(u >> (8 * i)));
  }
  return h;
}

// Gravity holds in every column: no filled cell above an empty one.
inline bool gravity_holds(const game::Board& b) {
  for (int x = 0; x < b.width(); ++x) {
    for (int y = 0; y + 1 < b.height(); ++y) {
      if (b.at(x, y) != 0 && b.at(x, y + 1) == 0) return false;
    }
  }
  return true;
}

// No empty column left of a non-empty one (with gravity, a column is empty
// exactly when its bottom cell is).
inline bool columns_compressed(const game::Board& b) {
  bool seen_empty = false;
  for (int x = 0; x < b.width(); ++x) {
    const bool empty = b.at(x, b.height() - 1) == 0;
    if (!empty && seen_empty) return false;
    seen_empty = seen_empty || empty;
  }
  return true;
}

inline bool has_run_of_three(const game::Board& b) {
  for (int y = 0; y < b.height(); ++y) {
    for (int x = 0; x < b.width(); ++x) {
      const std::uint8_t c = b.at(x, y);
      if (c == 0) continue;
      if (x + 2 < b.width() && b.at(x + 1, y) == c && b.at(x + 2, y) == c) return true;
      if (y + 2 < b.height() && b.at(x, y + 1) == c && b.at(x, y + 2) == c) return true;
    }
  }
  return false;
}

// Everything that must hold whenever no request is running.
inline void check_state(const game::Game& g) {
  const game::Board& board = g.board();
  const std::vector<int> visible = g.visible_board();
  FUZZ_CHECK(visible.size() == board.cells().size(), "visible_board has the board's size");
  FUZZ_CHECK(g.state_hash() == spec_state_hash(visible, g.move_count(), g.score()),
             "state_hash is protocol.md's hash of visible_board, move_count and score");
  FUZZ_CHECK(gravity_holds(board), "a settled board has no filled cell above a hole");

  const game::GameSetup& setup = g.setup();
  switch (g.mode()) {
    case game::Mode::same:
      FUZZ_CHECK(columns_compressed(board), "Same Game columns are compressed");
      break;
    case game::Mode::match3:
      FUZZ_CHECK(!has_run_of_three(board), "a match-3 board between moves has no run");
      break;
    case game::Mode::hidden:
      if (setup.compress) FUZZ_CHECK(columns_compressed(board), "compress: columns are compressed");
      break;
  }

  if (g.mode() != game::Mode::hidden) {
    FUZZ_CHECK(std::equal(visible.begin(), visible.end(), board.cells().begin()),
               "a visible mode shows the true board");
    FUZZ_CHECK(g.selected().empty() && g.peeks() == 0, "no selection or peeks outside hidden");
    return;
  }
  // Hidden: a filled cell shows its colour only while it is selected.
  std::vector<bool> selected(visible.size(), false);
  std::uint8_t selection_colour = 0;
  for (const game::Point p : g.selected()) {
    FUZZ_CHECK(board.contains(p.x, p.y) && board.at(p.x, p.y) != 0, "a selected cell is filled");
    const auto i = static_cast<std::size_t>(p.y * board.width() + p.x);
    FUZZ_CHECK(!selected[i], "a cell is selected once");
    selected[i] = true;
    if (selection_colour == 0) selection_colour = board.at(p.x, p.y);
    FUZZ_CHECK(board.at(p.x, p.y) == selection_colour, "the selection has one colour");
  }
  for (std::size_t i = 0; i < visible.size(); ++i) {
    const int truth = board.cells()[i];
    const int expected = truth == 0 ? 0 : (selected[i] ? truth : -1);
    FUZZ_CHECK(visible[i] == expected, "hidden view: no colour of an unselected filled cell");
  }
  FUZZ_CHECK(g.peeks() >= 0 && g.peeks() <= g.move_count(), "peeks are moves");
}

}  // namespace tilecrush::fuzz
