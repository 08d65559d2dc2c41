// Shared by the fuzz targets: a check that stops the run with a message
// (libFuzzer then saves the input as a crash), and a UTF-8 reader written
// independently of the protocol module's so that the two can disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace tilecrush::fuzz {

[[noreturn]] inline void fail(const char* file, int line, const char* what) {
  std::fprintf(stderr, "\n== fuzz invariant broken at %s:%d: %s\n", file, line, what);
  std::abort();
}

#define FUZZ_CHECK(cond, what)                                        \
  do {                                                                \
    if (!(cond)) ::tilecrush::fuzz::fail(__FILE__, __LINE__, (what)); \
  } while (false)

struct Utf8 {
  std::size_t code_points = 0;
  bool control = false;  // C0, DEL or C1
};

// Strict UTF-8 (RFC 3629): nullopt for overlong forms, surrogates, code
// points above U+10FFFF, stray continuation bytes and cut-off sequences.
inline std::optional<Utf8> read_utf8(std::string_view text) {
  Utf8 out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    std::uint32_t min = 0;
    if (b0 < 0x80) {
      len = 1, cp = b0;
    } else if ((b0 & 0xE0) == 0xC0) {
      len = 2, cp = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3, cp = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
      return std::nullopt;
    }
    if (text.size() - i < len) return std::nullopt;
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) out.control = true;
    ++out.code_points;
    i += len;
  }
  return out;
}

}  // namespace tilecrush::fuzz
