// SHA-256 (FIPS 180-4 examples), HMAC-SHA-256 (RFC 4231) and the hex
// spelling: the primitives rules version 2 deals boards with.
#include "tilecrush/game/crypto.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tilecrush::game {
namespace {

std::vector<std::uint8_t> bytes(std::string_view s) {
  return {s.begin(), s.end()};
}

TEST(Crypto, Sha256KnownAnswers) {
  EXPECT_EQ(to_hex(sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(to_hex(sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Crypto, HmacSha256Rfc4231) {
  // Test case 1: key = 0x0b * 20, data = "Hi There".
  const std::vector<std::uint8_t> key1(20, 0x0b);
  EXPECT_EQ(to_hex(hmac_sha256(key1, "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 2: key = "Jefe".
  EXPECT_EQ(to_hex(hmac_sha256(bytes("Jefe"), "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 6: a key longer than the block is hashed first.
  const std::vector<std::uint8_t> key6(131, 0xaa);
  EXPECT_EQ(to_hex(hmac_sha256(key6, "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(Crypto, HexRoundTripAndRefusals) {
  const Digest d = sha256("tilecrush");
  const std::string hex = to_hex(d);
  ASSERT_EQ(hex.size(), 64u);
  EXPECT_EQ(digest_from_hex(hex), d);
  std::string upper = hex;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(digest_from_hex(upper), d);
  EXPECT_FALSE(digest_from_hex(hex.substr(1)));
  EXPECT_FALSE(digest_from_hex(hex + "0"));
  EXPECT_FALSE(digest_from_hex(std::string(63, '0') + "g"));
  EXPECT_FALSE(digest_from_hex(""));
}

TEST(Crypto, CommitmentIsHexSha256OfTheKey) {
  BoardSecret key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(commitment(key), to_hex(sha256(std::span<const std::uint8_t>(key))));
  // SHA-256 of the bytes 0x00..0x1f.
  EXPECT_EQ(commitment(key), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
}

}  // namespace
}  // namespace tilecrush::game
