// A W x H grid of cells. (x, y): x is the column from the left, y the row from
// the top; gravity pulls toward y = H - 1. A cell holds 0 (empty) or a colour.
//
// Thread safety: a Board is a plain value; const methods may be called from
// several threads at once, anything else needs external synchronisation.
#pragma once

#include <cstdint>
#include <vector>

#include "tilecrush/game/types.hpp"

namespace tilecrush::game {

inline constexpr int kMaxSide = 40;

class Board {
 public:
  Board() = default;
  // All cells empty. Requires 1 <= width, height <= kMaxSide.
  Board(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }

  std::uint8_t at(int x, int y) const { return cells_[index(x, y)]; }
  void set(int x, int y, std::uint8_t color) { cells_[index(x, y)] = color; }

  // Row-major storage, top row first: cells()[y * width + x].
  const std::vector<std::uint8_t>& cells() const { return cells_; }
  std::vector<std::uint8_t>& cells() { return cells_; }

  bool empty() const;
  int filled_count() const;
  std::uint8_t max_color() const;

  friend bool operator==(const Board&, const Board&) = default;

 private:
  int index(int x, int y) const { return y * width_ + x; }

  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> cells_;
};

}  // namespace tilecrush::game
