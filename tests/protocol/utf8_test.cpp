// valid_utf8 (tilecrush/protocol/utf8.hpp): every code point's encoding,
// every two-byte string, and the ill-formed sequences of RFC 3629 at every
// offset around the eight-byte ASCII steps.
#include "tilecrush/protocol/utf8.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tilecrush::protocol {
namespace {

std::string encode(std::uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return out;
}

TEST(ValidUtf8, EveryCodePoint) {
  for (std::uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    ASSERT_EQ(valid_utf8(encode(cp)), !surrogate) << std::hex << cp;
  }
}

TEST(ValidUtf8, EveryTwoByteString) {
  for (unsigned a = 0; a < 256; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      const char bytes[2] = {static_cast<char>(a), static_cast<char>(b)};
      const bool expected =
          (a < 0x80 && b < 0x80) || (a >= 0xC2 && a <= 0xDF && b >= 0x80 && b < 0xC0);
      ASSERT_EQ(valid_utf8(std::string_view(bytes, 2)), expected) << a << " " << b;
    }
  }
}

TEST(ValidUtf8, IllFormedAtEveryOffset) {
  const std::string_view bad[] = {
      "\x80",              // stray continuation
      "\xBF",              //
      "\xC0\xAF",          // overlong '/'
      "\xC1\xBF",          // overlong
      "\xE0\x80\xAF",      // overlong three-byte
      "\xE0\x9F\xBF",      // overlong U+07FF
      "\xF0\x8F\xBF\xBF",  // overlong U+FFFF
      "\xED\xA0\x80",      // U+D800
      "\xED\xBF\xBF",      // U+DFFF
      "\xF4\x90\x80\x80",  // U+110000
      "\xF5\x80\x80\x80",  // F5 lead
      "\xFF",              //
      "\xFE",              //
      "\xC3",              // cut off
      "\xE2\x82",          // cut off
      "\xF0\x9F\x98",      // cut off
      "\xE2\x28\xA1",      // a continuation missing
  };
  const std::string_view good[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                   "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBF"};
  for (std::size_t before = 0; before <= 17; ++before) {
    for (const std::size_t after : {std::size_t{0}, std::size_t{1}, std::size_t{9}}) {
      const std::string head(before, 'a');
      const std::string tail(after, 'z');
      for (const std::string_view b : bad) {
        EXPECT_FALSE(valid_utf8(head + std::string(b) + tail)) << before << " " << after;
      }
      for (const std::string_view g : good) {
        EXPECT_TRUE(valid_utf8(head + std::string(g) + tail)) << before << " " << after;
      }
    }
  }
}

TEST(ValidUtf8, AsciiAndEmpty) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8(std::string_view("\0", 1)));
  std::string text(1000, 'x');
  text[999] = '\x7F';
  EXPECT_TRUE(valid_utf8(text));
  text[999] = '\x80';
  EXPECT_FALSE(valid_utf8(text));
  text[999] = 'x';
  text[500] = '\xFF';
  EXPECT_FALSE(valid_utf8(text));
}

}  // namespace
}  // namespace tilecrush::protocol
