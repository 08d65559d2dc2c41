// Hidden colours mode: random games never reveal a hidden colour, events
// rebuild the view, and legal_moves() is exactly what apply() accepts.
#include <gtest/gtest.h>

#include "event_applier.hpp"
#include "hidden_test_util.hpp"

namespace tilecrush::game {
namespace {

using namespace hidden_test;

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
  std::discrete_distribution<int> pick_kind(
      {double(weights[0]), double(weights[1]), double(weights[2])});
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
    test::EventApplier client(g->width(), g->height(), g->visible_board(), 0, Mode::hidden);
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
        ASSERT_EQ(client.apply(e), "");
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
      for (const Point p : g->selected())
        selected[static_cast<std::size_t>(p.y * g->width() + p.x)] = true;
      for (std::size_t c = 0; c < view.size(); ++c) {
        const int truth = g->board().cells()[c];
        const int want = truth == 0 ? 0 : selected[c] ? truth : -1;
        ASSERT_EQ(view[c], want) << "cell " << c;
      }
      ASSERT_EQ(client.cells(), view);
      ASSERT_EQ(client.score(), g->score());
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
    const int width = std::uniform_int_distribution<int>(2, 4)(rng);
    const int height = std::uniform_int_distribution<int>(2, 4)(rng);
    const int colors = std::uniform_int_distribution<int>(2, 3)(rng);
    auto g =
        make(test::dealt_setup(Mode::hidden, "legal-" + std::to_string(i), width, height, colors));
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
