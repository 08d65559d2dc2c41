// Helpers shared by the hidden-colours tests.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "board_ops.hpp"
#include "game_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::game::hidden_test {

using test::board_of;
using test::expect_over;
using test::make;

inline GameSetup custom_setup(const std::vector<std::string>& rows, bool compress = false) {
  GameSetup setup = test::board_setup(Mode::hidden, board_of(rows));
  setup.compress = compress;
  return setup;
}

inline std::unique_ptr<Game> make(const std::vector<std::string>& rows, bool compress = false) {
  return make(custom_setup(rows, compress));
}

inline Move peek(int x, int y) {
  return {MoveKind::peek, {x, y}, {}};
}
inline Move sel(int x, int y) {
  return {MoveKind::select, {x, y}, {}};
}
inline Move unsel(int x, int y) {
  return {MoveKind::unselect, {x, y}, {}};
}

inline Status play(Game& g, const Move& m) {
  EventList events;
  return g.apply(m, events).status;
}

// Applies m and checks that it is refused with `want` and changes nothing.
inline void expect_refused(Game& g, const Move& m, Status want) {
  const std::uint64_t hash = g.state_hash();
  const std::int64_t score = g.score();
  const std::int64_t count = g.move_count();
  const std::vector<Move> moves = g.moves();
  const std::vector<int> view = g.visible_board();
  const std::vector<Point> selected = g.selected();
  const std::int64_t peeks = g.peeks();
  const Board board = g.board();
  EventList events;
  const Outcome outcome = g.apply(m, events);
  EXPECT_EQ(outcome.status, want) << to_string(m.kind) << " " << m.a.x << "," << m.a.y;
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(g.state_hash(), hash);
  EXPECT_EQ(g.score(), score);
  EXPECT_EQ(g.move_count(), count);
  EXPECT_EQ(g.moves(), moves);
  EXPECT_EQ(g.visible_board(), view);
  EXPECT_EQ(g.selected(), selected);
  EXPECT_EQ(g.peeks(), peeks);
  EXPECT_EQ(g.board(), board);
}

inline std::vector<std::array<int, 2>> sorted_points(const std::vector<Point>& ps) {
  std::vector<std::array<int, 2>> out;
  for (const Point p : ps) out.push_back({p.x, p.y});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tilecrush::game::hidden_test
