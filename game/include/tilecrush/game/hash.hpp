// state_hash as protocol.md defines it: FNV-1a 64 over the board as the
// player may see it (one byte per cell, rows top first, a hidden cell as
// 255), then move_count and score as 8-byte little-endian signed integers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilecrush::game {

// visible: row-major cells, -1 for a cell the player may not see.
std::uint64_t state_hash(const std::vector<int>& visible, std::int64_t move_count,
                         std::int64_t score);

// 16 lowercase hex digits.
std::string hash_hex(std::uint64_t hash);

}  // namespace tilecrush::game
