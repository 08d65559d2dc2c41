// Same Game requests around the clicks: undo, hint, resign.
#include <gtest/gtest.h>

#include <random>

#include "game_test_util.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::game {
namespace {

using namespace test;

std::unique_ptr<Game> preset_game(const char* preset, const char* seed) {
  return make(same_setup(preset, seed));
}

TEST(SameGameUndo, IsRefusedAtTheStart) {
  auto game = preset_game("hard", "undo-start");
  const Snapshot start(*game);
  EXPECT_EQ(game->undo().status, Status::not_allowed);
  EXPECT_EQ(Snapshot(*game), start);
}

TEST(SameGameUndo, WalksBackToTheStartAndForwardAgain) {
  auto game = preset_game("hard", "undo-walk");
  std::vector<Snapshot> before;
  std::vector<Move> played;
  for (int i = 0; i < 25 && !game->over(); ++i) {
    const std::vector<Move> legal = game->legal_moves();
    const Move move = legal[static_cast<std::size_t>(i * 7) % legal.size()];
    before.emplace_back(*game);
    EventList events;
    ASSERT_TRUE(game->apply(move, events).ok());
    played.push_back(move);
  }
  ASSERT_FALSE(game->over());
  const Snapshot end(*game);
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = before.size(); i-- > 0;) {
      ASSERT_TRUE(game->undo().ok()) << i;
      ASSERT_EQ(Snapshot(*game), before[i]) << "after undoing move " << i;
      ASSERT_EQ(game->moves(),
                std::vector<Move>(played.begin(), played.begin() + static_cast<std::ptrdiff_t>(i)));
    }
    EXPECT_EQ(game->undo().status, Status::not_allowed);
    EXPECT_EQ(Snapshot(*game), before.front());
    for (const Move& move : played) {
      EventList events;
      ASSERT_TRUE(game->apply(move, events).ok());
    }
    ASSERT_EQ(Snapshot(*game), end);
  }
}

TEST(SameGameUndo, RandomMixOfMovesAndUndosMatchesASnapshotStack) {
  std::mt19937 rng(20260101);
  for (int g = 0; g < 20; ++g) {
    auto game = preset_game(g % 2 ? "easy" : "classic", ("mix-" + std::to_string(g)).c_str());
    std::vector<Snapshot> stack;
    while (!game->over()) {
      if (!stack.empty() && rng() % 3 == 0) {
        ASSERT_TRUE(game->undo().ok());
        ASSERT_EQ(Snapshot(*game), stack.back());
        stack.pop_back();
        continue;
      }
      const std::vector<Move> legal = game->legal_moves();
      ASSERT_FALSE(legal.empty());
      stack.emplace_back(*game);
      EventList events;
      ASSERT_TRUE(game->apply(legal[rng() % legal.size()], events).ok());
      ASSERT_EQ(game->move_count(), static_cast<std::int64_t>(stack.size()));
    }
    const Snapshot over(*game);
    EXPECT_EQ(game->undo().status, Status::not_allowed);
    EXPECT_EQ(Snapshot(*game), over);
  }
}

TEST(SameGameUndo, IsRefusedAfterAClearAndAfterResigning) {
  auto cleared = same_on(board_of({"11", "11"}));
  EventList events;
  ASSERT_TRUE(cleared->apply(click(0, 0), events).ok());
  EXPECT_EQ(cleared->undo().status, Status::not_allowed);
  EXPECT_EQ(cleared->score(), 1004);

  auto resigned = preset_game("easy", "undo-resign");
  ASSERT_TRUE(resigned->apply(resigned->legal_moves().front(), events).ok());
  ASSERT_TRUE(resigned->resign(events).ok());
  EXPECT_EQ(resigned->undo().status, Status::not_allowed);
  EXPECT_EQ(resigned->move_count(), 1);
}

std::size_t largest_group(const Game& game) {
  std::size_t best = 0;
  for (const Move& m : game.legal_moves()) {
    Preview p;
    EXPECT_TRUE(game.preview(m.a, p).ok());
    best = std::max(best, p.cells.size());
  }
  return best;
}

TEST(SameGameHint, ClicksALargestGroup) {
  for (const char* preset : {"easy", "normal", "hard", "classic"}) {
    for (const char* seed : {"h1", "h2", "h3"}) {
      auto game = preset_game(preset, seed);
      for (int i = 0; i < 8 && !game->over(); ++i) {
        const Snapshot before(*game);
        Hint hint;
        ASSERT_TRUE(game->hint(hint).ok());
        EXPECT_EQ(Snapshot(*game), before);
        EXPECT_EQ(hint.move.kind, MoveKind::click);
        Preview p;
        ASSERT_TRUE(game->preview(hint.move.a, p).ok());
        EXPECT_EQ(p.cells.size(), largest_group(*game)) << preset << " " << seed << " move " << i;
        EventList events;
        // Alternate between the hint and another move so positions vary.
        const Move next = i % 2 ? game->legal_moves().back() : hint.move;
        ASSERT_TRUE(game->apply(next, events).ok());
      }
    }
  }
}

TEST(SameGameHint, PointsIntoTheOnlyLargestGroup) {
  // The 3s (five cells) are the largest group; the 1s have two, the rest one.
  auto game = same_on(board_of({"1124", "3332", "4335"}));
  Hint hint;
  ASSERT_TRUE(game->hint(hint).ok());
  EXPECT_TRUE(
      cell_set({{0, 1}, {1, 1}, {2, 1}, {1, 2}, {2, 2}}).count({hint.move.a.x, hint.move.a.y}))
      << hint.move.a.x << "," << hint.move.a.y;
}

TEST(SameGameHint, IsRefusedOnceOver) {
  auto game = same_on(board_of({"12", "34"}));
  ASSERT_TRUE(game->over());
  Hint hint;
  EXPECT_EQ(game->hint(hint).status, Status::not_allowed);
}

TEST(SameGameResign, SendsOnlyGameOverAndEndsTheGame) {
  auto game = preset_game("hard", "resign");
  EventList events;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(game->apply(game->legal_moves().front(), events).ok());
  const Snapshot before(*game);
  events.clear();
  ASSERT_TRUE(game->resign(events).ok());
  ASSERT_EQ(events.size(), 1u);
  expect_over(events[0], OverReason::resigned, 0, before.score);
  EXPECT_TRUE(game->over());
  EXPECT_EQ(game->over_reason(), OverReason::resigned);
  EXPECT_EQ(game->score(), before.score);
  EXPECT_EQ(game->move_count(), before.move_count);
  EXPECT_EQ(game->board(), before.board);

  const Snapshot resigned(*game);
  events.clear();
  const Point somewhere = before.moves.front().a;
  EXPECT_EQ(game->apply(click(somewhere.x, somewhere.y), events).status, Status::not_allowed);
  EXPECT_EQ(game->resign(events).status, Status::not_allowed);
  EXPECT_TRUE(events.empty());
  Hint hint;
  EXPECT_EQ(game->hint(hint).status, Status::not_allowed);
  Preview preview;
  EXPECT_EQ(game->preview(somewhere, preview).status, Status::not_allowed);
  EXPECT_TRUE(game->legal_moves().empty());
  EXPECT_EQ(Snapshot(*game), resigned);
}

TEST(SameGameResign, AtTheStartScoresZeroEvenOnAClearableBoard) {
  auto game = same_on(board_of({"11", "11"}));
  EventList events;
  ASSERT_TRUE(game->resign(events).ok());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<GameOverEvent>(events[0]).final_score, 0);
  EXPECT_EQ(game->score(), 0);
}

}  // namespace
}  // namespace tilecrush::game
