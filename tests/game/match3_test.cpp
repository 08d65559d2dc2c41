// Match-3 play (rules.md "Match-3", protocol.md "Events"): swaps, waves,
// refill, game over, hint and legal moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "match3_board.hpp"
#include "match3_play_util.hpp"
#include "match3_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {
namespace {

using namespace match3_test;

// ---- Swaps ----
void expect_refused(Game& g, const Move& m, Status status) {
  const std::uint64_t hash = g.state_hash();
  const Board board = g.board();
  const std::int64_t count = g.move_count();
  EventList events;
  EXPECT_EQ(g.apply(m, events).status, status);
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(g.state_hash(), hash);
  EXPECT_EQ(g.board(), board);
  EXPECT_EQ(g.move_count(), count);
}

// Row 2 and column 2 both become runs of 1 when (2, 2) and (2, 3) swap.
const Board kCross = board_of({"23142", "34123", "11211", "42134", "23423"});

TEST(Match3Swap, RefusedSwapsChangeNothing) {
  Board b = kCross;
  b.set(0, 0, 0);  // a hole at the top of column 0
  auto g = make(board_setup(b, false));
  ASSERT_EQ(g->board(), b);
  const auto before = g->clone();
  expect_refused(*g, swap(2, 2, 2, 4), Status::invalid_move);   // two apart
  expect_refused(*g, swap(1, 1, 2, 2), Status::invalid_move);   // diagonal
  expect_refused(*g, swap(2, 2, 2, 2), Status::invalid_move);   // itself
  expect_refused(*g, swap(4, 0, 5, 0), Status::invalid_move);   // outside
  expect_refused(*g, swap(-1, 0, 0, 0), Status::invalid_move);  // outside
  expect_refused(*g, swap(0, 0, 1, 0), Status::invalid_move);   // empty cell
  expect_refused(*g, swap(0, 3, 1, 3), Status::invalid_move);   // no run
  expect_refused(*g, swap(2147483647, 0, -2147483647 - 1, 0), Status::invalid_move);
  expect_refused(*g, Move{MoveKind::click, {2, 2}, {}}, Status::wrong_mode);
  // Nothing moved, not even the generator: the next move plays out alike.
  EventList a, c;
  ASSERT_TRUE(g->apply(swap(2, 3, 2, 2), a).ok());
  ASSERT_TRUE(before->apply(swap(2, 3, 2, 2), c).ok());
  EXPECT_EQ(describe(a), describe(c));
}

TEST(Match3Swap, CrossingRunsExplodeAtOnceAndCountOnce) {
  auto g = make(board_setup(kCross, false));
  ASSERT_EQ(g->board(), kCross);
  EventList events;
  ASSERT_TRUE(g->apply(swap(2, 2, 2, 3), events).ok());
  ASSERT_GE(events.size(), 4U);
  const auto& sw = std::get<SwapEvent>(events[0]);
  EXPECT_EQ(sw.a, (Point{2, 2}));
  EXPECT_EQ(sw.b, (Point{2, 3}));
  const auto& removed = std::get<RemoveEvent>(events[1]);
  EXPECT_EQ(removed.wave, 1);
  EXPECT_EQ(removed.cells.size(), 7U);  // 5 across + 3 down, (2, 2) once
  EXPECT_EQ(std::get<ScoreEvent>(events[2]).delta, 70);
  EXPECT_TRUE(std::holds_alternative<FallEvent>(events[3]));
  EXPECT_EQ(g->score(), 70);
  EXPECT_EQ(g->board(), board_of({".....", "23.42", "34.23", "42234", "23423"}));
}

TEST(Match3Swap, CascadeWavesScoreTenTimesCellsTimesWave) {
  const Board start = board_of({"2312", "3123", "1441", "5524", "1253"});
  auto g = make(board_setup(start, false));
  ASSERT_EQ(g->board(), start);
  EventList events;
  ASSERT_TRUE(g->apply(swap(2, 3, 2, 4), events).ok());
  std::string text = describe(events);
  text = text.substr(0, text.find("over"));
  EXPECT_EQ(text,
            "swap ;remove1 0,3 1,3 2,3;score 30 30;fall 0,2,3 0,1,2 0,0,1 1,2,3 1,1,2 1,0,1 "
            "2,2,3 2,1,2 2,0,1;remove2 1,3 2,3 3,3;score 60 90;fall 1,2,3 1,1,2 2,2,3 2,1,2 "
            "3,2,3 3,1,2 3,0,1;");
  EXPECT_EQ(g->score(), 90);
  EXPECT_EQ(g->board(), board_of({"....", "2..2", "3313", "1121", "1223"}));
}

TEST(Match3Swap, CrushHasNoRefillAndLeavesHoles) {
  auto g = make(preset_setup("crush", "holes"));
  EXPECT_TRUE(g->setup().ranked());
  EXPECT_FALSE(g->moves_left());
  int removed = 0;
  for (int i = 0; i < 5 && !g->over(); ++i) {
    EventList events;
    ASSERT_TRUE(play_hint(*g, events));
    for (const Event& e : events) {
      ASSERT_FALSE(std::holds_alternative<SpawnEvent>(e));
      if (const auto* r = std::get_if<RemoveEvent>(&e))
        removed += static_cast<int>(r->cells.size());
    }
    ASSERT_FALSE(match3::has_run(g->board()));
  }
  EXPECT_GE(removed, 3);
  EXPECT_EQ(g->board().filled_count(), 81 - removed);
}

TEST(Match3Swap, RefillOffPracticePlaysAPresetWithoutRefill) {
  GameSetup setup = preset_setup("classic", "practice");
  setup.refill = false;
  EXPECT_FALSE(setup.ranked());
  auto g = make(setup);
  EXPECT_EQ(g->board(), make(preset_setup("classic", "practice"))->board());  // same deal
  EventList events;
  ASSERT_TRUE(play_hint(*g, events));
  int removed = 0;
  for (const Event& e : events) {
    ASSERT_FALSE(std::holds_alternative<SpawnEvent>(e));
    if (const auto* r = std::get_if<RemoveEvent>(&e)) removed += static_cast<int>(r->cells.size());
  }
  EXPECT_EQ(g->board().filled_count(), 64 - removed);
  EXPECT_EQ(g->moves_left(), 29);
}

TEST(Match3Swap, RefillSpawnsExactlyTheRemovedCellsColumnByColumn) {
  auto g = make(preset_setup("big", "refill"));
  while (!g->over()) {
    EventList events;
    ASSERT_TRUE(play_hint(*g, events));
    std::size_t removed = 0;
    int wave = 0;
    for (const Event& e : events) {
      if (const auto* r = std::get_if<RemoveEvent>(&e)) {
        removed = r->cells.size();
        ASSERT_EQ(r->wave, ++wave);
      }
      if (const auto* s = std::get_if<SpawnEvent>(&e)) {
        ASSERT_EQ(s->wave, wave);
        ASSERT_EQ(s->cells.size(), removed);
        ASSERT_TRUE(std::is_sorted(
            s->cells.begin(), s->cells.end(),
            [](const auto& a, const auto& b) { return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1]; }));
        for (const auto& c : s->cells) ASSERT_TRUE(c[2] >= 1 && c[2] <= 7);
      }
    }
    ASSERT_GE(wave, 1);
    ASSERT_EQ(g->board().filled_count(), 100);
    ASSERT_FALSE(match3::has_run(g->board()));
  }
  EXPECT_EQ(g->over_reason(), OverReason::out_of_moves);
  EXPECT_EQ(g->move_count(), 40);
  EXPECT_EQ(g->moves_left(), 0);
}

// ---- Game over, hint, legal moves ----
TEST(Match3Over, OutOfMovesWinsOverNoMoves) {
  auto budget = make(board_setup(kLastSwap, false, 1));
  EXPECT_EQ(budget->moves_left(), 1);
  EventList events;
  ASSERT_TRUE(budget->apply(swap(1, 0, 1, 1), events).ok());
  expect_over(events.back(), OverReason::out_of_moves, 0, 60);
  EXPECT_EQ(budget->moves_left(), 0);

  for (const std::optional<int> moves : {std::optional<int>(2), std::optional<int>()}) {
    auto g = make(board_setup(kLastSwap, false, moves));
    ASSERT_TRUE(g->apply(swap(1, 0, 1, 1), events).ok());
    EXPECT_EQ(g->over_reason(), OverReason::no_moves);
    EXPECT_EQ(g->score(), 60);  // no clear bonus in match-3
    EXPECT_TRUE(g->legal_moves().empty());
    Hint hint;
    EXPECT_EQ(g->hint(hint).status, Status::not_allowed);
    expect_refused(*g, swap(0, 2, 1, 2), Status::not_allowed);
  }
}

TEST(Match3Over, StartWithoutValidSwapIsOverAtOnce) {
  auto g = make(board_setup(board_of({"123", "231", "312"}), false));
  EXPECT_TRUE(g->over());
  EXPECT_EQ(g->over_reason(), OverReason::no_moves);
  EXPECT_EQ(g->score(), 0);
}

TEST(Match3, HintIsTheFirstValidSwapInScanOrder) {
  for (int i = 0; i < 50; ++i) {
    auto g = make(preset_setup("classic", "hint" + std::to_string(i)));
    Hint hint;
    ASSERT_TRUE(g->hint(hint).ok());
    const std::vector<Move> legal = g->legal_moves();
    ASSERT_FALSE(legal.empty());
    EXPECT_EQ(hint.move, legal.front());
  }
  auto g = make(board_setup(kLastSwap, false));
  Hint hint;
  ASSERT_TRUE(g->hint(hint).ok());
  EXPECT_EQ(hint.move, swap(1, 0, 1, 1));  // (0,0)-(1,0) and (0,0)-(0,1) make no run
}

TEST(Match3, LegalMovesAreExactlyTheAcceptedSwaps) {
  for (int i = 0; i < 40; ++i) {
    GameSetup setup = preset_setup(i % 2 ? "crush" : "classic", "legal" + std::to_string(i));
    auto g = make(setup);
    for (int step = 0; step < 3 && !g->over(); ++step) {
      const std::vector<Move> legal = g->legal_moves();
      for (int ay = 0; ay < g->height(); ++ay) {
        for (int ax = 0; ax < g->width(); ++ax) {
          for (const Point b :
               {Point{ax + 1, ay}, Point{ax, ay + 1}, Point{ax + 1, ay + 1}, Point{ax + 2, ay}}) {
            const Move m = swap(ax, ay, b.x, b.y);
            const bool listed = std::find(legal.begin(), legal.end(), m) != legal.end();
            for (const Move& trial_move : {m, swap(b.x, b.y, ax, ay)}) {
              auto trial = g->clone();
              EventList events;
              ASSERT_EQ(trial->apply(trial_move, events).ok(), listed)
                  << ax << "," << ay << " " << b.x << "," << b.y;
            }
          }
        }
      }
      EventList events;
      ASSERT_TRUE(g->apply(legal[legal.size() / 2], events).ok());
    }
  }
}

}  // namespace
}  // namespace tilecrush::game
