// Match-3 undo and whole games: events rebuild the board, replay gives the
// same game, a seeded game is pinned.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "event_applier.hpp"
#include "match3_board.hpp"
#include "match3_play_util.hpp"
#include "match3_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {
namespace {

using namespace match3_test;

// ---- Undo ----
TEST(Match3Undo, RefusedInRankedGames) {
  auto g = make(preset_setup("classic", "undo"));
  EventList events;
  ASSERT_TRUE(play_hint(*g, events));
  const std::uint64_t hash = g->state_hash();
  EXPECT_EQ(g->undo().status, Status::not_allowed);
  EXPECT_EQ(g->state_hash(), hash);
  EXPECT_EQ(g->move_count(), 1);
}

TEST(Match3Undo, PracticeRestoresBoardScoreMovesAndGenerator) {
  GameSetup setup = test::dealt_setup(Mode::match3, "undo", 8, 8, 6);
  setup.moves = 20;
  auto g = make(setup);
  EXPECT_EQ(g->undo().status, Status::not_allowed);  // nothing to undo
  std::vector<std::uint64_t> hashes{g->state_hash()};
  std::vector<std::string> results;
  for (int i = 0; i < 5; ++i) {
    EventList events;
    ASSERT_TRUE(play_hint(*g, events));
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

// Undo replays from a snapshot every few moves (undo_checkpoints.hpp): a
// long random mix of swaps and undos, across many snapshots, always comes
// back to exactly the state before, generator included.
TEST(Match3Undo, LongRandomMixOfSwapsAndUndosMatchesAStackOfStates) {
  std::mt19937 pick(77);
  for (int round = 0; round < 6; ++round) {
    GameSetup setup = test::dealt_setup(Mode::match3, "undo-mix-" + std::to_string(round), 8, 8, 5);
    setup.moves = 90;
    auto g = make(setup);
    std::vector<std::uint64_t> before;
    std::vector<std::int64_t> scores;
    int undos = 0;
    while (!g->over()) {
      if (!before.empty() && pick() % 4 == 0) {
        ASSERT_TRUE(g->undo().ok());
        ++undos;
        ASSERT_EQ(g->state_hash(), before.back()) << "round " << round;
        ASSERT_EQ(g->score(), scores.back());
        before.pop_back();
        scores.pop_back();
        continue;
      }
      const std::vector<Move> legal = g->legal_moves();
      ASSERT_FALSE(legal.empty());
      before.push_back(g->state_hash());
      scores.push_back(g->score());
      EventList events;
      ASSERT_TRUE(g->apply(legal[pick() % legal.size()], events).ok());
    }
    EXPECT_GT(undos, 10);
    EXPECT_EQ(g->move_count(), 90);
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
    test::EventApplier client(g->width(), g->height(), g->visible_board(), 0, Mode::match3);
    for (int step = 0; step < 200 && !g->over(); ++step) {
      const std::vector<Move> legal = g->legal_moves();
      ASSERT_FALSE(legal.empty());
      EventList events;
      ASSERT_TRUE(
          g->apply(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)],
                   events)
              .ok());
      for (const Event& e : events) {
        ASSERT_EQ(client.apply(e), "");
        if (std::holds_alternative<RemoveEvent>(e)) ++waves;
      }
      ASSERT_EQ(client.cells(), g->visible_board());
      ASSERT_EQ(client.score(), g->score());
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
    EventList events;
    ASSERT_TRUE(play_hint(*g, events));
  }
  EXPECT_EQ(g->move_count(), 30);
  EXPECT_EQ(hash_hex(g->state_hash()), "c07212254eff1765");
  EXPECT_EQ(g->score(), 1950);
}

}  // namespace
}  // namespace tilecrush::game
