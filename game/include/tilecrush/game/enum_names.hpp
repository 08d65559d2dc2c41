// An enum's names as one table each, written once and read both ways: the
// to_string/parse functions of every module (game, protocol, storage) look
// their texts up in such a table instead of each spelling a switch and a
// chain of comparisons.
//
//   constexpr EnumName<Mode> kModeNames[] = {{Mode::same, "same"}, ...};
//   name_of(kModeNames, mode, "same");   // "same" for a value not listed
//   value_named(kModeNames, "match3");   // Mode::match3, nullopt if unknown
//
// A table lists each value once; a value missing from it answers the
// fallback, so keep the tables beside the enums' round-trip tests.
//
// Thread safety: constexpr functions over constant tables.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace tilecrush::game {

template <class Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

// The name `table` gives `value`; `fallback` for a value it does not list
// (an out-of-range cast: every declared value is listed).
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumName<Enum> (&table)[N], Enum value,
                                   std::string_view fallback) {
  for (const EnumName<Enum>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return fallback;
}

// The value `table` names `name` (exact, case-sensitive); nullopt if none.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumName<Enum> (&table)[N], std::string_view name) {
  for (const EnumName<Enum>& entry : table) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

}  // namespace tilecrush::game
