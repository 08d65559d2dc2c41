// docs/rules.md's "Generator version 1" and bounded(n), read a second time
// from the documentation alone and written in its terms (the state words
// s0..s3, each step as the document spells it, std::rotl, and the
// threshold taken as 2^64 mod n), so that tests can check the engine
// against the document rather than against itself: a deliberate
// independent twin of game/src/rng.cpp's unkeyed Rng (state, next,
// bounded), which must never share its code. rng_hash_test.cpp's
// Rng.MatchesTheDocumentedAlgorithm and
// Rng.BoundedRejectsBelowTheThresholdAndReducesModN, and golden_test.cpp's
// Golden.UniformDealsAsDocumented, hold the two equal.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

namespace tilecrush::game::test {

class RefRng {
 public:
  // Step 3: SplitMix64 from x = seed; its first four outputs are s0..s3,
  // unless all four are 0, when SplitMix64 from x = 0 gives them instead.
  explicit RefRng(std::uint64_t seed) {
    SplitMix64 from_seed{seed};
    set_state(from_seed);
    if ((s0_ | s1_ | s2_ | s3_) == 0) {
      SplitMix64 from_zero{0};
      set_state(from_zero);
    }
  }

  // Steps 1-2: the material's bytes through FNV-1a 64 give the seed.
  static RefRng from_material(std::string_view material) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char byte : material) h = (h ^ static_cast<unsigned char>(byte)) * 0x100000001b3ULL;
    return RefRng(h);
  }

  std::array<std::uint64_t, 4> state() const { return {s0_, s1_, s2_, s3_}; }

  // Step 4, xoshiro256**: the word comes from the state before it moves on.
  std::uint64_t next() {
    const std::uint64_t word = std::rotl(s1_ * 5, 7) * 9;
    const std::uint64_t t = s1_ << 17;
    s2_ = s2_ ^ s0_;
    s3_ = s3_ ^ s1_;
    s1_ = s1_ ^ s2_;
    s0_ = s0_ ^ s3_;
    s2_ = s2_ ^ t;
    s3_ = std::rotl(s3_, 45);
    return word;
  }

  // bounded(n): threshold = (2^64 - n) mod n, which is 2^64 mod n, taken
  // here as ((2^64 - 1) mod n + 1) mod n; words below it are drawn again.
  std::uint64_t bounded(std::uint64_t n) {
    const std::uint64_t threshold = (std::numeric_limits<std::uint64_t>::max() % n + 1) % n;
    std::uint64_t r = next();
    while (r < threshold) r = next();
    return r % n;
  }

 private:
  struct SplitMix64 {
    std::uint64_t x;
    std::uint64_t operator()() {
      x = x + 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = x;
      for (const auto& [shift, factor] :
           {std::pair{30, 0xbf58476d1ce4e5b9ULL}, std::pair{27, 0x94d049bb133111ebULL}})
        z = (z ^ (z >> shift)) * factor;
      return z ^ (z >> 31);
    }
  };

  void set_state(SplitMix64& outputs) {
    s0_ = outputs();
    s1_ = outputs();
    s2_ = outputs();
    s3_ = outputs();
  }

  std::uint64_t s0_ = 0, s1_ = 0, s2_ = 0, s3_ = 0;
};

}  // namespace tilecrush::game::test
