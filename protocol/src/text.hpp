// Text checks shared by the message parser and the HTTP query parser.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::protocol::detail {

struct TextInfo {
  bool valid_utf8 = false;    // well-formed: no overlong form, surrogate or > U+10FFFF
  std::size_t code_points = 0;
  bool has_control = false;   // C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F)
};

TextInfo inspect_text(std::string_view text);

// True when no array/object in `text` nests deeper than `max_depth`. Counts
// brackets outside JSON strings exactly as a JSON lexer delimits strings, so
// up to the first syntax error it agrees with any conforming parser; what
// follows a syntax error is never parsed anyway. O(n), no recursion.
bool nesting_within(std::string_view text, int max_depth);

// Appends `text` as a JSON string literal (quotes included), escaping '"',
// '\\' and control characters below U+0020 the way nlohmann::json::dump does.
// `text` must be valid UTF-8.
void append_json_string(std::string& out, std::string_view text);

}  // namespace tilecrush::protocol::detail
