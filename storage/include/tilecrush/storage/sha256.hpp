// SHA-256 (FIPS 180-4), used to store session tokens as digests only.
//
// Thread safety: the free functions are pure and may be called from any
// thread; a Sha256 object is a plain value used by one thread at a time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilecrush::storage {

using Sha256Digest = std::array<std::uint8_t, 32>;

// Incremental hashing: update() any number of times, then finish() once.
class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  // The digest of everything given to update(). The object must not be used
  // afterwards except to be destroyed or assigned.
  Sha256Digest finish();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;  // bytes hashed so far
};

Sha256Digest sha256(std::string_view data);

// 64 lowercase hexadecimal digits.
std::string to_hex(const Sha256Digest& digest);

// What the players table keeps instead of a session token: hex(sha256(token)).
// To check a token, compare hash_token(token) with the stored hash.
std::string hash_token(std::string_view token);

}  // namespace tilecrush::storage
