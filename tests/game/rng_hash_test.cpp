// The documented generator (rng.hpp) and protocol.md's state_hash, checked
// against published vectors and against straightforward reimplementations.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "game_test_util.hpp"
#include "reference_rng.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/rng.hpp"

namespace tilecrush::game {
namespace {

// FNV-1a 64 over a byte list, written out once more for the tests.
std::uint64_t fnv_bytes(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 14695981039346656037ULL;  // 0xcbf29ce484222325
  for (std::uint8_t b : bytes) {
    h = h ^ b;
    h = h * 1099511628211ULL;  // 0x100000001b3
  }
  return h;
}

void append_le64(std::vector<std::uint8_t>& bytes, std::int64_t value) {
  std::uint64_t v = static_cast<std::uint64_t>(value);
  for (int i = 0; i < 8; ++i) {
    bytes.push_back(static_cast<std::uint8_t>(v % 256));
    v /= 256;
  }
}

TEST(Fnv1a64, KnownVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(fnv1a64("bar", fnv1a64("foo")), fnv1a64("foobar"));
  const std::string with_zero("a\0b\xff", 4);
  EXPECT_EQ(fnv1a64(with_zero), fnv_bytes({'a', 0, 'b', 0xff}));
}

TEST(StateHash, TinyExampleByHand) {
  // A 2 x 2 view: colour 1, empty, hidden, colour 2; 3 moves; score -5.
  const std::vector<int> visible = {1, 0, -1, 2};
  std::vector<std::uint8_t> bytes = {1, 0, 255, 2};
  append_le64(bytes, 3);
  append_le64(bytes, -5);
  ASSERT_EQ(bytes.size(), 20u);
  EXPECT_EQ(bytes[12], 0xfb);  // -5 little-endian starts with 0xfb, then 0xff x 7
  EXPECT_EQ(state_hash(visible, 3, -5), fnv_bytes(bytes));
  EXPECT_EQ(state_hash(visible, 3, -5), 0x7386a9b0a5ec5d56ULL);
  EXPECT_NE(state_hash(visible, 3, 5), state_hash(visible, 3, -5));
  EXPECT_NE(state_hash({0, 1, -1, 2}, 3, -5), state_hash(visible, 3, -5));
  EXPECT_EQ(state_hash({}, 0, 0), fnv_bytes(std::vector<std::uint8_t>(16, 0)));
}

TEST(StateHash, GameHashIsTheHashOfWhatThePlayerSees) {
  auto game = create_game(test::same_setup("easy", "hash")).game;
  ASSERT_TRUE(game);
  EventList events;
  ASSERT_TRUE(game->apply(game->legal_moves().front(), events).ok());
  std::vector<std::uint8_t> bytes(game->board().cells().begin(), game->board().cells().end());
  append_le64(bytes, game->move_count());
  append_le64(bytes, game->score());
  EXPECT_EQ(game->state_hash(), fnv_bytes(bytes));
}

TEST(HashHex, SixteenLowercaseDigits) {
  EXPECT_EQ(hash_hex(0), "0000000000000000");
  EXPECT_EQ(hash_hex(0xcbf29ce484222325ULL), "cbf29ce484222325");
  EXPECT_EQ(hash_hex(0x0123456789abcdefULL), "0123456789abcdef");
  EXPECT_EQ(hash_hex(0xf), "000000000000000f");
  EXPECT_EQ(hash_hex(std::numeric_limits<std::uint64_t>::max()), "ffffffffffffffff");
}

TEST(Rng, SplitMixSeedsTheState) {
  // SplitMix64 from 0: the published first four outputs.
  const Rng::State expected = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL,
                               0xf88bb8a8724c81ecULL};
  EXPECT_EQ(Rng(0).state(), expected);
  EXPECT_EQ(Rng().state(), expected);
}

TEST(Rng, XoshiroKnownSequence) {
  Rng rng;
  rng.restore({1, 2, 3, 4});
  const std::uint64_t expected[] = {11520ULL,
                                    0ULL,
                                    1509978240ULL,
                                    1215971899390074240ULL,
                                    1216172134540287360ULL,
                                    607988272756665600ULL};
  for (std::uint64_t e : expected) EXPECT_EQ(rng.next(), e);
}

TEST(Rng, MatchesTheDocumentedAlgorithm) {
  for (const char* material :
       {"tilecrush/v1/same/easy/x", "tilecrush/v1/same/7x9x6/2026-01-01", ""}) {
    Rng rng = Rng::from_material(material);
    EXPECT_EQ(rng, Rng(fnv1a64(material)));
    test::RefRng ref = test::RefRng::from_material(material);
    EXPECT_EQ(rng.state(), ref.state());
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(rng.next(), ref.next()) << material << " #" << i;
  }
}

TEST(Rng, BoundedRejectsBelowTheThresholdAndReducesModN) {
  const std::uint64_t big = (1ULL << 63) + 1;  // threshold 2^63 - 1: about half the words rejected
  const std::uint64_t sizes[] = {1, 2, 3, 5, 7, 12, 1000003, big, ~std::uint64_t{0}};
  for (const std::uint64_t n : sizes) {
    Rng rng(n * 31 + 7);
    test::RefRng ref(n * 31 + 7);
    test::RefRng documented(n * 31 + 7);  // its own bounded(), threshold 2^64 mod n
    const std::uint64_t threshold = (0 - n) % n;
    for (int i = 0; i < 2000; ++i) {
      std::uint64_t r = ref.next();
      while (r < threshold) r = ref.next();
      const std::uint64_t got = rng.bounded(n);
      ASSERT_LT(got, n);
      ASSERT_EQ(got, r % n) << "n=" << n << " #" << i;
      ASSERT_EQ(got, documented.bounded(n)) << "n=" << n << " #" << i;
    }
  }
}

TEST(Rng, ColorIsOnePlusBounded) {
  Rng a(99), b(99);
  for (int i = 0; i < 1000; ++i) {
    const int k = 2 + i % 11;
    ASSERT_EQ(a.color(k), 1 + b.bounded(static_cast<std::uint64_t>(k)));
  }
}

TEST(Rng, IsDeterministicAndRestorable) {
  Rng a = Rng::from_material("same seed");
  Rng b = Rng::from_material("same seed");
  Rng c = Rng::from_material("other seed");
  std::vector<std::uint64_t> first;
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t v = a.bounded(7);
    first.push_back(v);
    ASSERT_EQ(v, b.bounded(7));
    differs = differs || c.bounded(7) != v;
  }
  EXPECT_TRUE(differs);
  const Rng::State saved = a.state();
  const std::uint64_t x = a.next(), y = a.next();
  a.restore(saved);
  EXPECT_EQ(a.next(), x);
  EXPECT_EQ(a.next(), y);
}

TEST(Rng, BoundedIsRoughlyUniform) {
  // Chi-square against the uniform law. The generator is seeded, so this is
  // deterministic; the bounds (about p = 1e-6 for the degrees of freedom)
  // only catch a broken reduction, not bad luck.
  struct Case {
    std::uint64_t n;
    double bound;
  };
  for (const Case c :
       {Case{2, 24.0}, Case{3, 28.0}, Case{5, 33.0}, Case{7, 36.0}, Case{12, 44.0}}) {
    Rng rng = Rng::from_material("chi-square/" + std::to_string(c.n));
    constexpr int kDraws = 240000;
    std::vector<int> counts(c.n, 0);
    for (int i = 0; i < kDraws; ++i) ++counts[rng.bounded(c.n)];
    const double expected = static_cast<double>(kDraws) / static_cast<double>(c.n);
    double chi2 = 0;
    for (int count : counts) chi2 += (count - expected) * (count - expected) / expected;
    EXPECT_LT(chi2, c.bound) << "n=" << c.n;
  }
}

}  // namespace
}  // namespace tilecrush::game
