#include <gtest/gtest.h>

#include "tilecrush/game/game.hpp"

namespace tilecrush::game {
namespace {

TEST(SameGame, DealsTheSameBoardForTheSameSeed) {
  GameSetup setup;
  setup.mode = Mode::same;
  setup.preset = "easy";
  setup.seed = "abc";
  auto a = create_game(setup);
  auto b = create_game(setup);
  ASSERT_TRUE(a.game) << a.error;
  EXPECT_EQ(a.game->board(), b.game->board());
}

}  // namespace
}  // namespace tilecrush::game
