// How the players table keeps a session token: never the token itself, only
// hex(SHA-256(token)) (SHA-256 from game/crypto.hpp, OpenSSL's libcrypto).
// To check a token, compare hash_token(token) with the stored hash by
// same_hash(). Recovery codes and device tokens are kept the same way.
//
// Thread safety: pure functions.
#pragma once

#include <openssl/crypto.h>

#include <string>
#include <string_view>

#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage {

inline std::string hash_token(std::string_view token) {
  return game::to_hex(game::sha256(token));
}

// Whether two hashes are equal, in time that depends only on their length
// (OpenSSL's CRYPTO_memcmp): a stored hash never leaks through timing.
inline bool same_hash(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace tilecrush::storage
