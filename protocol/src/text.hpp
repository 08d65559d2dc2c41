// Text checks shared by the message parser and the HTTP query parser.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecrush::protocol::detail {

struct TextInfo {
  bool valid_utf8 = false;  // well-formed: no overlong form, surrogate or > U+10FFFF
  std::size_t code_points = 0;
  bool has_control = false;  // C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F)
};

TextInfo inspect_text(std::string_view text);

// True when no array/object in `text` nests deeper than `max_depth`. Counts
// brackets outside JSON strings exactly as a JSON lexer delimits strings, so
// up to the first syntax error it agrees with any conforming parser; what
// follows a syntax error is never parsed anyway. O(n), no recursion.
bool nesting_within(std::string_view text, int max_depth);

// The numbers of `text` that no double can hold (beyond about ±1.8e308:
// `1e999`, an integer of 400 digits), which make nlohmann's parser refuse the
// whole text. Numbers are lexed outside strings the way nesting_within does;
// `ordinals` gets the position of each such number among all the numbers of
// the text (0 for the first), and `patched` the text with each of them
// replaced by `0`. When the text is valid JSON but for those numbers, the
// patched text is valid JSON with the same numbers in the same order. A
// number too small for a double (`1e-999`) is no such number: it reads as 0.
struct OverflowingNumbers {
  std::vector<std::size_t> ordinals;
  std::string patched;
};
OverflowingNumbers find_overflowing_numbers(std::string_view text);

// Appends `text` as a JSON string literal (quotes included), escaping '"',
// '\\' and control characters below U+0020 the way nlohmann::json::dump does.
// `text` must be valid UTF-8. A speed twin of dump()'s string writer for the
// *_text() writers (events.hpp); Events.TextEqualsBuilderByteForByte
// (tests/protocol/events_test.cpp, an id with quotes, backslashes and
// control characters) and `fuzz_engine` hold it equal to dump().
void append_json_string(std::string& out, std::string_view text);

}  // namespace tilecrush::protocol::detail
