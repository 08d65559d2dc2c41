// Small helpers shared by the engine tests: boards written as text, the
// setups games start from, and a snapshot of everything a refused request
// must leave unchanged. The mode's own helpers (match3_test_util.hpp,
// hidden_test_util.hpp) build on these.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::game::test {

// Rows top first, one character per cell: '.' or '0' is empty, '1'..'9'
// colours 1..9, 'a' (or 'A') = 10, 'b' = 11, 'c' = 12.
inline std::uint8_t cell_of(char c) {
  if (c == '.') return 0;
  if (c >= 'a') return static_cast<std::uint8_t>(c - 'a' + 10);
  if (c >= 'A') return static_cast<std::uint8_t>(c - 'A' + 10);
  return static_cast<std::uint8_t>(c - '0');
}

template <typename Rows>
Board board_of_rows(const Rows& rows) {
  Board board(static_cast<int>(std::string_view(*rows.begin()).size()),
              static_cast<int>(rows.size()));
  int y = 0;
  for (std::string_view row : rows) {
    for (int x = 0; x < board.width(); ++x)
      board.set(x, y, cell_of(row[static_cast<std::size_t>(x)]));
    ++y;
  }
  return board;
}

inline Board board_of(std::initializer_list<std::string_view> rows) {
  return board_of_rows(rows);
}
inline Board board_of(const std::vector<std::string>& rows) {
  return board_of_rows(rows);
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

// The setups the tests start from: a preset's board, a custom size dealt
// from the seed, a custom board.
inline GameSetup preset_setup(Mode mode, std::string preset, std::string seed) {
  GameSetup setup;
  setup.mode = mode;
  setup.preset = std::move(preset);
  setup.seed = std::move(seed);
  return setup;
}

inline GameSetup same_setup(std::string preset, std::string seed) {
  return preset_setup(Mode::same, std::move(preset), std::move(seed));
}

inline GameSetup dealt_setup(Mode mode, std::string seed, int width, int height, int colors) {
  GameSetup setup;
  setup.mode = mode;
  setup.seed = std::move(seed);
  setup.width = width;
  setup.height = height;
  setup.colors = colors;
  return setup;
}

inline GameSetup board_setup(Mode mode, Board board, std::string seed = "test") {
  GameSetup setup;
  setup.mode = mode;
  setup.seed = std::move(seed);
  setup.board = std::move(board);
  return setup;
}

// The game of a setup the test expects to be valid (a failure otherwise,
// with the reason, and null).
inline std::unique_ptr<Game> make(const GameSetup& setup) {
  CreateResult created = create_game(setup);
  EXPECT_TRUE(created.game) << created.error;
  return std::move(created.game);
}

inline std::unique_ptr<Game> same_on(Board board) {
  return make(board_setup(Mode::same, std::move(board)));
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

// `event` is the game_over event with these fields.
inline void expect_over(const Event& event, OverReason reason, std::int64_t bonus,
                        std::int64_t final_score) {
  const auto* over = std::get_if<GameOverEvent>(&event);
  ASSERT_NE(over, nullptr) << "not a game_over event";
  EXPECT_EQ(over->reason, reason);
  EXPECT_EQ(over->bonus, bonus);
  EXPECT_EQ(over->final_score, final_score);
}

inline Move click(int x, int y) {
  return Move{MoveKind::click, {x, y}, {}};
}

}  // namespace tilecrush::game::test
