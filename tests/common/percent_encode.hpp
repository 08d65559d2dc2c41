// Percent-encoding of one path segment or query part, for the clients that
// build request targets (the HTTP fuzzer's round trip, the bench's requests).
// Letters, digits, '-', '_' and the characters of `also_kept` stay as they
// are; every other byte becomes %XX (upper-case hex). The fuzzer keeps '.'
// and '~' encoded, so that no segment it rebuilds reads as a dot segment;
// the bench keeps them, as RFC 3986 allows.
//
// Thread safety: a pure function.
#pragma once

#include <string>
#include <string_view>

namespace tilecrush::testing {

inline std::string percent_encode(std::string_view text, std::string_view also_kept = {}) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || also_kept.find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace tilecrush::testing
