// Basic vocabulary shared by every part of the engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::game {

// Bumped whenever what a seed produces, or what a move does, changes.
// Old games keep their version and must stay replayable: version 1 deals
// every board from its seed alone; version 2 deals a board that has a secret
// key from the key (docs/rules.md, "Rules version 2").
inline constexpr int kRulesVersion = 2;
inline constexpr int kMinRulesVersion = 1;

enum class Mode : std::uint8_t { same, match3, hidden };

std::string_view to_string(Mode mode);
std::optional<Mode> parse_mode(std::string_view text);

struct Point {
  int x = 0;
  int y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

// Why the engine refused a request. A refusal never changes the game.
enum class Status : std::uint8_t {
  ok,
  wrong_mode,    // the request does not exist in this mode (a swap in Same Game)
  invalid_move,  // the rules refuse it (outside the board, group of one, ...)
  not_allowed,   // allowed in general but not now (finished game, undo at start, ...)
};

// A refusal's status with a short English reason for the player.
struct Outcome {
  Status status = Status::ok;
  const char* reason = "";

  bool ok() const { return status == Status::ok; }
  static Outcome success() { return {}; }
  static Outcome refuse(Status s, const char* why) { return {s, why}; }
};

// closed: the game's competition closed while it was running (docs/rules.md):
// like a resignation, it ends at its score then, without a bonus.
enum class OverReason : std::uint8_t { none, no_moves, cleared, out_of_moves, resigned, closed };

std::string_view to_string(OverReason reason);
std::optional<OverReason> parse_over_reason(std::string_view text);

}  // namespace tilecrush::game
