// SQL text joined from shared pieces at compile time, so that a piece two
// statements (or two backends) share is written once and each statement is
// still one constant, cached and prepared by its text.
//
// Thread safety: constants.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace tilecrush::storage::detail {

// The characters of `Parts` one after the other, as a constant.
template <const std::string_view&... Parts>
inline constexpr auto kJoinedChars = [] {
  std::array<char, (Parts.size() + ...)> chars{};
  auto out = chars.begin();
  ((out = std::copy(Parts.begin(), Parts.end(), out)), ...);
  return chars;
}();
template <const std::string_view&... Parts>
inline constexpr std::string_view kJoined{kJoinedChars<Parts...>.data(),
                                          kJoinedChars<Parts...>.size()};

}  // namespace tilecrush::storage::detail
