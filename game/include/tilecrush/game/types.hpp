// Basic vocabulary shared by every part of the engine.
#pragma once

#include <array>
#include <cstddef>
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

// An enum's names as one list each, written once and read both ways: the
// to_string/parse functions of every module (game, protocol, storage) look
// their texts up in such a list instead of each spelling a switch and a
// chain of comparisons.
//
//   constexpr EnumNames kModeNames(Mode::hidden, {"same", "match3", "hidden"});
//   name_of(kModeNames, mode, "same");   // "same" for a value not listed
//   value_named(kModeNames, "match3");   // Mode::match3, nullopt if unknown
//
// The names are in the enum's declaration order: the i-th is value i's, so
// the enum's values must be 0, 1, 2, ... (no explicit numbers) and a new
// value goes at the end of both. The enum's last value is given with the
// list: a list with a name too few or too many does not compile.
//
// Thread safety: constexpr functions over constant lists. It lives here,
// with the engine's vocabulary, because every module already includes it.
template <class Enum, std::size_t N>
struct EnumNames {
  consteval EnumNames(Enum last, const std::string_view (&list)[N]) {
    // Not a constant expression, so a call that reaches it fails to compile.
    if (static_cast<std::size_t>(last) + 1 != N) throw "one name for each value up to `last`";
    for (std::size_t i = 0; i < N; ++i) names[i] = list[i];
  }

  std::array<std::string_view, N> names{};
};

// The name `table` gives `value`; `fallback` for a value past its list (an
// out-of-range cast: every declared value is listed).
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& table, Enum value,
                                   std::string_view fallback) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? table.names[i] : fallback;
}

// The value `table` names `name` (exact, case-sensitive); nullopt if none.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumNames<Enum, N>& table, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (table.names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace tilecrush::game
