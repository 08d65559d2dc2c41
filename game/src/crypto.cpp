#include "tilecrush/game/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <stdexcept>

namespace tilecrush::game {
namespace {

// libcrypto fails here only when it cannot allocate: nothing a caller could
// recover from differently, so it is not part of the contract.
[[noreturn]] void crypto_failure(const char* what) {
  throw std::runtime_error(what);
}

}  // namespace

Digest sha256(std::span<const std::uint8_t> data) {
  Digest out{};
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), out.data(), &length, EVP_sha256(), nullptr) != 1 ||
      length != out.size()) {
    crypto_failure("SHA-256 failed");
  }
  return out;
}

Digest sha256(std::string_view data) {
  return sha256(std::span(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
}

Digest hmac_sha256(std::span<const std::uint8_t> key, std::string_view data) {
  Digest out{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
           &length) == nullptr ||
      length != out.size()) {
    crypto_failure("HMAC-SHA-256 failed");
  }
  return out;
}

std::optional<Digest> digest_from_hex(std::string_view hex) {
  Digest out{};
  if (hex.size() != out.size() * 2) return std::nullopt;
  const auto bytes = bytes_from_hex(hex);
  if (!bytes) return std::nullopt;
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

std::string commitment(const BoardSecret& key) {
  return to_hex(sha256(std::span(key)));
}

}  // namespace tilecrush::game
