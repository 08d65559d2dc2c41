#include "tilecrush/game/types.hpp"

#include "tilecrush/game/enum_names.hpp"

namespace tilecrush::game {
namespace {

constexpr EnumName<Mode> kModeNames[] = {
    {Mode::same, "same"}, {Mode::match3, "match3"}, {Mode::hidden, "hidden"}};

constexpr EnumName<OverReason> kOverReasonNames[] = {
    {OverReason::none, "none"},         {OverReason::no_moves, "no_moves"},
    {OverReason::cleared, "cleared"},   {OverReason::out_of_moves, "out_of_moves"},
    {OverReason::resigned, "resigned"}, {OverReason::closed, "closed"}};

}  // namespace

std::string_view to_string(Mode mode) {
  return name_of(kModeNames, mode, "same");
}

std::optional<Mode> parse_mode(std::string_view text) {
  return value_named(kModeNames, text);
}

std::string_view to_string(OverReason reason) {
  return name_of(kOverReasonNames, reason, "none");
}

std::optional<OverReason> parse_over_reason(std::string_view text) {
  return value_named(kOverReasonNames, text);
}

}  // namespace tilecrush::game
