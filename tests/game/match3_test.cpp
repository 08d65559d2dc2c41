// Match-3 play (rules.md "Match-3", protocol.md "Events"): swaps, waves,
// refill, game over, hint, legal moves, undo, events and replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "match3_board.hpp"
#include "match3_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {
namespace {

using namespace match3_test;

Move swap(int ax, int ay, int bx, int by) { return Move{MoveKind::swap, {ax, ay}, {bx, by}}; }

// The events as text, to compare two move results exactly.
std::string describe(const EventList& events) {
  std::ostringstream o;
  for (const Event& e : events) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, SwapEvent>) o << "swap ";
          if constexpr (std::is_same_v<T, RemoveEvent>) {
            o << "remove" << v.wave;
            for (const Point p : v.cells) o << ' ' << p.x << ',' << p.y;
          }
          if constexpr (std::is_same_v<T, ScoreEvent>) o << "score " << v.delta << ' ' << v.total;
          if constexpr (std::is_same_v<T, FallEvent>) {
            o << "fall";
            for (const auto& m : v.moves) o << ' ' << m[0] << ',' << m[1] << ',' << m[2];
          }
          if constexpr (std::is_same_v<T, SpawnEvent>) {
            o << "spawn" << v.wave;
            for (const auto& c : v.cells) o << ' ' << c[0] << ',' << c[1] << ',' << c[2];
          }
          if constexpr (std::is_same_v<T, GameOverEvent>) o << "over " << to_string(v.reason);
          o << ';';
        },
        e);
  }
  return o.str();
}

// A client's copy of the board, changed only through the events.
struct ClientBoard {
  Board board;
  std::int64_t score = 0;

  void apply(const Event& event) {
    if (const auto* s = std::get_if<SwapEvent>(&event)) {
      const std::uint8_t a = board.at(s->a.x, s->a.y);
      board.set(s->a.x, s->a.y, board.at(s->b.x, s->b.y));
      board.set(s->b.x, s->b.y, a);
    } else if (const auto* r = std::get_if<RemoveEvent>(&event)) {
      for (const Point p : r->cells) board.set(p.x, p.y, 0);
    } else if (const auto* sc = std::get_if<ScoreEvent>(&event)) {
      score += sc->delta;
      EXPECT_EQ(score, sc->total);
    } else if (const auto* f = std::get_if<FallEvent>(&event)) {
      const Board before = board;
      for (const auto& m : f->moves) board.set(m[0], m[1], 0);
      for (const auto& m : f->moves) board.set(m[0], m[2], before.at(m[0], m[1]));
    } else if (const auto* sp = std::get_if<SpawnEvent>(&event)) {
      for (const auto& c : sp->cells) board.set(c[0], c[1], static_cast<std::uint8_t>(c[2]));
    } else if (const auto* o = std::get_if<GameOverEvent>(&event)) {
      score += o->bonus;
      EXPECT_EQ(score, o->final_score);
    } else {
      ADD_FAILURE() << "event of another mode";
    }
  }
};

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
  expect_refused(*g, swap(2, 2, 2, 4), Status::invalid_move);    // two apart
  expect_refused(*g, swap(1, 1, 2, 2), Status::invalid_move);    // diagonal
  expect_refused(*g, swap(2, 2, 2, 2), Status::invalid_move);    // itself
  expect_refused(*g, swap(4, 0, 5, 0), Status::invalid_move);    // outside
  expect_refused(*g, swap(-1, 0, 0, 0), Status::invalid_move);   // outside
  expect_refused(*g, swap(0, 0, 1, 0), Status::invalid_move);    // empty cell
  expect_refused(*g, swap(0, 3, 1, 3), Status::invalid_move);    // no run
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
    Hint hint;
    ASSERT_TRUE(g->hint(hint).ok());
    EventList events;
    ASSERT_TRUE(g->apply(hint.move, events).ok());
    for (const Event& e : events) {
      ASSERT_FALSE(std::holds_alternative<SpawnEvent>(e));
      if (const auto* r = std::get_if<RemoveEvent>(&e)) removed += static_cast<int>(r->cells.size());
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
  Hint hint;
  ASSERT_TRUE(g->hint(hint).ok());
  EventList events;
  ASSERT_TRUE(g->apply(hint.move, events).ok());
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
    Hint hint;
    ASSERT_TRUE(g->hint(hint).ok());
    EventList events;
    ASSERT_TRUE(g->apply(hint.move, events).ok());
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
        ASSERT_TRUE(std::is_sorted(s->cells.begin(), s->cells.end(), [](const auto& a, const auto& b) {
          return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1];
        }));
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
// Swapping (1, 0) and (1, 1) clears rows 0 and 1; row 2 then has no swap.
const Board kLastSwap = board_of({"121", "212", "121"});

TEST(Match3Over, OutOfMovesWinsOverNoMoves) {
  auto budget = make(board_setup(kLastSwap, false, 1));
  EXPECT_EQ(budget->moves_left(), 1);
  EventList events;
  ASSERT_TRUE(budget->apply(swap(1, 0, 1, 1), events).ok());
  const auto& over = std::get<GameOverEvent>(events.back());
  EXPECT_EQ(over.reason, OverReason::out_of_moves);
  EXPECT_EQ(over.bonus, 0);
  EXPECT_EQ(over.final_score, 60);
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
          for (const Point b : {Point{ax + 1, ay}, Point{ax, ay + 1}, Point{ax + 1, ay + 1}, Point{ax + 2, ay}}) {
            const Move m = swap(ax, ay, b.x, b.y);
            const bool listed = std::find(legal.begin(), legal.end(), m) != legal.end();
            for (const Move& trial_move : {m, swap(b.x, b.y, ax, ay)}) {
              auto trial = g->clone();
              EventList events;
              ASSERT_EQ(trial->apply(trial_move, events).ok(), listed) << ax << "," << ay << " " << b.x << "," << b.y;
            }
          }
        }
      }
      EventList events;
      ASSERT_TRUE(g->apply(legal[legal.size() / 2], events).ok());
    }
  }
}

// ---- Undo ----
TEST(Match3Undo, RefusedInRankedGames) {
  auto g = make(preset_setup("classic", "undo"));
  Hint hint;
  ASSERT_TRUE(g->hint(hint).ok());
  EventList events;
  ASSERT_TRUE(g->apply(hint.move, events).ok());
  const std::uint64_t hash = g->state_hash();
  EXPECT_EQ(g->undo().status, Status::not_allowed);
  EXPECT_EQ(g->state_hash(), hash);
  EXPECT_EQ(g->move_count(), 1);
}

TEST(Match3Undo, PracticeRestoresBoardScoreMovesAndGenerator) {
  GameSetup setup;
  setup.mode = Mode::match3;
  setup.seed = "undo";
  setup.width = 8;
  setup.height = 8;
  setup.colors = 6;
  setup.moves = 20;
  auto g = make(setup);
  EXPECT_EQ(g->undo().status, Status::not_allowed);  // nothing to undo
  std::vector<std::uint64_t> hashes{g->state_hash()};
  std::vector<std::string> results;
  for (int i = 0; i < 5; ++i) {
    Hint hint;
    ASSERT_TRUE(g->hint(hint).ok());
    EventList events;
    ASSERT_TRUE(g->apply(hint.move, events).ok());
    hashes.push_back(g->state_hash());
    results.push_back(describe(events));
  }
  const std::vector<Move> moves = g->moves();
  for (int i = 5; i > 0; --i) {
    ASSERT_TRUE(g->undo().ok());
    EXPECT_EQ(g->state_hash(), hashes[static_cast<std::size_t>(i - 1)]);
    EXPECT_EQ(g->move_count(), i - 1);
    EXPECT_EQ(g->moves_left(), 20 - (i - 1));
  }
  EXPECT_EQ(g->score(), 0);
  EXPECT_EQ(g->undo().status, Status::not_allowed);
  // The generator went back too: the same swaps spawn the same tiles.
  for (int i = 0; i < 5; ++i) {
    EventList events;
    ASSERT_TRUE(g->apply(moves[static_cast<std::size_t>(i)], events).ok());
    EXPECT_EQ(describe(events), results[static_cast<std::size_t>(i)]);
    EXPECT_EQ(g->state_hash(), hashes[static_cast<std::size_t>(i + 1)]);
  }
}

TEST(Match3Undo, RefusedOnceTheGameIsOver) {
  auto g = make(board_setup(kLastSwap, false));
  EventList events;
  ASSERT_TRUE(g->apply(swap(1, 0, 1, 1), events).ok());
  ASSERT_TRUE(g->over());
  EXPECT_EQ(g->undo().status, Status::not_allowed);
  EXPECT_EQ(g->move_count(), 1);
}

// ---- Whole games: events, replay, determinism ----
TEST(Match3Play, EventsRebuildTheBoardAndReplayGivesTheSameGame) {
  std::mt19937 rng(1);
  int games = 0;
  std::int64_t waves = 0;
  for (int i = 0; i < 300; ++i) {
    GameSetup setup;
    setup.mode = Mode::match3;
    setup.seed = "play" + std::to_string(i);
    if (i % 4 < 3) {
      setup.preset = std::string(presets(Mode::match3)[static_cast<std::size_t>(i % 3)].name);
    } else {
      setup.width = std::uniform_int_distribution<int>(3, 12)(rng);
      setup.height = std::uniform_int_distribution<int>(3, 12)(rng);
      setup.colors = std::uniform_int_distribution<int>(3, 8)(rng);
      setup.moves = std::uniform_int_distribution<int>(1, 60)(rng);
      setup.refill = i % 8 != 3;
    }
    auto g = make(setup);
    ClientBoard client{g->board(), 0};
    for (int step = 0; step < 200 && !g->over(); ++step) {
      const std::vector<Move> legal = g->legal_moves();
      ASSERT_FALSE(legal.empty());
      EventList events;
      ASSERT_TRUE(g->apply(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)], events).ok());
      for (const Event& e : events) {
        client.apply(e);
        if (std::holds_alternative<RemoveEvent>(e)) ++waves;
      }
      ASSERT_EQ(client.board, g->board());
      ASSERT_EQ(client.score, g->score());
      ASSERT_FALSE(match3::has_run(g->board()));
      ASSERT_EQ(std::holds_alternative<GameOverEvent>(events.back()), g->over());
    }
    ++games;
    const ReplayResult replayed = replay(setup, g->moves());
    ASSERT_TRUE(replayed.game) << replayed.error;
    EXPECT_EQ(replayed.game->state_hash(), g->state_hash());
    EXPECT_EQ(replayed.game->over_reason(), g->over_reason());
  }
  EXPECT_GT(waves, games);
}

TEST(Match3Play, AGameOnASeedIsPinned) {
  auto g = make(preset_setup("classic", "golden"));
  while (!g->over()) {
    Hint hint;
    ASSERT_TRUE(g->hint(hint).ok());
    EventList events;
    ASSERT_TRUE(g->apply(hint.move, events).ok());
  }
  EXPECT_EQ(g->move_count(), 30);
  EXPECT_EQ(hash_hex(g->state_hash()), "c07212254eff1765");
  EXPECT_EQ(g->score(), 1950);
}

}  // namespace
}  // namespace tilecrush::game
