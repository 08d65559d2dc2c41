#include "tilecrush/game/hash.hpp"

#include "tilecrush/game/rng.hpp"

namespace tilecrush::game {
namespace {

std::uint64_t mix_le64(std::uint64_t h, std::int64_t value) {
  auto v = static_cast<std::uint64_t>(value);
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xffU;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::uint64_t state_hash(const std::vector<int>& visible, std::int64_t move_count,
                         std::int64_t score) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (int cell : visible) {
    h ^= cell < 0 ? 255U : static_cast<std::uint64_t>(cell & 0xff);
    h *= 0x100000001b3ULL;
  }
  h = mix_le64(h, move_count);
  return mix_le64(h, score);
}

std::string hash_hex(std::uint64_t hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kDigits[hash & 0xf];
    hash >>= 4;
  }
  return out;
}

}  // namespace tilecrush::game
