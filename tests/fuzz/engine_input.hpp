// How fuzz_engine reads its input: bytes front to back, each a small choice.
// Running out of bytes reads zeros and ends the move loop. The layout is in
// README.md ("fuzz_engine input") so that seeds can be written by hand.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::fuzz {

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool done() const { return pos_ >= size_; }
  std::uint8_t byte() { return done() ? 0 : data_[pos_++]; }
  // In [lo, hi]; requires lo <= hi and a span of at most 256.
  int in(int lo, int hi) { return lo + byte() % (hi - lo + 1); }

  // A coordinate on a side of `side` cells: mostly -1..side, sometimes an extreme.
  int coordinate(int side) {
    const std::uint8_t b = byte();
    if (b == 0xFF) return std::numeric_limits<int>::max();
    if (b == 0xFE) return std::numeric_limits<int>::min();
    return b % (side + 2) - 1;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// Layout: mode, shape, flags, seed length and bytes, then the shape's bytes.
//   shape 0: a preset (one byte picks it)
//   shape 1: custom width, height, colours within the mode's limits
//   shape 2: a custom board: width, height, then one byte per cell
//   shape 3: raw custom numbers, possibly outside every limit
// flags: bit 0 refill off, bit 1 compress on, bit 2 a match-3 move budget
// (one more byte), bit 3 keep practice options even where the mode has none,
// bit 4 an empty seed when the length is 0, bit 5 a board key (rules version
// 2: 32 more bytes; refused by the engine unless the setup is a preset
// without practice options), bit 6 rules version 1.
inline game::GameSetup read_setup(ByteReader& in) {
  game::GameSetup setup;
  setup.mode = static_cast<game::Mode>(in.byte() % 3);
  const int shape = in.byte() % 4;
  const std::uint8_t flags = in.byte();
  const int seed_len = in.byte() % 9;
  for (int i = 0; i < seed_len; ++i) setup.seed.push_back(static_cast<char>(in.byte()));
  if (seed_len == 0 && (flags & 16) == 0) setup.seed = "fuzz";

  const game::CustomLimits limits = game::custom_limits(setup.mode);
  // Kept small most of the time so that a run makes many moves per second.
  // A board may also be a size just outside the limits (that Board allows).
  const auto side = [&](bool board) {
    const std::uint8_t b = in.byte();
    if (board && b >= 0xE0) {
      return b < 0xF0 ? 1 + b % 3 : std::min(game::kMaxSide, limits.max_side - 3 + b % 12);
    }
    return b >= 0xF0 ? limits.max_side - b % 4 : limits.min_side + b % 7;
  };
  switch (shape) {
    case 0: {
      const auto all = game::presets(setup.mode);
      setup.preset = std::string(all[in.byte() % all.size()].name);
      break;
    }
    case 1:
      setup.width = side(false);
      setup.height = side(false);
      setup.colors = in.in(limits.min_colors, limits.max_colors);
      break;
    case 2: {
      const int width = side(true);
      const int height = side(true);
      // Mostly few colours so that groups and runs exist; sometimes the full
      // range, or one colour too many.
      const int top = std::array{3, limits.max_cell, limits.max_cell + 1}[in.byte() % 3];
      game::Board board(width, height);
      for (auto& c : board.cells()) c = static_cast<std::uint8_t>(in.byte() % (top + 1));
      setup.board = board;
      break;
    }
    default:
      setup.width = in.in(-2, 60);
      setup.height = in.in(-2, 60);
      setup.colors = in.in(-2, 20);
      break;
  }
  const bool force = (flags & 8) != 0;
  if ((flags & 1) != 0 && (force || setup.mode == game::Mode::match3)) setup.refill = false;
  if ((flags & 2) != 0 && (force || setup.mode == game::Mode::hidden)) setup.compress = true;
  if ((flags & 4) != 0 && (force || setup.mode == game::Mode::match3)) {
    setup.moves = in.in(-1, 60);
  }
  if ((flags & 32) != 0) {
    game::BoardSecret key{};
    for (auto& b : key) b = in.byte();
    setup.board_key = key;
  }
  if ((flags & 64) != 0) setup.rules_version = 1;
  return setup;
}

}  // namespace tilecrush::fuzz
