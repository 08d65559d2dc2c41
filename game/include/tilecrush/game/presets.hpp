// The preset tables of rules.md and the limits of custom games.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "tilecrush/game/types.hpp"

namespace tilecrush::game {

struct Preset {
  std::string_view name;
  int width;
  int height;
  int colors;
  std::optional<int> moves;  // match-3 move budget; nullopt: no limit
  bool refill;               // match-3: false only for `crush`
};

struct CustomLimits {
  int min_side, max_side;
  int min_colors, max_colors;
  int max_cell;  // highest colour a custom board may hold
};

std::span<const Preset> presets(Mode mode);
const Preset* find_preset(Mode mode, std::string_view name);
CustomLimits custom_limits(Mode mode);

inline constexpr int kMinMoveBudget = 1;
inline constexpr int kMaxMoveBudget = 1000;

}  // namespace tilecrush::game
