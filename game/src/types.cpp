#include "tilecrush/game/types.hpp"

namespace tilecrush::game {

std::string_view to_string(Mode mode) {
  switch (mode) {
    case Mode::same:
      return "same";
    case Mode::match3:
      return "match3";
    case Mode::hidden:
      return "hidden";
  }
  return "same";
}

std::optional<Mode> parse_mode(std::string_view text) {
  if (text == "same") return Mode::same;
  if (text == "match3") return Mode::match3;
  if (text == "hidden") return Mode::hidden;
  return std::nullopt;
}

std::string_view to_string(OverReason reason) {
  switch (reason) {
    case OverReason::none:
      return "none";
    case OverReason::no_moves:
      return "no_moves";
    case OverReason::cleared:
      return "cleared";
    case OverReason::out_of_moves:
      return "out_of_moves";
    case OverReason::resigned:
      return "resigned";
    case OverReason::closed:
      return "closed";
  }
  return "none";
}

}  // namespace tilecrush::game
