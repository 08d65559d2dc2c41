// Hex digits, the one spelling of bytes as text in the whole tree: digests,
// keys and commitments (crypto.hpp), URL escapes (protocol's percent
// decoding) and PostgreSQL's bytea.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tilecrush::game {

// The value of one hex digit (either case), or -1 when `c` is none.
constexpr int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Lowercase hex, two digits per byte.
std::string to_hex(std::span<const std::uint8_t> bytes);
// Two hex digits (either case) per byte; nullopt for an odd length or a
// character that is not a hex digit.
std::optional<std::vector<std::uint8_t>> bytes_from_hex(std::string_view hex);

}  // namespace tilecrush::game
