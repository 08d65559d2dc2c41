#include "play/recovery_code.hpp"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <array>

namespace tilecrush::server {
namespace {

constexpr std::string_view kAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
static_assert(kAlphabet.size() == 32);

}  // namespace

std::optional<std::string> new_recovery_code() {
  // 5 bits per character: 100 bits in 13 bytes (4 bits unused).
  std::array<unsigned char, 13> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) return std::nullopt;
  std::string code;
  code.reserve(kRecoveryCodeChars + 3);
  std::size_t bit = 0;
  for (std::size_t i = 0; i < kRecoveryCodeChars; ++i, bit += 5) {
    unsigned value = 0;
    for (std::size_t b = bit; b < bit + 5; ++b) {
      value = (value << 1U) | ((bytes[b / 8] >> (7 - b % 8)) & 1U);
    }
    if (i > 0 && i % 5 == 0) code.push_back('-');
    code.push_back(kAlphabet[value]);
  }
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return code;
}

std::optional<std::string> canonical_recovery_code(std::string_view typed) {
  std::array<char, kRecoveryCodeChars> out{};
  std::size_t length = 0;
  for (char raw : typed) {
    if (raw == ' ' || raw == '-') continue;
    char c = raw;
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == 'O') c = '0';
    if (c == 'I' || c == 'L') c = '1';
    if (kAlphabet.find(c) == std::string_view::npos) return std::nullopt;
    if (length == out.size()) return std::nullopt;
    out[length++] = c;
  }
  if (length != out.size()) return std::nullopt;
  return std::optional<std::string>(std::in_place, out.data(), out.size());
}

}  // namespace tilecrush::server
