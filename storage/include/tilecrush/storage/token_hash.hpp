// How the players table keeps a session token: never the token itself, only
// hex(SHA-256(token)) (SHA-256 from game/crypto.hpp, OpenSSL's libcrypto).
// To check a token, compare hash_token(token) with the stored hash.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage {

inline std::string hash_token(std::string_view token) {
  return game::to_hex(game::sha256(token));
}

// Compares two hashes without an early exit, so that the time taken tells
// nothing of where they differ.
inline bool same_hash(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace tilecrush::storage
