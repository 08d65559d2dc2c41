#include "tilecrush/game/presets.hpp"

#include <array>

namespace tilecrush::game {
namespace {

constexpr std::array<Preset, 4> kSame{{
    {"easy", 10, 10, 3, std::nullopt, false},
    {"normal", 15, 12, 4, std::nullopt, false},
    {"hard", 20, 15, 5, std::nullopt, false},
    {"classic", 15, 15, 5, std::nullopt, false},
}};
constexpr std::array<Preset, 3> kMatch3{{
    {"classic", 8, 8, 6, 30, true},
    {"big", 10, 10, 7, 40, true},
    {"crush", 9, 9, 5, std::nullopt, false},
}};
constexpr std::array<Preset, 2> kHidden{{
    {"classic", 10, 10, 3, std::nullopt, false},
    {"large", 15, 12, 4, std::nullopt, false},
}};

}  // namespace

std::span<const Preset> presets(Mode mode) {
  switch (mode) {
    case Mode::same:
      return kSame;
    case Mode::match3:
      return kMatch3;
    case Mode::hidden:
      return kHidden;
  }
  return {};
}

const Preset* find_preset(Mode mode, std::string_view name) {
  for (const Preset& p : presets(mode)) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

CustomLimits custom_limits(Mode mode) {
  switch (mode) {
    case Mode::match3:
      return {3, 32, 3, 12, 12};
    case Mode::same:
    case Mode::hidden:
      return {2, 40, 2, 10, 10};
  }
  return {2, 40, 2, 10, 10};
}

}  // namespace tilecrush::game
