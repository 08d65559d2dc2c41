// The seeded generator every board and every refill is drawn from.
//
// Algorithm (part of rules version 1; changing any step changes boards):
//   1. The seed material is the string
//        "tilecrush/v1/<mode>/<params>/<seed>"
//      where <params> is the preset name, or "WxHxK" for custom sizes.
//   2. FNV-1a 64 over its UTF-8 bytes gives a 64-bit value h.
//   3. SplitMix64 started at h yields four 64-bit words: the state of
//      xoshiro256** (an all-zero state cannot arise from SplitMix64's output
//      in practice; it is nonetheless replaced by SplitMix64(0)'s words).
//   4. A colour in 1..K is 1 + bounded(K), where bounded(n) draws 64-bit
//      words r until r >= (2^64 - n) mod n and returns r mod n: uniform, no
//      modulo bias; the expected number of draws is below 1 + 2^-59 for n <= 12.
//
// Rules version 2 deals a board that has a secret key (docs/rules.md, "Rules
// version 2") from a keyed stream instead of xoshiro256**, because
// xoshiro's state can be recovered from enough of its output: word j of the
// stream is the little-endian 64-bit word j mod 4 of
// SHA-256(stream_key || LE64(j div 4)). Step 4 is the same for both.
//
// Thread safety: a plain value, like Board.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tilecrush/game/crypto.hpp"

namespace tilecrush::game {

class Rng {
 public:
  using State = std::array<std::uint64_t, 4>;

  Rng() : Rng(0) {}
  // Rules version 1: xoshiro256** seeded through SplitMix64.
  explicit Rng(std::uint64_t seed);
  static Rng from_material(std::string_view material);
  // Rules version 2, keyed boards: the SHA-256 counter stream of stream_key.
  static Rng keyed(const Digest& stream_key);

  std::uint64_t next();
  // Uniform in [0, n); requires n >= 1.
  std::uint64_t bounded(std::uint64_t n);
  // Uniform colour in 1..k; requires k >= 1.
  std::uint8_t color(int k) {
    return static_cast<std::uint8_t>(1 + bounded(static_cast<std::uint64_t>(k)));
  }

  // xoshiro256**'s four words (version 1), for tests of the algorithm;
  // restore() turns any generator into that xoshiro state. Copy an Rng to
  // save and restore it whole.
  const State& state() const { return s_; }
  void restore(const State& s) {
    *this = Rng();
    s_ = s;
  }

  friend bool operator==(const Rng&, const Rng&) = default;

 private:
  std::uint64_t next_keyed();

  // xoshiro256**'s state; for a keyed stream, the words of the last block.
  State s_{};
  Digest stream_key_{};
  std::uint64_t block_ = 0;  // keyed: the index of the next block
  std::uint8_t used_ = 4;    // keyed: words of s_ already returned
  bool keyed_ = false;
};

// FNV-1a 64-bit (offset 0xcbf29ce484222325, prime 0x100000001b3).
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL);

}  // namespace tilecrush::game
