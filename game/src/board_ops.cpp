#include "board_ops.hpp"

#include <algorithm>

namespace tilecrush::game::ops {

std::vector<Point> group_at(const Board& board, Point p) {
  std::vector<Point> group;
  if (!board.contains(p.x, p.y)) return group;
  const std::uint8_t color = board.at(p.x, p.y);
  if (color == 0) return group;
  const int w = board.width();
  // A board is at most 40 x 40: a fixed bitmap avoids hashing.
  std::array<bool, kMaxSide * kMaxSide> seen{};
  group.push_back(p);
  seen[static_cast<std::size_t>(p.y * w + p.x)] = true;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const Point c = group[i];
    const Point next[4] = {{c.x - 1, c.y}, {c.x + 1, c.y}, {c.x, c.y - 1}, {c.x, c.y + 1}};
    for (const Point n : next) {
      if (!board.contains(n.x, n.y) || board.at(n.x, n.y) != color) continue;
      auto& s = seen[static_cast<std::size_t>(n.y * w + n.x)];
      if (s) continue;
      s = true;
      group.push_back(n);
    }
  }
  return group;
}

int group_size(const Board& board, Point p) { return static_cast<int>(group_at(board, p).size()); }

bool has_group_of_two(const Board& board) {
  const int w = board.width();
  const int h = board.height();
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::uint8_t c = board.at(x, y);
      if (c == 0) continue;
      if (x + 1 < w && board.at(x + 1, y) == c) return true;
      if (y + 1 < h && board.at(x, y + 1) == c) return true;
    }
  }
  return false;
}

void apply_gravity(Board& board, std::vector<std::array<int, 3>>& moves) {
  const int w = board.width();
  const int h = board.height();
  for (int x = 0; x < w; ++x) {
    int write_y = h - 1;
    for (int y = h - 1; y >= 0; --y) {
      const std::uint8_t c = board.at(x, y);
      if (c == 0) continue;
      if (y != write_y) {
        board.set(x, write_y, c);
        board.set(x, y, 0);
        moves.push_back({x, y, write_y});
      }
      --write_y;
    }
  }
}

void compress_columns(Board& board, std::vector<std::array<int, 2>>& moves) {
  const int w = board.width();
  const int h = board.height();
  int write_x = 0;
  for (int x = 0; x < w; ++x) {
    // After gravity a column is empty exactly when its bottom cell is.
    bool filled = false;
    for (int y = h - 1; y >= 0 && !filled; --y) filled = board.at(x, y) != 0;
    if (!filled) continue;
    if (x != write_x) {
      for (int y = 0; y < h; ++y) {
        board.set(write_x, y, board.at(x, y));
        board.set(x, y, 0);
      }
      moves.push_back({x, write_x});
    }
    ++write_x;
  }
}

}  // namespace tilecrush::game::ops
