#include <gtest/gtest.h>

#include <string>

#include "tilecrush/storage/sha256.hpp"

namespace tilecrush::storage {
namespace {

TEST(Sha256, FipsVectorAbc) {
  EXPECT_EQ(to_hex(sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, EmptyString) {
  EXPECT_EQ(to_hex(sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, TwoBlockMessage) {
  // 56 bytes: the padding no longer fits in the first block.
  EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FipsLongVector) {
  EXPECT_EQ(to_hex(sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                          "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, MillionAsInUnevenPieces) {
  Sha256 hasher;
  const std::string piece(997, 'a');
  std::size_t left = 1'000'000;
  while (left > 0) {
    const std::size_t n = std::min(left, piece.size());
    hasher.update(std::string_view(piece).substr(0, n));
    left -= n;
  }
  EXPECT_EQ(to_hex(hasher.finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShotAtEveryBoundary) {
  std::string data;
  for (int i = 0; i < 200; ++i) data.push_back(static_cast<char>(i * 7 + 3));
  for (std::size_t len = 0; len <= data.size(); ++len) {
    const std::string_view whole(data.data(), len);
    Sha256 hasher;
    hasher.update(whole.substr(0, len / 3));
    hasher.update(whole.substr(len / 3));
    EXPECT_EQ(hasher.finish(), sha256(whole)) << "length " << len;
  }
}

TEST(Sha256, HashTokenIsHexDigestOfToken) {
  EXPECT_EQ(hash_token("abc"), to_hex(sha256("abc")));
  EXPECT_EQ(hash_token("s3cret").size(), 64u);
  EXPECT_NE(hash_token("s3cret"), hash_token("s3cres"));
}

}  // namespace
}  // namespace tilecrush::storage
