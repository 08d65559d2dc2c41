// Hidden colours mode (rules.md "Hidden colours", seed 004).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "board_ops.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::game {
namespace {

// Rows top first; '.' is empty, '1'..'9' colours, 'A' colour 10.
Board board_of(const std::vector<std::string>& rows) {
  Board b(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()));
  for (int y = 0; y < b.height(); ++y) {
    for (int x = 0; x < b.width(); ++x) {
      const char c = rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
      b.set(x, y, static_cast<std::uint8_t>(c == '.' ? 0 : c == 'A' ? 10 : c - '0'));
    }
  }
  return b;
}

GameSetup custom_setup(const std::vector<std::string>& rows, bool compress = false) {
  GameSetup setup;
  setup.mode = Mode::hidden;
  setup.seed = "test";
  setup.board = board_of(rows);
  setup.compress = compress;
  return setup;
}

std::unique_ptr<Game> make(const GameSetup& setup) {
  CreateResult created = create_game(setup);
  EXPECT_TRUE(created.game) << created.error;
  return std::move(created.game);
}

std::unique_ptr<Game> make(const std::vector<std::string>& rows, bool compress = false) {
  return make(custom_setup(rows, compress));
}

Move peek(int x, int y) { return {MoveKind::peek, {x, y}, {}}; }
Move sel(int x, int y) { return {MoveKind::select, {x, y}, {}}; }
Move unsel(int x, int y) { return {MoveKind::unselect, {x, y}, {}}; }

Status play(Game& g, const Move& m) {
  EventList events;
  return g.apply(m, events).status;
}

// Applies m and checks that it is refused with `want` and changes nothing.
void expect_refused(Game& g, const Move& m, Status want) {
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

std::vector<std::array<int, 2>> sorted_points(const std::vector<Point>& ps) {
  std::vector<std::array<int, 2>> out;
  for (const Point p : ps) out.push_back({p.x, p.y});
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Hidden, PresetBoardIsUniformAndFullyHidden) {
  GameSetup setup;
  setup.mode = Mode::hidden;
  setup.preset = "classic";
  setup.seed = "2024-01-01";
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
  EXPECT_EQ(g->selected().size(), 5U);      // (3,1) still unselected
  expect_refused(*g, unsel(1, 1), Status::invalid_move);  // four neighbours
  ASSERT_EQ(play(*g, unsel(1, 0)), Status::ok);
  expect_refused(*g, unsel(1, 1), Status::invalid_move);  // three neighbours
}

TEST(Hidden, ThreeOrMoreNeighboursAreRefusedEvenWithoutASplit) {
  // A 3x3 block of 1s with a tail at (3,0), all of the block selected.
  auto g = make({"1111", "1112", "1112", "2222"});
  for (const Move m : {sel(0, 0), sel(1, 0), sel(2, 0), sel(0, 1), sel(1, 1), sel(2, 1),
                       sel(0, 2), sel(1, 2), sel(2, 2)}) {
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
  for (const Move m : {sel(0, 0), sel(1, 0), sel(2, 0), sel(2, 1), sel(2, 2), sel(1, 2),
                       sel(0, 2), sel(0, 1)}) {
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
  const auto& over = std::get<GameOverEvent>(events[3]);
  EXPECT_EQ(over.reason, OverReason::cleared);
  EXPECT_EQ(over.bonus, 1000);
  EXPECT_EQ(over.final_score, 40 - 1 + 1000);
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
  const auto& over = std::get<GameOverEvent>(events.back());
  EXPECT_EQ(over.reason, OverReason::no_moves);
  EXPECT_EQ(over.bonus, 0);
  EXPECT_EQ(over.final_score, 20);
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

// The board a client keeps by applying the events in order (protocol.md):
// -1 for a hidden cell, a colour revealed by select and hidden again by
// unselect, a peek changing nothing on the board.
struct ClientBoard {
  int width = 0;
  std::vector<int> cells;
  std::int64_t score = 0;

  int& at(int x, int y) { return cells[static_cast<std::size_t>(y * width + x)]; }

  void apply(const Event& event) {
    std::visit([this](const auto& e) { on(e); }, event);
  }
  void on(const RemoveEvent& e) {
    for (const Point p : e.cells) at(p.x, p.y) = 0;
  }
  void on(const ScoreEvent& e) {
    score += e.delta;
    EXPECT_EQ(score, e.total);
  }
  void on(const FallEvent& e) {
    const std::vector<int> before = cells;
    for (const auto& m : e.moves) at(m[0], m[1]) = 0;
    for (const auto& m : e.moves) at(m[0], m[2]) = before[static_cast<std::size_t>(m[1] * width + m[0])];
  }
  void on(const ShiftEvent& e) {
    const std::vector<int> before = cells;
    const int height = static_cast<int>(cells.size()) / width;
    for (const auto& m : e.moves) {
      for (int y = 0; y < height; ++y) at(m[0], y) = 0;
    }
    for (const auto& m : e.moves) {
      for (int y = 0; y < height; ++y) at(m[1], y) = before[static_cast<std::size_t>(y * width + m[0])];
    }
  }
  void on(const SelectEvent& e) { at(e.x, e.y) = e.color; }
  void on(const UnselectEvent& e) { at(e.x, e.y) = -1; }
  void on(const GameOverEvent& e) {
    score += e.bonus;
    EXPECT_EQ(score, e.final_score);
  }
  void on(const PeekEvent&) {}
  void on(const SwapEvent&) { ADD_FAILURE() << "swap event in hidden mode"; }
  void on(const SpawnEvent&) { ADD_FAILURE() << "spawn event in hidden mode"; }
};

bool contains_move(const std::vector<Move>& moves, const Move& m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

GameSetup random_setup(std::mt19937& rng, int index) {
  GameSetup setup;
  setup.mode = Mode::hidden;
  setup.seed = "random-" + std::to_string(index);
  const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
  if (kind == 0) {
    setup.preset = index % 2 == 0 ? "classic" : "large";
    return setup;
  }
  setup.compress = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
  const int w = std::uniform_int_distribution<int>(2, 8)(rng);
  const int h = std::uniform_int_distribution<int>(2, 8)(rng);
  const int k = std::uniform_int_distribution<int>(2, 4)(rng);
  if (kind <= 5) {
    setup.width = w;
    setup.height = h;
    setup.colors = k;
    return setup;
  }
  Board b(w, h);
  for (auto& c : b.cells()) {
    c = std::uniform_int_distribution<int>(0, 4)(rng) == 0
            ? 0
            : static_cast<std::uint8_t>(std::uniform_int_distribution<int>(1, k)(rng));
  }
  b.set(0, h - 1, 1);  // never an empty board
  setup.board = b;
  return setup;
}

// Mostly selects, some unselects, a few peeks, so that games finish.
Move random_legal_move(std::mt19937& rng, const std::vector<Move>& legal) {
  std::vector<Move> by_kind[3];
  for (const Move& m : legal) {
    by_kind[m.kind == MoveKind::select ? 0 : m.kind == MoveKind::unselect ? 1 : 2].push_back(m);
  }
  const int weights[3] = {by_kind[0].empty() ? 0 : 12, by_kind[1].empty() ? 0 : 4,
                          by_kind[2].empty() ? 0 : 1};
  std::discrete_distribution<int> pick_kind({double(weights[0]), double(weights[1]), double(weights[2])});
  const auto& pool = by_kind[pick_kind(rng)];
  return pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)];
}

Move random_any_move(std::mt19937& rng, const Game& g) {
  Move m;
  m.kind = static_cast<MoveKind>(std::uniform_int_distribution<int>(0, 4)(rng));
  m.a = {std::uniform_int_distribution<int>(-1, g.width())(rng),
         std::uniform_int_distribution<int>(-1, g.height())(rng)};
  if (m.kind == MoveKind::swap) m.b = {m.a.x + 1, m.a.y};
  return m;
}

TEST(Hidden, RandomGamesNeverRevealHiddenColoursAndEventsRebuildTheView) {
  std::mt19937 rng(20240601);
  constexpr int kGames = 3000;
  int finished = 0;
  int removals = 0;
  std::int64_t total_moves = 0;
  for (int i = 0; i < kGames; ++i) {
    const GameSetup setup = random_setup(rng, i);
    auto g = make(setup);
    ASSERT_TRUE(g);
    ClientBoard client{g->width(), g->visible_board(), 0};
    for (int step = 0; step < 3000 && !g->over(); ++step) {
      const std::vector<Move> legal = g->legal_moves();
      ASSERT_FALSE(legal.empty());
      if (std::uniform_int_distribution<int>(0, 4)(rng) == 0) {
        // A move drawn from everything, valid or not: accepted exactly when legal.
        const Move any = random_any_move(rng, *g);
        if (!contains_move(legal, any)) {
          const std::uint64_t hash = g->state_hash();
          const std::int64_t count = g->move_count();
          EventList none;
          ASSERT_FALSE(g->apply(any, none).ok());
          ASSERT_TRUE(none.empty());
          ASSERT_EQ(g->state_hash(), hash);
          ASSERT_EQ(g->move_count(), count);
          continue;
        }
      }
      const Move m = random_legal_move(rng, legal);
      const Board before = g->board();
      EventList events;
      ASSERT_TRUE(g->apply(m, events).ok()) << "legal move refused";
      ASSERT_FALSE(events.empty());
      for (const Event& e : events) {
        // Colours travel only in the answer about the cell the move names.
        if (const auto* p = std::get_if<PeekEvent>(&e)) {
          ASSERT_EQ(m.kind, MoveKind::peek);
          ASSERT_EQ(p->x, m.a.x);
          ASSERT_EQ(p->y, m.a.y);
          ASSERT_EQ(p->color, before.at(m.a.x, m.a.y));
        }
        if (const auto* s = std::get_if<SelectEvent>(&e)) {
          ASSERT_EQ(m.kind, MoveKind::select);
          ASSERT_EQ(s->x, m.a.x);
          ASSERT_EQ(s->y, m.a.y);
          ASSERT_EQ(s->color, before.at(m.a.x, m.a.y));
        }
        if (std::holds_alternative<RemoveEvent>(e)) ++removals;
        client.apply(e);
      }
      ASSERT_EQ(std::holds_alternative<GameOverEvent>(events.back()), g->over());
      for (const Event& e : events) {
        // A removal takes exactly one whole group of the board before the move.
        if (const auto* r = std::get_if<RemoveEvent>(&e)) {
          ASSERT_EQ(sorted_points(r->cells), sorted_points(ops::group_at(before, r->cells[0])));
        }
      }
      // The selection is always one colour and connected.
      const std::vector<Point> sel_now = g->selected();
      if (!sel_now.empty()) {
        const std::vector<Point> group = ops::group_at(g->board(), sel_now[0]);
        Board only_selected(g->width(), g->height());
        for (const Point p : sel_now) only_selected.set(p.x, p.y, 1);
        ASSERT_EQ(ops::group_at(only_selected, sel_now[0]).size(), sel_now.size());
        for (const Point p : sel_now) {
          ASSERT_EQ(g->board().at(p.x, p.y), g->board().at(sel_now[0].x, sel_now[0].y));
        }
        ASSERT_LT(sel_now.size(), group.size());  // a whole group would be gone
      }

      const std::vector<int> view = g->visible_board();
      std::vector<bool> selected(view.size(), false);
      for (const Point p : g->selected()) selected[static_cast<std::size_t>(p.y * g->width() + p.x)] = true;
      for (std::size_t c = 0; c < view.size(); ++c) {
        const int truth = g->board().cells()[c];
        const int want = truth == 0 ? 0 : selected[c] ? truth : -1;
        ASSERT_EQ(view[c], want) << "cell " << c;
      }
      ASSERT_EQ(client.cells, view);
      ASSERT_EQ(client.score, g->score());
      ASSERT_EQ(g->state_hash(), state_hash(view, g->move_count(), g->score()));
    }
    finished += g->over() ? 1 : 0;
    total_moves += g->move_count();
    ASSERT_EQ(g->move_count(), static_cast<std::int64_t>(g->moves().size()));

    const ReplayResult replayed = replay(setup, g->moves());
    ASSERT_TRUE(replayed.game) << replayed.error;
    EXPECT_EQ(replayed.game->state_hash(), g->state_hash());
    EXPECT_EQ(replayed.game->score(), g->score());
    EXPECT_EQ(replayed.game->over_reason(), g->over_reason());
    EXPECT_EQ(replayed.game->peeks(), g->peeks());
  }
  // The walk must really play: most games end and groups are removed.
  EXPECT_GT(finished, kGames * 9 / 10);
  EXPECT_GT(removals, kGames);
  std::cout << "[ info ] " << kGames << " games, " << finished << " finished, " << total_moves
            << " moves, " << removals << " groups removed\n";
}

TEST(Hidden, LegalMovesAreExactlyTheAcceptedMoves) {
  std::mt19937 rng(77);
  for (int i = 0; i < 200; ++i) {
    GameSetup setup;
    setup.mode = Mode::hidden;
    setup.seed = "legal-" + std::to_string(i);
    setup.width = std::uniform_int_distribution<int>(2, 4)(rng);
    setup.height = std::uniform_int_distribution<int>(2, 4)(rng);
    setup.colors = std::uniform_int_distribution<int>(2, 3)(rng);
    auto g = make(setup);
    ASSERT_TRUE(g);
    while (!g->over()) {
      const std::vector<Move> legal = g->legal_moves();
      for (std::size_t a = 0; a < legal.size(); ++a) {
        for (std::size_t b = a + 1; b < legal.size(); ++b) ASSERT_FALSE(legal[a] == legal[b]);
      }
      for (const MoveKind kind : {MoveKind::peek, MoveKind::select, MoveKind::unselect}) {
        for (int y = -1; y <= g->height(); ++y) {
          for (int x = -1; x <= g->width(); ++x) {
            const Move m{kind, {x, y}, {}};
            auto trial = g->clone();
            EventList events;
            const bool accepted = trial->apply(m, events).ok();
            ASSERT_EQ(accepted, contains_move(legal, m)) << to_string(kind) << " " << x << "," << y;
            if (!accepted) {
              ASSERT_EQ(trial->state_hash(), g->state_hash());
            }
          }
        }
      }
      EventList events;
      ASSERT_TRUE(g->apply(random_legal_move(rng, legal), events).ok());
    }
  }
}

}  // namespace
}  // namespace tilecrush::game
