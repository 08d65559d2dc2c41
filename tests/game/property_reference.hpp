// The property tests' own reference rules, written independently of the
// engine: Same Game group size by flood fill, and whether any pair remains.
#pragma once

#include <vector>

#include "tilecrush/game/board.hpp"

namespace tilecrush::game::property_reference {

// Same Game's group size at (x, y) by the test's own flood fill.
inline int own_group_size(const std::vector<int>& cells, int w, int h, int x, int y) {
  if (x < 0 || y < 0 || x >= w || y >= h) return 0;
  const int color = cells[static_cast<std::size_t>(y * w + x)];
  if (color <= 0) return 0;
  std::vector<char> seen(cells.size(), 0);
  std::vector<std::pair<int, int>> stack = {{x, y}};
  seen[static_cast<std::size_t>(y * w + x)] = 1;
  int n = 0;
  while (!stack.empty()) {
    auto [cx, cy] = stack.back();
    stack.pop_back();
    ++n;
    const int nx[4] = {cx - 1, cx + 1, cx, cx};
    const int ny[4] = {cy, cy, cy - 1, cy + 1};
    for (int i = 0; i < 4; ++i) {
      if (nx[i] < 0 || ny[i] < 0 || nx[i] >= w || ny[i] >= h) continue;
      const auto k = static_cast<std::size_t>(ny[i] * w + nx[i]);
      if (seen[k] || cells[k] != color) continue;
      seen[k] = 1;
      stack.push_back({nx[i], ny[i]});
    }
  }
  return n;
}

// True when two orthogonal neighbours share a colour (a group of two or more).
inline bool own_has_pair(const Board& board) {
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const std::uint8_t c = board.at(x, y);
      if (c == 0) continue;
      if (x + 1 < board.width() && board.at(x + 1, y) == c) return true;
      if (y + 1 < board.height() && board.at(x, y + 1) == c) return true;
    }
  }
  return false;
}
}  // namespace tilecrush::game::property_reference
