// Small helpers shared by the engine tests: boards written as text, games on
// custom boards, and a snapshot of everything a refused request must leave
// unchanged.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::game::test {

// Rows top first, one character per cell: '0'..'9', 'a' = 10, 'b' = 11.
inline Board board_of(std::initializer_list<std::string_view> rows) {
  const int height = static_cast<int>(rows.size());
  const int width = static_cast<int>(rows.begin()->size());
  Board board(width, height);
  int y = 0;
  for (std::string_view row : rows) {
    for (int x = 0; x < width; ++x) {
      const char c = row[static_cast<std::size_t>(x)];
      board.set(x, y, static_cast<std::uint8_t>(c >= 'a' ? c - 'a' + 10 : c - '0'));
    }
    ++y;
  }
  return board;
}

// The inverse of board_of for cells 0..9, for readable failure messages.
inline std::vector<std::string> rows_of(const Board& board) {
  std::vector<std::string> rows;
  for (int y = 0; y < board.height(); ++y) {
    std::string row;
    for (int x = 0; x < board.width(); ++x) row += static_cast<char>('0' + board.at(x, y));
    rows.push_back(row);
  }
  return rows;
}

inline GameSetup same_setup(std::string preset, std::string seed) {
  GameSetup setup;
  setup.mode = Mode::same;
  setup.preset = std::move(preset);
  setup.seed = std::move(seed);
  return setup;
}

inline GameSetup board_setup(Mode mode, Board board) {
  GameSetup setup;
  setup.mode = mode;
  setup.seed = "test";
  setup.board = std::move(board);
  return setup;
}

inline std::unique_ptr<Game> same_on(Board board) {
  CreateResult created = create_game(board_setup(Mode::same, std::move(board)));
  EXPECT_TRUE(created.game) << created.error;
  return std::move(created.game);
}

// Everything a refused request must leave as it was.
struct Snapshot {
  std::uint64_t hash = 0;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::vector<Move> moves;
  Board board;
  std::vector<int> visible;
  OverReason over = OverReason::none;

  explicit Snapshot(const Game& g)
      : hash(g.state_hash()),
        score(g.score()),
        move_count(g.move_count()),
        moves(g.moves()),
        board(g.board()),
        visible(g.visible_board()),
        over(g.over_reason()) {}
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

inline std::set<std::pair<int, int>> cell_set(const std::vector<Point>& cells) {
  std::set<std::pair<int, int>> out;
  for (const Point p : cells) out.insert({p.x, p.y});
  return out;
}

inline Move click(int x, int y) {
  return Move{MoveKind::click, {x, y}, {}};
}

}  // namespace tilecrush::game::test
