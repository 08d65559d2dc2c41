// The replay body's pace: each step's t_ms from the stored offsets, or null
// on every step of a game stored before offsets existed.
#include "tilecrush/protocol/replay_body.hpp"

#include <gtest/gtest.h>

namespace tilecrush::protocol {
namespace {

// Two moves of a Same Game, and the input that replays them and resigns.
ReplayInput two_moves_then_resign() {
  ReplayInput input;
  input.player = "Zoé";
  input.setup.mode = game::Mode::same;
  input.setup.preset = "easy";
  input.setup.seed = "pace";
  auto game = game::create_game(input.setup).game;
  for (int i = 0; i < 2; ++i) {
    const auto legal = game->legal_moves();
    EXPECT_FALSE(legal.empty());
    game::EventList events;
    EXPECT_TRUE(game->apply(legal.front(), events).ok());
    input.moves.push_back(legal.front());
  }
  game::EventList events;
  game->resign(events);
  input.over_reason = game::OverReason::resigned;
  input.score = game->score();
  input.meta.game_id = "g";
  return input;
}

TEST(ReplayBody, StepsCarryTheirMovesOffsets) {
  ReplayInput input = two_moves_then_resign();
  input.move_times = {1'200, 4'500};
  const auto body = replay_body(input);
  ASSERT_TRUE(body.has_value());
  EXPECT_EQ((*body)["valid"], true);
  const auto& steps = (*body)["steps"];
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0]["t_ms"], 1'200);
  EXPECT_EQ(steps[1]["t_ms"], 4'500);
  EXPECT_TRUE(steps[2]["move"].is_null());
  EXPECT_EQ(steps[2]["t_ms"], 4'500);  // the resign: its last move's
}

TEST(ReplayBody, AGameWithoutOffsetsHasNullOnEveryStep) {
  const auto body = replay_body(two_moves_then_resign());
  ASSERT_TRUE(body.has_value());
  for (const auto& step : (*body)["steps"]) {
    ASSERT_TRUE(step.contains("t_ms"));
    EXPECT_TRUE(step["t_ms"].is_null());
  }
}

}  // namespace
}  // namespace tilecrush::protocol
