#include "text.hpp"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "tilecrush/protocol/names.hpp"
#include "tilecrush/protocol/utf8.hpp"

namespace tilecrush::protocol {
namespace {

// The one UTF-8 decoder of the module: reads the sequence starting at `p`
// (p < end) into `cp` and returns its length (1-4), or 0 when it is not
// well-formed (RFC 3629: stray continuation byte, cut-off sequence,
// overlong form, surrogate, beyond U+10FFFF).
inline int decode_utf8(const unsigned char* p, const unsigned char* end, std::uint32_t& cp) {
  const unsigned char lead = *p;
  int extra = 0;
  if (lead < 0x80) {
    cp = lead;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    cp = lead & 0x1Fu;
    extra = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    cp = lead & 0x0Fu;
    extra = 2;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    cp = lead & 0x07u;
    extra = 3;
  } else {
    return 0;  // continuation byte, overlong C0/C1 lead, or F5..FF
  }
  if (end - p <= extra) return 0;
  for (int i = 1; i <= extra; ++i) {
    const unsigned char c = p[i];
    if ((c & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (c & 0x3Fu);
  }
  // Overlong three- and four-byte forms, surrogates, beyond U+10FFFF.
  if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return extra + 1;
}

}  // namespace

bool valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  constexpr std::uint64_t kHighBits = 0x8080808080808080u;
  while (p < end) {
    // Most text is ASCII JSON: skip it a word at a time.
    while (end - p >= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, sizeof word);
      if ((word & kHighBits) != 0) break;
      p += 8;
    }
    if (p == end) break;
    if (*p < 0x80) {
      ++p;
      continue;
    }
    std::uint32_t cp = 0;
    const int length = decode_utf8(p, end, cp);
    if (length == 0) return false;
    p += length;
  }
  return true;
}

namespace {

// names.hpp's refused invisible characters.
bool refused_invisible(std::uint32_t cp) {
  return cp == 0x00AD || cp == 0x034F || cp == 0x061C || cp == 0x115F || cp == 0x1160 ||
         cp == 0x17B4 || cp == 0x17B5 || cp == 0x180E || cp == 0x200B || cp == 0x200E ||
         cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) ||
         (cp >= 0x2066 && cp <= 0x206F) || cp == 0x3164 || cp == 0xFEFF || cp == 0xFFA0;
}

// Shows nothing by itself: Unicode's White_Space, the braille blank, and
// the invisible characters a name may hold (joiners, variation selectors,
// tags) or may not.
bool shows_nothing(std::uint32_t cp) {
  return cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200D) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x2800 || cp == 0x3000 || (cp >= 0xFE00 && cp <= 0xFE0F) ||
         (cp >= 0xE0000 && cp <= 0xE0FFF) || refused_invisible(cp);
}

}  // namespace

NameProblem name_problem(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  bool visible = false;
  while (p < end) {
    std::uint32_t cp = 0;
    const int length = decode_utf8(p, end, cp);
    if (length == 0) break;
    if (refused_invisible(cp)) return NameProblem::invisible_character;
    if (!shows_nothing(cp)) visible = true;
    p += length;
  }
  return visible ? NameProblem::none : NameProblem::nothing_visible;
}

std::string_view name_problem_message(NameProblem problem) {
  switch (problem) {
    case NameProblem::nothing_visible:
      return "name must show at least one visible character";
    case NameProblem::invisible_character:
      return "name must not contain invisible characters";
    case NameProblem::none:
      break;
  }
  return {};
}

namespace detail {

TextInfo inspect_text(std::string_view text) {
  TextInfo info;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    std::uint32_t cp = 0;
    const int length = decode_utf8(p, end, cp);
    if (length == 0) return info;
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) info.has_control = true;
    ++info.code_points;
    p += length;
  }
  info.valid_utf8 = true;
  return info;
}

namespace {

// Follows a JSON text one character at a time and tells whether each is
// part of a string (quotes and escapes included): the scanners below look
// only at what is outside strings.
class StringTracker {
 public:
  bool inside(char c) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      return true;
    }
    if (c == '"') in_string_ = true;
    return in_string_;
  }

 private:
  bool in_string_ = false;
  bool escaped_ = false;
};

}  // namespace

bool nesting_within(std::string_view text, int max_depth) {
  int depth = 0;
  StringTracker strings;
  for (const char c : text) {
    if (strings.inside(c)) continue;
    switch (c) {
      case '[':
      case '{':
        if (++depth > max_depth) return false;
        break;
      case ']':
      case '}':
        // An unbalanced closer is a syntax error the parser reports itself.
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return true;
}

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The characters a JSON number token is made of.
bool is_number_char(char c) {
  return is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < n && is_digit(s[i])) ++i;
    return i > start;
  };
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

// Below 10^300 without an exponent, a number always fits a double.
constexpr std::size_t kAlwaysFits = 300;

bool overflows(std::string_view token) {
  if (token.size() <= kAlwaysFits && token.find_first_of("eE") == std::string_view::npos) {
    return false;
  }
  // Alone, a well-formed number is refused only for overflow: nlohmann's own
  // verdict, so that this agrees with the parse exactly.
  return is_json_number(token) && !nlohmann::json::accept(token);
}

}  // namespace

OverflowingNumbers find_overflowing_numbers(std::string_view text) {
  OverflowingNumbers out;
  std::size_t ordinal = 0;
  std::size_t copied = 0;  // text before this offset is in out.patched
  StringTracker strings;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (strings.inside(c) || (c != '-' && !is_digit(c))) {
      ++i;
      continue;
    }
    // In valid JSON, a number is followed by whitespace, ',', ']' or '}':
    // the longest run of number characters is exactly one number token.
    std::size_t end = i;
    while (end < text.size() && is_number_char(text[end])) ++end;
    if (overflows(text.substr(i, end - i))) {
      out.ordinals.push_back(ordinal);
      out.patched.append(text.substr(copied, i - copied));
      out.patched.push_back('0');
      copied = end;
    }
    ++ordinal;
    i = end;
  }
  if (!out.ordinals.empty()) out.patched.append(text.substr(copied));
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
}

}  // namespace detail
}  // namespace tilecrush::protocol
