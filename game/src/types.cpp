#include "tilecrush/game/types.hpp"

namespace tilecrush::game {
namespace {

constexpr EnumNames kModeNames(Mode::hidden, {"same", "match3", "hidden"});
constexpr EnumNames kOverReasonNames(OverReason::closed, {"none", "no_moves", "cleared",
                                                          "out_of_moves", "resigned", "closed"});

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
