// Shared by the match-3 test files: hand-made boards and game setups.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tilecrush/game/game.hpp"

namespace tilecrush::game::match3_test {

// Rows top first; '.' is empty, '1'..'9' and 'a'..'c' are colours 1..12.
inline Board board_of(std::initializer_list<std::string_view> rows) {
  Board b(static_cast<int>(rows.begin()->size()), static_cast<int>(rows.size()));
  int y = 0;
  for (std::string_view row : rows) {
    for (int x = 0; x < b.width(); ++x) {
      const char c = row[static_cast<std::size_t>(x)];
      b.set(x, y, static_cast<std::uint8_t>(c == '.' ? 0 : c <= '9' ? c - '0' : c - 'a' + 10));
    }
    ++y;
  }
  return b;
}

inline GameSetup preset_setup(std::string_view preset, std::string seed) {
  GameSetup s;
  s.mode = Mode::match3;
  s.preset = preset;
  s.seed = std::move(seed);
  return s;
}

inline GameSetup board_setup(const Board& board, bool refill,
                             std::optional<int> moves = std::nullopt) {
  GameSetup s;
  s.mode = Mode::match3;
  s.seed = "custom";
  s.board = board;
  s.refill = refill;
  s.moves = moves;
  return s;
}

inline std::unique_ptr<Game> make(const GameSetup& setup) {
  CreateResult r = create_game(setup);
  EXPECT_TRUE(r.game) << r.error;
  return std::move(r.game);
}

}  // namespace tilecrush::game::match3_test
