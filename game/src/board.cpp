#include "tilecrush/game/board.hpp"

#include <algorithm>

namespace tilecrush::game {

Board::Board(int width, int height)
    : width_(width), height_(height), cells_(static_cast<std::size_t>(width * height), 0) {}

bool Board::empty() const {
  return std::all_of(cells_.begin(), cells_.end(), [](std::uint8_t c) { return c == 0; });
}

int Board::filled_count() const {
  return static_cast<int>(
      std::count_if(cells_.begin(), cells_.end(), [](std::uint8_t c) { return c != 0; }));
}

std::uint8_t Board::max_color() const {
  return cells_.empty() ? 0 : *std::max_element(cells_.begin(), cells_.end());
}

}  // namespace tilecrush::game
