// SHA-256 and HMAC-SHA-256 (OpenSSL's libcrypto) and the hex spelling of
// digests and keys: what rules version 2 derives boards with
// (docs/rules.md, "Rules version 2"), and what storage hashes tokens with.
//
// Pure functions of their arguments: no randomness here (the server draws
// board keys from the operating system), no state.
//
// Thread safety: every function may be called from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tilecrush/game/hex.hpp"

namespace tilecrush::game {

using Digest = std::array<std::uint8_t, 32>;
// A board key: 256 bits, secret until its board closes.
using BoardSecret = std::array<std::uint8_t, 32>;

Digest sha256(std::span<const std::uint8_t> data);
Digest sha256(std::string_view data);
Digest hmac_sha256(std::span<const std::uint8_t> key, std::string_view data);

// Exactly 64 hex digits (either case) -> 32 bytes; nullopt otherwise.
std::optional<Digest> digest_from_hex(std::string_view hex);

// A board key's public commitment: lowercase hex of SHA-256(key).
std::string commitment(const BoardSecret& key);

}  // namespace tilecrush::game
