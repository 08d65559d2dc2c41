#include "tilecrush/game/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace tilecrush::game {
namespace {

// libcrypto fails here only when it cannot allocate: nothing a caller could
// recover from differently, so it is not part of the contract.
[[noreturn]] void crypto_failure(const char* what) {
  throw std::runtime_error(what);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  return out;
}

std::optional<Digest> digest_from_hex(std::string_view hex) {
  Digest out{};
  if (hex.size() != out.size() * 2) return std::nullopt;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

std::string commitment(const BoardSecret& key) {
  return to_hex(sha256(std::span(key)));
}

}  // namespace tilecrush::game
