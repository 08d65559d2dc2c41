// What a name shown to other people (a player's, a competition's) may not
// be, beyond its length and control characters (docs/protocol.md, "Fields"):
// made only of spaces and invisible characters (it would show as nothing),
// or holding an invisible character that changes nothing on screen but
// makes a second, look-alike name ("Kim" and "Kim" with a zero-width space).
//
// Thread safety: a free function over a value.
#pragma once

#include <string_view>

namespace tilecrush::protocol {

enum class NameProblem {
  none,
  // Only white space (U+0020, U+00A0, U+3000, ...) and invisible characters.
  nothing_visible,
  // A character of the refused invisible ones: soft hyphen U+00AD, U+034F,
  // U+061C, Hangul fillers U+115F, U+1160, U+3164, U+FFA0, U+17B4, U+17B5,
  // U+180E, zero-width space U+200B, direction marks and embeddings
  // U+200E, U+200F, U+202A-U+202E, word joiner and invisible operators
  // U+2060-U+2064, isolates and deprecated format characters
  // U+2066-U+206F, byte order mark U+FEFF. The joiners U+200C and U+200D,
  // variation selectors and tags stay allowed: scripts and emoji need them.
  invisible_character,
};

// `text` must be valid UTF-8 (checked before: a malformed sequence ends the
// scan and counts as nothing visible).
NameProblem name_problem(std::string_view text);

// The 400 / bad_request message for a problem, starting with `field`:
// "name must show at least one visible character",
// "name must not contain invisible characters". Empty for none.
std::string_view name_problem_message(NameProblem problem);

}  // namespace tilecrush::protocol
