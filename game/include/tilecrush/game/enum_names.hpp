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
// Thread safety: constexpr functions over constant lists.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace tilecrush::game {

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
