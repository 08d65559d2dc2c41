// Cross-mode properties over thousands of seeded random games: events
// describe every change, refusals change nothing, game_over comes exactly
// when the game ends, replays and clones agree. A mode whose factory does not
// build games yet is skipped.
#include <gtest/gtest.h>

#include <climits>
#include <iostream>
#include <random>
#include <string>

#include "event_applier.hpp"
#include "game_test_util.hpp"
#include "property_reference.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {
namespace {

using namespace property_reference;

using test::Snapshot;

struct Stats {
  long games = 0, accepted = 0, refused = 0, undos = 0, clones = 0, resigns = 0;
};

int uniform(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

Move random_move(std::mt19937& rng, int w, int h) {
  Move m;
  m.kind = static_cast<MoveKind>(uniform(rng, 0, 4));
  if (uniform(rng, 0, 20) == 0) {
    const int extremes[] = {INT_MIN, INT_MAX, -1, w, h, 1 << 20};
    m.a = {extremes[uniform(rng, 0, 5)], extremes[uniform(rng, 0, 5)]};
  } else {
    m.a = {uniform(rng, -2, w + 1), uniform(rng, -2, h + 1)};
  }
  const int d = uniform(rng, 0, 5);
  const Point steps[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {2, 0}};
  const Point s = steps[d];
  const auto small = [](int v) { return v > INT_MIN + 2 && v < INT_MAX - 2; };
  m.b = small(m.a.x) && small(m.a.y) ? Point{m.a.x + s.x, m.a.y + s.y} : m.a;
  return m;
}

std::uint64_t hash_of(const std::vector<int>& cells, std::int64_t moves, std::int64_t score) {
  return state_hash(cells, moves, score);
}

// Everything the test checks about one accepted or refused request.
class GameChecker {
 public:
  GameChecker(const GameSetup& setup, std::mt19937& rng, Stats& stats)
      : setup_(setup), rng_(rng), stats_(stats) {}

  void run(int max_moves) {
    CreateResult created = create_game(setup_);
    ASSERT_TRUE(created.game) << describe() << ": " << created.error;
    game_ = std::move(created.game);
    ++stats_.games;
    check_view_rules();
    EXPECT_EQ(game_->over(), game_->legal_moves().empty()) << describe();
    bool resigned = false;
    for (int step = 0; step < max_moves && !game_->over(); ++step) {
      const int roll = uniform(rng_, 0, 99);
      if (roll < 70) {
        const std::vector<Move> legal = game_->legal_moves();
        ASSERT_FALSE(legal.empty()) << describe();
        ASSERT_NO_FATAL_FAILURE(play(legal[rng_() % legal.size()], true));
      } else if (roll < 88) {
        ASSERT_NO_FATAL_FAILURE(play(random_move(rng_, game_->width(), game_->height()), false));
      } else if (roll < 93) {
        ASSERT_NO_FATAL_FAILURE(try_undo());
      } else if (roll < 97) {
        ASSERT_NO_FATAL_FAILURE(check_clone());
      } else if (roll < 99) {
        ASSERT_NO_FATAL_FAILURE(check_queries());
      } else if (uniform(rng_, 0, 9) == 0) {
        ASSERT_NO_FATAL_FAILURE(resign());
        resigned = true;
      }
    }
    if (game_->over()) {
      ASSERT_NO_FATAL_FAILURE(check_finished());
    }
    ASSERT_NO_FATAL_FAILURE(check_replay(resigned));
  }

 private:
  std::string describe() const {
    std::string s = std::string(to_string(setup_.mode)) + "/" +
                    (setup_.preset.empty() ? "custom" : setup_.preset) + "/" + setup_.seed;
    if (game_) s += " after " + std::to_string(game_->move_count()) + " moves";
    return s;
  }

  // The view shows exactly the filled cells; a colour it shows is the true one.
  void check_view_rules() {
    const std::vector<int> visible = game_->visible_board();
    const auto& cells = game_->board().cells();
    ASSERT_EQ(visible.size(), cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      ASSERT_EQ(visible[i] == 0, cells[i] == 0) << describe() << " cell " << i;
      if (visible[i] > 0) {
        ASSERT_EQ(visible[i], cells[i]) << describe() << " cell " << i;
      }
      if (game_->mode() != Mode::hidden) {
        ASSERT_EQ(visible[i], cells[i]);
      }
    }
    ASSERT_EQ(game_->state_hash(), hash_of(visible, game_->move_count(), game_->score()));
    // Same Game and hidden mode end exactly when no group of two remains.
    if (game_->mode() != Mode::match3 && game_->over_reason() != OverReason::resigned) {
      ASSERT_EQ(game_->over(), !own_has_pair(game_->board())) << describe();
      if (game_->over()) {
        ASSERT_EQ(game_->over_reason(),
                  game_->board().empty() ? OverReason::cleared : OverReason::no_moves);
      }
    }
  }

  void play(const Move& move, bool legal) {
    const Snapshot before(*game_);
    const std::int64_t undo_depth = static_cast<std::int64_t>(history_.size());
    int expected_group = -1;
    Preview preview;
    bool previewed = false;
    if (game_->mode() == Mode::same && move.kind == MoveKind::click) {
      expected_group =
          own_group_size(before.visible, game_->width(), game_->height(), move.a.x, move.a.y);
      previewed = game_->preview(move.a, preview).ok();
      ASSERT_EQ(previewed, expected_group >= 2) << describe();
    }
    EventList events;
    const Outcome out = game_->apply(move, events);
    if (legal) {
      ASSERT_TRUE(out.ok()) << describe() << ": a legal move was refused: " << out.reason;
    }
    if (expected_group >= 0) {
      ASSERT_EQ(out.ok(), expected_group >= 2) << describe();
    }
    if (!out.ok()) {
      ++stats_.refused;
      ASSERT_TRUE(events.empty()) << describe();
      if (game_->mode() == Mode::same) {
        ASSERT_EQ(out.status,
                  move.kind == MoveKind::click ? Status::invalid_move : Status::wrong_mode);
      }
      ASSERT_EQ(Snapshot(*game_), before) << describe() << ": a refused move changed the game";
      return;
    }
    ++stats_.accepted;
    history_.push_back(before);
    ASSERT_EQ(static_cast<std::int64_t>(history_.size()), undo_depth + 1);
    ASSERT_FALSE(events.empty());
    test::EventApplier applier(game_->width(), game_->height(), before.visible, before.score,
                               game_->mode());
    const std::string error = applier.apply_all(events);
    ASSERT_TRUE(error.empty()) << describe() << ": " << error;
    ASSERT_EQ(applier.cells(), game_->visible_board())
        << describe() << ": events do not rebuild the board";
    ASSERT_EQ(applier.score(), game_->score()) << describe();
    const bool ends_with_over = std::holds_alternative<GameOverEvent>(events.back());
    ASSERT_EQ(ends_with_over, game_->over()) << describe();
    ASSERT_EQ(applier.saw_game_over(), game_->over()) << describe();
    if (ends_with_over) {
      ASSERT_EQ(std::get<GameOverEvent>(events.back()).reason, game_->over_reason());
    }
    ASSERT_EQ(game_->move_count(), before.move_count + 1);
    ASSERT_EQ(game_->moves().back(), move);
    ASSERT_EQ(game_->state_hash(), hash_of(applier.cells(), game_->move_count(), game_->score()));
    if (previewed) {
      const auto& remove = std::get<RemoveEvent>(events[0]);
      ASSERT_EQ(test::cell_set(remove.cells), test::cell_set(preview.cells));
      ASSERT_EQ(static_cast<int>(remove.cells.size()), expected_group);
      ASSERT_EQ(std::get<ScoreEvent>(events[1]).delta, preview.points);
    }
    check_view_rules();
    ASSERT_EQ(game_->over(), game_->legal_moves().empty()) << describe();
  }

  void try_undo() {
    const Snapshot before(*game_);
    const Outcome out = game_->undo();
    if (!out.ok()) {
      ASSERT_EQ(Snapshot(*game_), before) << describe();
      if (game_->mode() == Mode::same) {
        ASSERT_TRUE(history_.empty()) << describe();
      }
      return;
    }
    ++stats_.undos;
    ASSERT_FALSE(history_.empty()) << describe();
    ASSERT_EQ(Snapshot(*game_), history_.back()) << describe() << ": undo did not restore";
    if (uniform(rng_, 0, 1) == 0) {
      // Playing the undone move again gives the same state (match-3: the
      // generator was restored too).
      EventList events;
      ASSERT_TRUE(game_->apply(before.moves.back(), events).ok()) << describe();
      ASSERT_EQ(Snapshot(*game_), before) << describe() << ": redo after undo differs";
      return;
    }
    history_.pop_back();
  }

  void check_clone() {
    ++stats_.clones;
    const Snapshot before(*game_);
    std::unique_ptr<Game> twin = game_->clone();
    ASSERT_EQ(Snapshot(*twin), before);
    const std::vector<Move> legal = game_->legal_moves();
    ASSERT_EQ(twin->legal_moves(), legal);
    const Move move = legal[rng_() % legal.size()];
    EventList events;
    ASSERT_TRUE(twin->apply(move, events).ok());
    ASSERT_EQ(Snapshot(*game_), before) << describe() << ": a move on a clone changed the original";
    // The original, given the same move, reaches the same state (generator included).
    std::unique_ptr<Game> other = game_->clone();
    ASSERT_TRUE(other->apply(move, events).ok());
    ASSERT_EQ(Snapshot(*other), Snapshot(*twin));
    const Snapshot twin_after(*twin);
    other.reset();
    ASSERT_TRUE(game_->apply(legal.front(), events).ok());
    history_.push_back(before);
    ASSERT_EQ(Snapshot(*twin), twin_after)
        << describe() << ": a move on the original changed a clone";
  }

  void check_queries() {
    const Snapshot before(*game_);
    Hint hint;
    if (game_->hint(hint).ok()) {
      std::unique_ptr<Game> twin = game_->clone();
      EventList events;
      ASSERT_TRUE(twin->apply(hint.move, events).ok()) << describe() << ": the hint was refused";
    }
    Preview preview;
    game_->preview({uniform(rng_, -1, game_->width()), uniform(rng_, -1, game_->height())},
                   preview);
    (void)game_->peeks();
    (void)game_->selected();
    ASSERT_EQ(Snapshot(*game_), before) << describe();
  }

  void resign() {
    ++stats_.resigns;
    const Snapshot before(*game_);
    EventList events;
    ASSERT_TRUE(game_->resign(events).ok());
    ASSERT_EQ(events.size(), 1u);
    const auto& over = std::get<GameOverEvent>(events[0]);
    ASSERT_EQ(over.reason, OverReason::resigned);
    ASSERT_EQ(over.bonus, 0);
    ASSERT_EQ(over.final_score, before.score);
    ASSERT_EQ(game_->state_hash(), before.hash);
    ASSERT_EQ(game_->over_reason(), OverReason::resigned);
  }

  void check_finished() {
    const Snapshot over(*game_);
    for (int i = 0; i < 5; ++i) {
      EventList events;
      const Outcome out = game_->apply(random_move(rng_, game_->width(), game_->height()), events);
      ASSERT_TRUE(out.status == Status::not_allowed || out.status == Status::wrong_mode)
          << describe();
      ASSERT_TRUE(events.empty());
    }
    EventList events;
    ASSERT_EQ(game_->resign(events).status, Status::not_allowed);
    ASSERT_EQ(game_->undo().status, Status::not_allowed);
    Hint hint;
    ASSERT_NE(game_->hint(hint).status, Status::ok);
    ASSERT_EQ(Snapshot(*game_), over) << describe();
  }

  void check_replay(bool resigned) {
    ReplayResult replayed = replay(setup_, game_->moves());
    ASSERT_TRUE(replayed.game) << describe() << ": " << replayed.error;
    ASSERT_EQ(replayed.game->state_hash(), game_->state_hash()) << describe();
    ASSERT_EQ(replayed.game->score(), game_->score());
    ASSERT_EQ(replayed.game->board(), game_->board());
    ASSERT_EQ(replayed.game->over_reason(), resigned ? OverReason::none : game_->over_reason());
    if (game_->over() && !resigned) {
      std::vector<Move> extra = game_->moves();
      extra.push_back(game_->moves().empty() ? test::click(0, 0) : game_->moves().back());
      ReplayResult refused = replay(setup_, extra);
      ASSERT_FALSE(refused.game) << describe();
      ASSERT_EQ(refused.failed_move, game_->moves().size());
      ASSERT_FALSE(refused.error.empty());
    }
  }

  const GameSetup& setup_;
  std::mt19937& rng_;
  Stats& stats_;
  std::unique_ptr<Game> game_;
  std::vector<Snapshot> history_;  // the state before each accepted move
};

bool mode_ready(Mode mode) {
  return create_game(test::preset_setup(mode, std::string(presets(mode).front().name), "ready?"))
             .game != nullptr;
}

GameSetup random_setup(Mode mode, std::mt19937& rng, int index) {
  GameSetup setup;
  setup.mode = mode;
  setup.seed = "prop-" + std::to_string(index) + "-" + std::to_string(rng() % 1000);
  const CustomLimits limits = custom_limits(mode);
  const int kind = uniform(rng, 0, 9);
  if (kind < 4) {
    const auto table = presets(mode);
    setup.preset = std::string(table[rng() % table.size()].name);
  } else {
    // Mostly small boards, so that thousands of games stay quick.
    const int side_max = uniform(rng, 0, 30) == 0 ? limits.max_side : 12;
    const int w = uniform(rng, limits.min_side, side_max);
    const int h = uniform(rng, limits.min_side, side_max);
    const int k = uniform(rng, limits.min_colors, std::min(limits.max_colors, 7));
    if (kind < 7) {
      setup.width = w;
      setup.height = h;
      setup.colors = k;
    } else {
      Board board(w, h);
      const int holes = uniform(rng, 0, 3);  // chance in ten of a hole
      for (auto& c : board.cells()) {
        c = uniform(rng, 0, 9) < holes ? 0 : static_cast<std::uint8_t>(uniform(rng, 1, k));
      }
      if (board.empty()) board.set(0, 0, 1);
      setup.board = std::move(board);
    }
    if (mode == Mode::match3 && !setup.board && uniform(rng, 0, 2) > 0)
      setup.moves = uniform(rng, 1, 60);
  }
  if (mode == Mode::match3) setup.refill = uniform(rng, 0, 3) > 0;
  if (mode == Mode::hidden) setup.compress = uniform(rng, 0, 2) == 0;
  return setup;
}

void run_mode(Mode mode, int games, int max_moves, std::uint32_t seed) {
  if (!mode_ready(mode)) GTEST_SKIP() << to_string(mode) << " games cannot be created yet";
  std::mt19937 rng(seed);
  Stats stats;
  for (int i = 0; i < games; ++i) {
    const GameSetup setup = random_setup(mode, rng, i);
    GameChecker checker(setup, rng, stats);
    checker.run(max_moves);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::cout << "[ stats    ] " << to_string(mode) << ": " << stats.games << " games, "
            << stats.accepted << " accepted, " << stats.refused << " refused, " << stats.undos
            << " undos, " << stats.clones << " clone checks, " << stats.resigns << " resigns\n";
}

TEST(Property, SameGame) {
  run_mode(Mode::same, 3000, 2000, 1);
}
TEST(Property, Match3) {
  run_mode(Mode::match3, 800, 400, 2);
}
TEST(Property, Hidden) {
  run_mode(Mode::hidden, 600, 300, 3);
}

}  // namespace
}  // namespace tilecrush::game
