// rng.hpp's documented generator written out a second time, from the
// documentation only, so that tests can check the engine against it: a
// deliberate twin of game/src/rng.cpp's unkeyed Rng (next, bounded), which
// must never share its code. rng_hash_test.cpp's Rng.MatchesTheDocumentedAlgorithm
// and Rng.BoundedRejectsBelowTheThresholdAndReducesModN, and golden_test.cpp's
// Golden.UniformDealsAsDocumented, hold the two equal.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace tilecrush::game::test {

struct RefRng {
  std::array<std::uint64_t, 4> s;

  static std::uint64_t splitmix(std::uint64_t& x) {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static std::uint64_t rotl(std::uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }
  static std::uint64_t fnv(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
    return h;
  }

  explicit RefRng(std::uint64_t seed) {
    for (auto& w : s) w = splitmix(seed);
  }
  // Step 1-3: "tilecrush/v1/<mode>/<params>/<seed>" -> FNV-1a -> SplitMix64.
  static RefRng from_material(std::string_view material) { return RefRng(fnv(material)); }

  std::uint64_t next() {
    const std::uint64_t out = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
  }
  // Step 4: reject words below (2^64 - n) mod n, then reduce.
  std::uint64_t bounded(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    std::uint64_t r = next();
    while (r < threshold) r = next();
    return r % n;
  }
};

}  // namespace tilecrush::game::test
