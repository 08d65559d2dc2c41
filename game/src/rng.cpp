#include "tilecrush/game/rng.hpp"

#include <algorithm>
#include <span>

namespace tilecrush::game {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

}  // namespace

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& word : s_) word = splitmix64(x);
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) {
    std::uint64_t zero = 0;
    for (auto& word : s_) word = splitmix64(zero);
  }
}

Rng Rng::from_material(std::string_view material) {
  return Rng(fnv1a64(material));
}

Rng Rng::keyed(const Digest& stream_key) {
  Rng rng;
  rng.s_ = {};
  rng.stream_key_ = stream_key;
  rng.keyed_ = true;
  return rng;
}

std::uint64_t Rng::next_keyed() {
  if (used_ == 4) {
    std::array<std::uint8_t, 40> input{};
    std::copy(stream_key_.begin(), stream_key_.end(), input.begin());
    for (int i = 0; i < 8; ++i) input[32 + i] = static_cast<std::uint8_t>(block_ >> (8 * i));
    const Digest block = sha256(std::span<const std::uint8_t>(input));
    for (std::size_t w = 0; w < 4; ++w) {
      std::uint64_t word = 0;
      for (int i = 7; i >= 0; --i) word = (word << 8) | block[w * 8 + static_cast<std::size_t>(i)];
      s_[w] = word;
    }
    ++block_;
    used_ = 0;
  }
  return s_[used_++];
}

std::uint64_t Rng::next() {
  if (keyed_) return next_keyed();
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::bounded(std::uint64_t n) {
  // (2^64 - n) mod n, computed in 64-bit arithmetic as (-n) % n.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = next();
    if (r >= threshold) return r % n;
  }
}

}  // namespace tilecrush::game
