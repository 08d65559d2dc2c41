// Hidden colours mode (rules.md "Hidden colours", seed 004): the rules.
#include <gtest/gtest.h>

#include "hidden_test_util.hpp"

namespace tilecrush::game {
namespace {

using namespace hidden_test;

TEST(Hidden, PresetBoardIsUniformAndFullyHidden) {
  const GameSetup setup = test::preset_setup(Mode::hidden, "classic", "2024-01-01");
  auto a = make(setup);
  auto b = make(setup);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->board(), b->board());
  EXPECT_EQ(a->width(), 10);
  EXPECT_EQ(a->height(), 10);
  EXPECT_EQ(a->colors(), 3);
  for (std::uint8_t c : a->board().cells()) {
    EXPECT_GE(c, 1);
    EXPECT_LE(c, 3);
  }
  const std::vector<int> all_hidden(100, -1);
  EXPECT_EQ(a->visible_board(), all_hidden);
  EXPECT_EQ(a->state_hash(), state_hash(all_hidden, 0, 0));
  EXPECT_TRUE(setup.ranked());
}

TEST(Hidden, HashDoesNotDependOnHiddenColours) {
  auto a = make({"1123", "2213", "3311"});
  auto b = make({"1132", "3321", "2211"});
  EXPECT_EQ(a->state_hash(), b->state_hash());
  // (0,0) and (1,0) are 1 on both boards: once selected they show the same.
  ASSERT_EQ(play(*a, sel(0, 0)), Status::ok);
  ASSERT_EQ(play(*b, sel(0, 0)), Status::ok);
  EXPECT_EQ(a->state_hash(), b->state_hash());
  ASSERT_EQ(play(*a, peek(3, 0)), Status::ok);
  ASSERT_EQ(play(*b, peek(3, 0)), Status::ok);
  EXPECT_EQ(a->state_hash(), b->state_hash());
  EXPECT_EQ(a->visible_board(), b->visible_board());
}

TEST(Hidden, CustomBoardGetsGravityButNoCompressionByDefault) {
  auto g = make({"1.2", "...", "1.2"});
  EXPECT_EQ(g->board(), board_of({"...", "1.2", "1.2"}));
  EXPECT_EQ(g->visible_board(), (std::vector<int>{0, 0, 0, -1, 0, -1, -1, 0, -1}));
  EXPECT_EQ(g->colors(), 2);
  auto c = make({"1.2", "...", "1.2"}, true);
  EXPECT_EQ(c->board(), board_of({"...", "12.", "12."}));
  EXPECT_FALSE(custom_setup({"11"}).ranked());
}

TEST(Hidden, FirstSelectNeedsAGroupOfTwo) {
  auto g = make({"12", "22"});
  expect_refused(*g, sel(0, 0), Status::invalid_move);  // a group of one
  EventList events;
  ASSERT_TRUE(g->apply(sel(1, 0), events).ok());
  ASSERT_EQ(events.size(), 1U);
  const auto* e = std::get_if<SelectEvent>(&events[0]);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->x, 1);
  EXPECT_EQ(e->y, 0);
  EXPECT_EQ(e->color, 2);
  EXPECT_EQ(g->visible_board(), (std::vector<int>{-1, 2, -1, -1}));
  EXPECT_EQ(g->move_count(), 1);
  EXPECT_EQ(g->score(), 0);
  EXPECT_EQ(sorted_points(g->selected()), (std::vector<std::array<int, 2>>{{1, 0}}));
}

TEST(Hidden, LaterSelectsNeedASelectedNeighbourOfTheSameColour) {
  // 1s: a group of four (left) and a group of two (right); 2s between.
  auto g = make({"1121", "1121", "2222"});
  ASSERT_EQ(play(*g, sel(0, 0)), Status::ok);
  expect_refused(*g, sel(3, 0), Status::invalid_move);  // same colour, another group
  expect_refused(*g, sel(1, 1), Status::invalid_move);  // same group, not next to the selection
  expect_refused(*g, sel(0, 0), Status::invalid_move);  // already selected
  ASSERT_EQ(play(*g, sel(0, 1)), Status::ok);
  expect_refused(*g, sel(0, 2), Status::invalid_move);  // next to (0,1), other colour
  ASSERT_EQ(play(*g, sel(1, 0)), Status::ok);
  expect_refused(*g, sel(2, 0), Status::invalid_move);  // next to (1,0), other colour
  ASSERT_EQ(play(*g, sel(1, 1)), Status::ok);
  // The whole left group is selected: it went, the right one stays.
  EXPECT_TRUE(g->selected().empty());
  EXPECT_EQ(g->score(), 40);
  EXPECT_EQ(g->board(), board_of({"..21", "..21", "2222"}));
}

TEST(Hidden, SelectOfEmptyOrOutsideIsRefused) {
  auto g = make({"1.", "12"});
  expect_refused(*g, sel(1, 0), Status::invalid_move);
  expect_refused(*g, sel(-1, 0), Status::invalid_move);
  expect_refused(*g, sel(2, 1), Status::invalid_move);
  expect_refused(*g, sel(0, 2), Status::invalid_move);
  expect_refused(*g, unsel(0, 0), Status::invalid_move);  // not selected
  expect_refused(*g, unsel(9, 9), Status::invalid_move);
}

TEST(Hidden, UnselectWithZeroOrOneSelectedNeighbour) {
  auto g = make({"1111", "2222"});
  ASSERT_EQ(play(*g, sel(0, 0)), Status::ok);
  EventList events;
  ASSERT_TRUE(g->apply(unsel(0, 0), events).ok());  // no selected neighbour
  ASSERT_EQ(events.size(), 1U);
  const auto* e = std::get_if<UnselectEvent>(&events[0]);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->x, 0);
  EXPECT_EQ(e->y, 0);
  EXPECT_TRUE(g->selected().empty());
  EXPECT_EQ(g->visible_board(), std::vector<int>(8, -1));
  EXPECT_EQ(g->move_count(), 2);

  ASSERT_EQ(play(*g, sel(1, 0)), Status::ok);
  ASSERT_EQ(play(*g, sel(2, 0)), Status::ok);
  ASSERT_EQ(play(*g, sel(0, 0)), Status::ok);
  // A straight line 0-1-2: the middle has two neighbours and would split it.
  expect_refused(*g, unsel(1, 0), Status::invalid_move);
  EXPECT_EQ(play(*g, unsel(2, 0)), Status::ok);  // an end: one neighbour
  EXPECT_EQ(play(*g, unsel(0, 0)), Status::ok);
  EXPECT_EQ(sorted_points(g->selected()), (std::vector<std::array<int, 2>>{{1, 0}}));
}

TEST(Hidden, UnselectWithThreeOrMoreSelectedNeighboursIsRefused) {
  auto g = make({"2123", "1111", "2123"});
  for (const Move m : {sel(1, 1), sel(1, 0), sel(0, 1), sel(2, 1), sel(1, 2)}) {
    ASSERT_EQ(play(*g, m), Status::ok);
  }
  EXPECT_EQ(g->selected().size(), 5U);                    // (3,1) still unselected
  expect_refused(*g, unsel(1, 1), Status::invalid_move);  // four neighbours
  ASSERT_EQ(play(*g, unsel(1, 0)), Status::ok);
  expect_refused(*g, unsel(1, 1), Status::invalid_move);  // three neighbours
}

TEST(Hidden, ThreeOrMoreNeighboursAreRefusedEvenWithoutASplit) {
  // A 3x3 block of 1s with a tail at (3,0), all of the block selected.
  auto g = make({"1111", "1112", "1112", "2222"});
  for (const Move m : {sel(0, 0), sel(1, 0), sel(2, 0), sel(0, 1), sel(1, 1), sel(2, 1), sel(0, 2),
                       sel(1, 2), sel(2, 2)}) {
    ASSERT_EQ(play(*g, m), Status::ok) << m.a.x << "," << m.a.y;
  }
  ASSERT_EQ(g->selected().size(), 9U);
  expect_refused(*g, unsel(1, 1), Status::invalid_move);  // four; the ring would hold
  expect_refused(*g, unsel(1, 0), Status::invalid_move);  // three; the rest would hold
  expect_refused(*g, unsel(2, 1), Status::invalid_move);
  EXPECT_EQ(play(*g, unsel(0, 0)), Status::ok);  // a corner: two, no split
}

TEST(Hidden, UnselectWithTwoNeighboursOnlyWithoutASplit) {
  // A ring of 1s around a 2, plus a tail at (3,0) so the ring is not a group.
  auto g = make({"1111", "1212", "1112", "2222"});
  for (const Move m :
       {sel(0, 0), sel(1, 0), sel(2, 0), sel(2, 1), sel(2, 2), sel(1, 2), sel(0, 2), sel(0, 1)}) {
    ASSERT_EQ(play(*g, m), Status::ok) << m.a.x << "," << m.a.y;
  }
  ASSERT_EQ(g->selected().size(), 8U);
  // The ring stays connected without its top middle cell (a U remains).
  EXPECT_EQ(play(*g, unsel(1, 0)), Status::ok);
  // The U's bottom middle cell would cut it in two.
  expect_refused(*g, unsel(1, 2), Status::invalid_move);
  EXPECT_EQ(g->selected().size(), 7U);
  // A corner of the U joins two parts as well: (0,0)-(0,1) would be cut off.
  expect_refused(*g, unsel(0, 2), Status::invalid_move);
  EXPECT_EQ(play(*g, unsel(0, 0)), Status::ok);  // an end of the U
}

TEST(Hidden, CompletedGroupIsRemovedWithGravityAndNoCompression) {
  auto g = make({"1223", "1133"});
  ASSERT_EQ(play(*g, sel(0, 0)), Status::ok);
  ASSERT_EQ(play(*g, sel(0, 1)), Status::ok);
  EventList events;
  ASSERT_TRUE(g->apply(sel(1, 1), events).ok());
  ASSERT_EQ(events.size(), 4U);
  EXPECT_TRUE(std::holds_alternative<SelectEvent>(events[0]));
  const auto& remove = std::get<RemoveEvent>(events[1]);
  EXPECT_EQ(remove.wave, 0);
  EXPECT_EQ(sorted_points(remove.cells), (std::vector<std::array<int, 2>>{{0, 0}, {0, 1}, {1, 1}}));
  const auto& score = std::get<ScoreEvent>(events[2]);
  EXPECT_EQ(score.delta, 30);
  EXPECT_EQ(score.total, 30);
  const auto& fall = std::get<FallEvent>(events[3]);
  EXPECT_EQ(fall.moves, (std::vector<std::array<int, 3>>{{1, 0, 1}}));
  EXPECT_EQ(g->board(), board_of({"..23", ".233"}));
  EXPECT_EQ(g->visible_board(), (std::vector<int>{0, 0, -1, -1, 0, -1, -1, -1}));
  EXPECT_TRUE(g->selected().empty());
  EXPECT_EQ(g->score(), 30);
  EXPECT_FALSE(g->over());
}

TEST(Hidden, CompressOptionClosesEmptyColumns) {
  auto g = make({"1223", "1133"}, true);
  ASSERT_EQ(play(*g, sel(0, 0)), Status::ok);
  ASSERT_EQ(play(*g, sel(0, 1)), Status::ok);
  EventList events;
  ASSERT_TRUE(g->apply(sel(1, 1), events).ok());
  ASSERT_EQ(events.size(), 5U);
  const auto& shift = std::get<ShiftEvent>(events[4]);
  EXPECT_EQ(shift.moves, (std::vector<std::array<int, 2>>{{1, 0}, {2, 1}, {3, 2}}));
  EXPECT_EQ(g->board(), board_of({".23.", "233."}));
}

TEST(Hidden, PeekCostsOnePointAndIsAMove) {
  auto g = make({"12", "21", "11"});
  const std::vector<int> view = g->visible_board();
  EventList events;
  ASSERT_TRUE(g->apply(peek(1, 0), events).ok());
  ASSERT_EQ(events.size(), 2U);
  const auto& p = std::get<PeekEvent>(events[0]);
  EXPECT_EQ(p.x, 1);
  EXPECT_EQ(p.y, 0);
  EXPECT_EQ(p.color, 2);
  const auto& s = std::get<ScoreEvent>(events[1]);
  EXPECT_EQ(s.delta, -1);
  EXPECT_EQ(s.total, -1);
  EXPECT_EQ(g->score(), -1);
  EXPECT_EQ(g->move_count(), 1);
  EXPECT_EQ(g->peeks(), 1);
  EXPECT_EQ(g->moves(), (std::vector<Move>{peek(1, 0)}));
  EXPECT_EQ(g->visible_board(), view);  // the colour stays hidden
  EXPECT_EQ(g->state_hash(), state_hash(view, 1, -1));
  // A selected cell may be peeked too, at the same price.
  ASSERT_EQ(play(*g, sel(0, 2)), Status::ok);
  EXPECT_EQ(play(*g, peek(0, 2)), Status::ok);
  EXPECT_EQ(g->score(), -2);
  EXPECT_EQ(g->peeks(), 2);
  EXPECT_EQ(g->move_count(), 3);
}

TEST(Hidden, PeekOfEmptyOrOutsideIsRefused) {
  auto g = make({"1.", "11"});
  expect_refused(*g, peek(1, 0), Status::invalid_move);
  expect_refused(*g, peek(2, 0), Status::invalid_move);
  expect_refused(*g, peek(0, -1), Status::invalid_move);
  EXPECT_EQ(g->peeks(), 0);
}

TEST(Hidden, ClearingTheBoardEarnsTheBonus) {
  auto g = make({"11", "11"});
  ASSERT_EQ(play(*g, peek(0, 0)), Status::ok);
  for (const Move m : {sel(0, 0), sel(1, 0), sel(1, 1)}) ASSERT_EQ(play(*g, m), Status::ok);
  EventList events;
  ASSERT_TRUE(g->apply(sel(0, 1), events).ok());
  ASSERT_EQ(events.size(), 4U);  // select, remove, score, game_over (nothing fell)
  EXPECT_EQ(std::get<ScoreEvent>(events[2]).delta, 40);
  expect_over(events[3], OverReason::cleared, 1000, 40 - 1 + 1000);
  EXPECT_EQ(g->score(), 1039);
  EXPECT_TRUE(g->over());
  EXPECT_EQ(g->over_reason(), OverReason::cleared);
  EXPECT_EQ(g->visible_board(), std::vector<int>(4, 0));
  EXPECT_TRUE(g->legal_moves().empty());
}

TEST(Hidden, GameEndsWhenNoGroupOfTwoRemains) {
  auto g = make({"2113", "3232"});
  ASSERT_EQ(play(*g, sel(1, 0)), Status::ok);
  EventList events;
  ASSERT_TRUE(g->apply(sel(2, 0), events).ok());
  expect_over(events.back(), OverReason::no_moves, 0, 20);
  EXPECT_TRUE(g->over());
  EXPECT_TRUE(g->legal_moves().empty());
  expect_refused(*g, peek(0, 0), Status::not_allowed);
  expect_refused(*g, sel(0, 0), Status::not_allowed);

  auto stuck = make({"12", "21"});
  EXPECT_TRUE(stuck->over());
  EXPECT_EQ(stuck->over_reason(), OverReason::no_moves);
  EXPECT_EQ(stuck->score(), 0);
}

TEST(Hidden, NoHintUndoPreviewOrOtherModesMoves) {
  auto g = make({"11", "22"});
  expect_refused(*g, Move{MoveKind::click, {0, 0}, {}}, Status::wrong_mode);
  expect_refused(*g, Move{MoveKind::swap, {0, 0}, {0, 1}}, Status::wrong_mode);
  Hint hint;
  EXPECT_EQ(g->hint(hint).status, Status::not_allowed);
  ASSERT_EQ(play(*g, sel(0, 0)), Status::ok);
  EXPECT_EQ(g->undo().status, Status::not_allowed);
  Preview preview;
  EXPECT_EQ(g->preview({0, 0}, preview).status, Status::wrong_mode);
  EXPECT_EQ(g->move_count(), 1);
  EXPECT_EQ(g->selected().size(), 1U);
}

TEST(Hidden, CloneCopiesEverything) {
  auto g = make({"1112", "2212", "2222"});
  for (const Move m : {peek(3, 0), sel(0, 0), sel(1, 0)}) ASSERT_EQ(play(*g, m), Status::ok);
  auto c = g->clone();
  EXPECT_EQ(c->state_hash(), g->state_hash());
  EXPECT_EQ(c->board(), g->board());
  EXPECT_EQ(c->selected(), g->selected());
  EXPECT_EQ(c->peeks(), g->peeks());
  EXPECT_EQ(c->moves(), g->moves());
  EXPECT_EQ(c->legal_moves(), g->legal_moves());
  // Completing the group on the copy leaves the original alone.
  ASSERT_EQ(play(*c, sel(2, 0)), Status::ok);
  ASSERT_EQ(play(*c, sel(2, 1)), Status::ok);
  EXPECT_TRUE(c->selected().empty());
  EXPECT_EQ(c->score(), 39);
  EXPECT_EQ(g->selected().size(), 2U);
  EXPECT_EQ(g->score(), -1);
  EXPECT_EQ(g->board(), board_of({"1112", "2212", "2222"}));
}

}  // namespace
}  // namespace tilecrush::game
