// Shared by the match-3 test files: hand-made boards and game setups.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "game_test_util.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::game::match3_test {

using test::board_of;
using test::expect_over;
using test::make;

inline GameSetup preset_setup(std::string_view preset, std::string seed) {
  return test::preset_setup(Mode::match3, std::string(preset), std::move(seed));
}

inline GameSetup board_setup(const Board& board, bool refill,
                             std::optional<int> moves = std::nullopt) {
  GameSetup s = test::board_setup(Mode::match3, board, "custom");
  s.refill = refill;
  s.moves = moves;
  return s;
}

// Plays the game's hint (the first valid swap in scan order), its events
// into `events`. Use as ASSERT_TRUE(play_hint(...)).
inline ::testing::AssertionResult play_hint(Game& g, EventList& events) {
  Hint hint;
  const Outcome hinted = g.hint(hint);
  if (!hinted.ok()) return ::testing::AssertionFailure() << "no hint: " << hinted.reason;
  const Outcome played = g.apply(hint.move, events);
  if (!played.ok()) return ::testing::AssertionFailure() << "hint refused: " << played.reason;
  return ::testing::AssertionSuccess();
}

}  // namespace tilecrush::game::match3_test
