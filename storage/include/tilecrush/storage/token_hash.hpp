// How the players table keeps a session token: never the token itself, only
// hex(SHA-256(token)) (SHA-256 from game/crypto.hpp, OpenSSL's libcrypto).
// To check a token, compare hash_token(token) with the stored hash.
//
// Thread safety: a pure function.
#pragma once

#include <string>
#include <string_view>

#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage {

inline std::string hash_token(std::string_view token) {
  return game::to_hex(game::sha256(token));
}

}  // namespace tilecrush::storage
