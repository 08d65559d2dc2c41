// Same Game click rules (rules.md, seed 000): refusals, group removal,
// (n - 2)^2, gravity, column compression, game over and the clear bonus.
#include <gtest/gtest.h>

#include <climits>

#include "game_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::game {
namespace {

using namespace test;

template <typename T>
const T& event_as(const EventList& events, std::size_t i) {
  EXPECT_LT(i, events.size());
  EXPECT_TRUE(std::holds_alternative<T>(events[i]))
      << "event " << i << " has index " << events[i].index();
  return std::get<T>(events[i]);
}

std::vector<std::size_t> kinds(const EventList& events) {
  std::vector<std::size_t> out;
  for (const Event& e : events) out.push_back(e.index());
  return out;
}

constexpr std::size_t kRemove = 1, kScore = 2, kFall = 3, kShift = 4, kOver = 9;

TEST(SameGame, DealsTheSameBoardForTheSameSeed) {
  auto a = create_game(test::same_setup("easy", "abc"));
  auto b = create_game(test::same_setup("easy", "abc"));
  auto c = create_game(test::same_setup("easy", "abd"));
  ASSERT_TRUE(a.game) << a.error;
  ASSERT_TRUE(b.game && c.game);
  EXPECT_EQ(a.game->board(), b.game->board());
  EXPECT_NE(a.game->board(), c.game->board());
}

// Holes at (0,0); groups {(1,0),(1,1)} and {(2,0),(2,1)}; every other cell alone.
Board refusal_board() {
  return board_of({"023", "123", "231"});
}

TEST(SameGame, RefusesEmptyOutsideAndSingleCellClicks) {
  auto game = same_on(refusal_board());
  ASSERT_TRUE(game);
  ASSERT_EQ(rows_of(game->board()), (std::vector<std::string>{"023", "123", "231"}));
  const Snapshot before(*game);
  const Point refused[] = {{0, 0}, {0, 1}, {0, 2},  {1, 2},       {2, 2},       {-1, 0},
                           {3, 0}, {0, 3}, {0, -1}, {INT_MAX, 0}, {0, INT_MIN}, {INT_MIN, INT_MAX}};
  for (const Point p : refused) {
    EventList events;
    const Outcome out = game->apply(click(p.x, p.y), events);
    EXPECT_EQ(out.status, Status::invalid_move) << p.x << "," << p.y;
    EXPECT_TRUE(events.empty());
    EXPECT_EQ(Snapshot(*game), before) << p.x << "," << p.y;
  }
  EventList events;
  ASSERT_TRUE(game->apply(click(1, 1), events).ok());
  EXPECT_EQ(game->move_count(), 1);
}

TEST(SameGame, ARefusalKeepsEarlierEventsInTheCallersList) {
  auto game = same_on(refusal_board());
  EventList events;
  events.push_back(ScoreEvent{1, 2});
  EXPECT_EQ(game->apply(click(0, 2), events).status, Status::invalid_move);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(kinds(events), (std::vector<std::size_t>{kScore}));
}

TEST(SameGame, RemovesTheWholeGroupAndShiftsTheEmptiedColumn) {
  auto game = same_on(board_of({"2113", "2134", "4143"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(1, 2), events).ok());
  ASSERT_EQ(kinds(events), (std::vector<std::size_t>{kRemove, kScore, kShift}));
  EXPECT_EQ(cell_set(event_as<RemoveEvent>(events, 0).cells),
            (std::set<std::pair<int, int>>{{1, 0}, {2, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(event_as<RemoveEvent>(events, 0).wave, 0);
  EXPECT_EQ(event_as<ScoreEvent>(events, 1).delta, 4);
  EXPECT_EQ(event_as<ScoreEvent>(events, 1).total, 4);
  EXPECT_EQ(event_as<ShiftEvent>(events, 2).moves,
            (std::vector<std::array<int, 2>>{{2, 1}, {3, 2}}));
  EXPECT_EQ(rows_of(game->board()), (std::vector<std::string>{"2030", "2340", "4430"}));
  EXPECT_EQ(game->score(), 4);
  EXPECT_EQ(game->move_count(), 1);
  EXPECT_EQ(game->moves(), (std::vector<Move>{click(1, 2)}));
  EXPECT_FALSE(game->over());
}

TEST(SameGame, ScoresNMinusTwoSquared) {
  for (int n = 2; n <= 39; ++n) {
    // Bottom row: n ones, then a column 2-over-3 that can never be removed.
    std::string top(static_cast<std::size_t>(n), '0'), bottom(static_cast<std::size_t>(n), '1');
    auto game = same_on(board_of({top + "2", bottom + "3"}));
    EventList events;
    ASSERT_TRUE(game->apply(click(n - 1, 1), events).ok()) << n;
    const std::int64_t points = static_cast<std::int64_t>(n - 2) * (n - 2);
    EXPECT_EQ(event_as<RemoveEvent>(events, 0).cells.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(event_as<ScoreEvent>(events, 1).delta, points) << n;
    EXPECT_EQ(game->score(), points) << n;
    EXPECT_EQ(game->over_reason(), OverReason::no_moves) << n;
  }
}

TEST(SameGame, SeedArticleExamples) {
  // A group of 10 scores 64.
  auto ten = same_on(board_of({"23232", "11111", "11111"}));
  EventList events;
  ASSERT_TRUE(ten->apply(click(0, 2), events).ok());
  EXPECT_EQ(event_as<RemoveEvent>(events, 0).cells.size(), 10u);
  EXPECT_EQ(ten->score(), 64);
  EXPECT_EQ(ten->over_reason(), OverReason::no_moves);

  // A group of 20 scores 324.
  auto twenty = same_on(board_of({"2323232323", "1111111111", "1111111111"}));
  events.clear();
  ASSERT_TRUE(twenty->apply(click(9, 1), events).ok());
  EXPECT_EQ(event_as<RemoveEvent>(events, 0).cells.size(), 20u);
  EXPECT_EQ(twenty->score(), 324);

  // Two groups of 5 score 18 together.
  auto fives = same_on(board_of({"11111", "22222", "34343"}));
  events.clear();
  ASSERT_TRUE(fives->apply(click(4, 0), events).ok());
  EXPECT_EQ(fives->score(), 9);
  events.clear();
  ASSERT_TRUE(fives->apply(click(0, 1), events).ok());
  EXPECT_EQ(fives->score(), 18);
  EXPECT_EQ(fives->over_reason(), OverReason::no_moves);
}

TEST(SameGame, GravityKeepsTheOrderOfEachColumn) {
  auto game = same_on(board_of({"253", "342", "111", "425", "534"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(1, 2), events).ok());
  ASSERT_EQ(kinds(events), (std::vector<std::size_t>{kRemove, kScore, kFall, kOver}));
  auto moves = event_as<FallEvent>(events, 2).moves;
  std::sort(moves.begin(), moves.end());
  EXPECT_EQ(moves, (std::vector<std::array<int, 3>>{
                       {0, 0, 1}, {0, 1, 2}, {1, 0, 1}, {1, 1, 2}, {2, 0, 1}, {2, 1, 2}}));
  EXPECT_EQ(rows_of(game->board()), (std::vector<std::string>{"000", "253", "342", "425", "534"}));
  EXPECT_EQ(game->score(), 1);
}

TEST(SameGame, GravityClosesSeveralGapsInOneColumn) {
  // The group of 1s leaves two gaps in column 0 and one in column 1.
  auto game = same_on(board_of({"25", "11", "31", "11", "43"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(0, 1), events).ok());
  EXPECT_EQ(event_as<RemoveEvent>(events, 0).cells.size(), 5u);
  auto moves = event_as<FallEvent>(events, 2).moves;
  std::sort(moves.begin(), moves.end());
  EXPECT_EQ(moves, (std::vector<std::array<int, 3>>{{0, 0, 2}, {0, 2, 3}, {1, 0, 3}}));
  EXPECT_EQ(rows_of(game->board()), (std::vector<std::string>{"00", "00", "20", "35", "43"}));
  EXPECT_EQ(game->score(), 9);
  EXPECT_EQ(game->over_reason(), OverReason::no_moves);
}

TEST(SameGame, CompressionRemovesEveryEmptyColumnKeepingOrder) {
  auto game = same_on(board_of({"21516", "31117"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(2, 1), events).ok());
  ASSERT_EQ(kinds(events), (std::vector<std::size_t>{kRemove, kScore, kFall, kShift, kOver}));
  EXPECT_EQ(event_as<FallEvent>(events, 2).moves, (std::vector<std::array<int, 3>>{{2, 0, 1}}));
  EXPECT_EQ(event_as<ShiftEvent>(events, 3).moves,
            (std::vector<std::array<int, 2>>{{2, 1}, {4, 2}}));
  EXPECT_EQ(rows_of(game->board()), (std::vector<std::string>{"20600", "35700"}));
  expect_over(events[4], OverReason::no_moves, 0, 9);
  EXPECT_EQ(game->score(), 9);
}

TEST(SameGame, ClearingTheBoardAddsTheBonus) {
  auto game = same_on(board_of({"11", "11"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(0, 0), events).ok());
  ASSERT_EQ(kinds(events), (std::vector<std::size_t>{kRemove, kScore, kOver}));
  EXPECT_EQ(event_as<ScoreEvent>(events, 1).delta, 4);
  EXPECT_EQ(event_as<ScoreEvent>(events, 1).total, 4);
  expect_over(events[2], OverReason::cleared, 1000, 1004);
  EXPECT_EQ(game->score(), 1004);
  EXPECT_TRUE(game->over());
  EXPECT_EQ(game->over_reason(), OverReason::cleared);
  EXPECT_TRUE(game->board().empty());
  EXPECT_EQ(game->state_hash(), state_hash(std::vector<int>(4, 0), 1, 1004));
}

TEST(SameGame, ClearingOverSeveralMovesAddsTheBonusOnce) {
  auto game = same_on(board_of({"12", "12"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(0, 1), events).ok());
  EXPECT_EQ(kinds(events), (std::vector<std::size_t>{kRemove, kScore, kShift}));
  EXPECT_EQ(rows_of(game->board()), (std::vector<std::string>{"20", "20"}));
  events.clear();
  ASSERT_TRUE(game->apply(click(0, 0), events).ok());
  ASSERT_EQ(kinds(events), (std::vector<std::size_t>{kRemove, kScore, kOver}));
  EXPECT_EQ(event_as<ScoreEvent>(events, 1).delta, 0);
  EXPECT_EQ(event_as<GameOverEvent>(events, 2).final_score, 1000);
  EXPECT_EQ(game->score(), 1000);
}

TEST(SameGame, GameOverWithTilesLeftHasNoBonus) {
  auto game = same_on(board_of({"124", "113"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(0, 1), events).ok());
  EXPECT_EQ(game->over_reason(), OverReason::no_moves);
  expect_over(events.back(), OverReason::no_moves, 0, 1);
  EXPECT_EQ(game->score(), 1);
}

TEST(SameGame, MovesAfterTheEndAreNotAllowed) {
  auto game = same_on(board_of({"11", "11"}));
  EventList events;
  ASSERT_TRUE(game->apply(click(0, 0), events).ok());
  const Snapshot over(*game);
  events.clear();
  EXPECT_EQ(game->apply(click(0, 0), events).status, Status::not_allowed);
  EXPECT_EQ(game->resign(events).status, Status::not_allowed);
  EXPECT_TRUE(events.empty());
  EXPECT_TRUE(game->legal_moves().empty());
  EXPECT_EQ(Snapshot(*game), over);
}

TEST(SameGame, PreviewGivesTheGroupAndItsPointsAndChangesNothing) {
  auto game = same_on(board_of({"2113", "2134", "4143"}));
  const Snapshot before(*game);
  Preview preview;
  ASSERT_TRUE(game->preview({2, 0}, preview).ok());
  EXPECT_EQ(cell_set(preview.cells),
            (std::set<std::pair<int, int>>{{1, 0}, {2, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(preview.points, 4);
  EXPECT_EQ(Snapshot(*game), before);

  // The group that would clear the board: points without the bonus.
  auto all = same_on(board_of({"11", "11"}));
  ASSERT_TRUE(all->preview({1, 1}, preview).ok());
  EXPECT_EQ(preview.points, 4);
  EXPECT_EQ(preview.cells.size(), 4u);
}

TEST(SameGame, PreviewIsRefusedLikeAClick) {
  auto game = same_on(refusal_board());
  const Snapshot before(*game);
  const Point refused[] = {{0, 0}, {0, 1}, {2, 2}, {-1, 0}, {3, 0}, {0, 3}, {INT_MIN, INT_MIN}};
  for (const Point p : refused) {
    Preview preview;
    EXPECT_EQ(game->preview(p, preview).status, Status::invalid_move) << p.x << "," << p.y;
    EventList events;
    EXPECT_EQ(game->apply(click(p.x, p.y), events).status, Status::invalid_move);
    EXPECT_EQ(Snapshot(*game), before);
  }
  auto over = same_on(board_of({"11", "11"}));
  EventList events;
  ASSERT_TRUE(over->apply(click(0, 0), events).ok());
  Preview preview;
  EXPECT_EQ(over->preview({0, 0}, preview).status, Status::not_allowed);
}

TEST(SameGame, OtherModesMovesAreWrongMode) {
  auto game = create_game(test::same_setup("normal", "wrong-mode")).game;
  ASSERT_TRUE(game);
  const Snapshot before(*game);
  for (const MoveKind kind :
       {MoveKind::swap, MoveKind::peek, MoveKind::select, MoveKind::unselect}) {
    EventList events;
    const Move move{kind, {0, 0}, {1, 0}};
    EXPECT_EQ(game->apply(move, events).status, Status::wrong_mode) << to_string(kind);
    EXPECT_TRUE(events.empty());
    EXPECT_EQ(Snapshot(*game), before);
  }
}

}  // namespace
}  // namespace tilecrush::game
