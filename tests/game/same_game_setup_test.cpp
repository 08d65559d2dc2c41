// Same Game setups: presets, custom parameters, custom boards, ranked().
#include <gtest/gtest.h>

#include "game_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {
namespace {

using test::board_of;
using test::rows_of;
using test::same_setup;

GameSetup custom(int width, int height, int colors) {
  return test::dealt_setup(Mode::same, "custom", width, height, colors);
}

void expect_full_board(const Game& game, int colors) {
  for (std::uint8_t c : game.board().cells()) {
    ASSERT_GE(c, 1);
    ASSERT_LE(c, colors);
  }
}

TEST(SameGameSetup, PresetsHaveTheSizesOfTheRules) {
  struct Expected {
    const char* name;
    int w, h, k;
  };
  const Expected expected[] = {
      {"easy", 10, 10, 3}, {"normal", 15, 12, 4}, {"hard", 20, 15, 5}, {"classic", 15, 15, 5}};
  ASSERT_EQ(presets(Mode::same).size(), std::size(expected));
  for (const Expected& e : expected) {
    for (const char* seed : {"a", "2026-01-01"}) {
      CreateResult created = create_game(same_setup(e.name, seed));
      ASSERT_TRUE(created.game) << e.name << ": " << created.error;
      const Game& game = *created.game;
      EXPECT_EQ(game.width(), e.w) << e.name;
      EXPECT_EQ(game.height(), e.h) << e.name;
      EXPECT_EQ(game.colors(), e.k) << e.name;
      EXPECT_EQ(game.board().width(), e.w);
      EXPECT_EQ(game.board().height(), e.h);
      expect_full_board(game, e.k);
      // Every colour is dealt on boards this large.
      EXPECT_EQ(game.board().max_color(), e.k);
      EXPECT_EQ(game.score(), 0);
      EXPECT_EQ(game.move_count(), 0);
      EXPECT_FALSE(game.moves_left());
      EXPECT_FALSE(game.over());
      EXPECT_TRUE(game.setup().ranked());
      EXPECT_EQ(game.state_hash(), state_hash(game.visible_board(), 0, 0));
    }
  }
  EXPECT_EQ(find_preset(Mode::same, "expert"), nullptr);
  EXPECT_FALSE(create_game(same_setup("expert", "a")).game);
  EXPECT_FALSE(create_game(same_setup("crush", "a")).game);
}

TEST(SameGameSetup, DifferentPresetsAndSeedsGiveDifferentBoards) {
  auto a = create_game(same_setup("classic", "s")).game;
  auto b = create_game(same_setup("classic", "t")).game;
  auto c = create_game(custom(15, 15, 5)).game;
  ASSERT_TRUE(a && b && c);
  EXPECT_NE(a->board(), b->board());
  EXPECT_NE(a->board(), c->board());
}

TEST(SameGameSetup, CustomParametersWithinLimits) {
  const int ok[][3] = {{2, 2, 2}, {40, 40, 10}, {2, 40, 3}, {40, 2, 10}, {7, 9, 6}};
  for (const auto& p : ok) {
    CreateResult created = create_game(custom(p[0], p[1], p[2]));
    ASSERT_TRUE(created.game) << p[0] << "x" << p[1] << "x" << p[2] << ": " << created.error;
    EXPECT_EQ(created.game->width(), p[0]);
    EXPECT_EQ(created.game->height(), p[1]);
    EXPECT_EQ(created.game->colors(), p[2]);
    expect_full_board(*created.game, p[2]);
    EXPECT_FALSE(created.game->setup().ranked());
  }
  auto big = create_game(custom(40, 40, 10)).game;
  EXPECT_EQ(big->board().max_color(), 10);
  auto again = create_game(custom(40, 40, 10)).game;
  EXPECT_EQ(big->board(), again->board());
}

TEST(SameGameSetup, CustomParametersOutsideLimitsAreRefused) {
  const int bad[][3] = {{1, 5, 3},  {5, 1, 3}, {41, 5, 3}, {5, 41, 3}, {0, 0, 3},
                        {-3, 5, 3}, {5, 5, 1}, {5, 5, 11}, {5, 5, 0},  {5, 5, -1}};
  for (const auto& p : bad) {
    CreateResult created = create_game(custom(p[0], p[1], p[2]));
    EXPECT_FALSE(created.game) << p[0] << "x" << p[1] << "x" << p[2];
    EXPECT_FALSE(created.error.empty());
  }
}

TEST(SameGameSetup, OptionsOfOtherModesAndMissingSeedAreRefused) {
  GameSetup setup = same_setup("easy", "opt");
  setup.moves = 10;
  EXPECT_FALSE(create_game(setup).game);
  setup = same_setup("easy", "opt");
  setup.refill = false;
  EXPECT_FALSE(create_game(setup).game);
  setup = same_setup("easy", "opt");
  setup.compress = true;
  EXPECT_FALSE(create_game(setup).game);
  EXPECT_FALSE(create_game(same_setup("easy", "")).game);
  setup = same_setup("easy", "opt");
  setup.board = board_of({"11", "22"});
  EXPECT_FALSE(create_game(setup).game) << "a preset with a custom board";
}

TEST(SameGameSetup, CustomBoardSizesAndCells) {
  auto sized = [](int w, int h, std::uint8_t fill) {
    Board b(w, h);
    for (auto& c : b.cells()) c = fill;
    return b;
  };
  EXPECT_TRUE(create_game(test::board_setup(Mode::same, sized(2, 2, 1))).game);
  EXPECT_TRUE(create_game(test::board_setup(Mode::same, sized(40, 40, 10))).game);
  EXPECT_TRUE(create_game(test::board_setup(Mode::same, sized(2, 40, 3))).game);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, sized(1, 5, 1))).game);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, sized(5, 1, 1))).game);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, sized(41, 5, 1))).game);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, sized(5, 41, 1))).game);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, Board())).game);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, sized(3, 3, 0))).game) << "empty board";
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, board_of({"1b", "11"}))).game)
      << "cell 11";
  Board high = board_of({"1a", "11"});
  EXPECT_TRUE(create_game(test::board_setup(Mode::same, high)).game) << "cell 10";
  high.set(1, 0, 255);
  EXPECT_FALSE(create_game(test::board_setup(Mode::same, high)).game) << "cell 255";
}

TEST(SameGameSetup, CustomBoardGetsGravityAndCompressionBeforePlay) {
  auto game = test::same_on(board_of({"1020", "0030", "1024"}));
  ASSERT_TRUE(game);
  EXPECT_EQ(rows_of(game->board()), (std::vector<std::string>{"0200", "1300", "1240"}));
  EXPECT_EQ(game->colors(), 4);
  EXPECT_EQ(game->score(), 0);
  EXPECT_EQ(game->move_count(), 0);
  EXPECT_FALSE(game->over());
  EXPECT_EQ(game->state_hash(), state_hash(game->visible_board(), 0, 0));
  EXPECT_FALSE(game->setup().ranked());

  // An empty first column and a floating tile.
  auto shifted = test::same_on(board_of({"003", "020", "000"}));
  EXPECT_EQ(rows_of(shifted->board()), (std::vector<std::string>{"000", "000", "230"}));
}

TEST(SameGameSetup, CustomBoardWithoutAGroupIsOverAtOnce) {
  auto game = test::same_on(board_of({"12", "21"}));
  ASSERT_TRUE(game);
  EXPECT_TRUE(game->over());
  EXPECT_EQ(game->over_reason(), OverReason::no_moves);
  EXPECT_EQ(game->score(), 0);
  EXPECT_TRUE(game->legal_moves().empty());
  EventList events;
  EXPECT_EQ(game->apply(test::click(0, 0), events).status, Status::not_allowed);
  EXPECT_EQ(game->undo().status, Status::not_allowed);
}

TEST(SameGameSetup, RankedOnlyForAPresetWithoutOptions) {
  GameSetup preset = same_setup("hard", "r");
  EXPECT_TRUE(preset.ranked());
  EXPECT_FALSE(custom(10, 10, 3).ranked());
  EXPECT_FALSE(test::board_setup(Mode::same, board_of({"11", "22"})).ranked());
  GameSetup no_refill = same_setup("classic", "r");
  no_refill.mode = Mode::match3;
  EXPECT_TRUE(no_refill.ranked());
  no_refill.refill = false;
  EXPECT_FALSE(no_refill.ranked());
  GameSetup compress = same_setup("classic", "r");
  compress.mode = Mode::hidden;
  compress.compress = true;
  EXPECT_FALSE(compress.ranked());
  GameSetup board_and_preset = same_setup("easy", "r");
  board_and_preset.board = board_of({"11", "22"});
  EXPECT_FALSE(board_and_preset.ranked());
}

}  // namespace
}  // namespace tilecrush::game
