#include "board_ops.hpp"

#include <algorithm>

namespace tilecrush::game::ops {

int fill_group(const Board& board, int x, int y, FillScratch& scratch) {
  const int w = board.width();
  const int h = board.height();
  const std::uint8_t* cells = board.cells().data();
  const std::uint8_t color = cells[y * w + x];
  int n = 0;
  const auto add = [&](int cx, int cy) {
    const int i = cy * w + cx;
    scratch.mark(i);
    const auto k = static_cast<std::size_t>(n++);
    scratch.cells[k] = static_cast<std::uint16_t>(i);
    scratch.xs[k] = static_cast<std::uint8_t>(cx);
    scratch.ys[k] = static_cast<std::uint8_t>(cy);
  };
  const auto joins = [&](int i) { return cells[i] == color && !scratch.is_seen(i); };
  add(x, y);
  // Breadth-first, neighbours left, right, up, down: the order group_at
  // has always returned.
  for (int k = 0; k < n; ++k) {
    const int cx = scratch.xs[static_cast<std::size_t>(k)];
    const int cy = scratch.ys[static_cast<std::size_t>(k)];
    const int i = scratch.cells[static_cast<std::size_t>(k)];
    if (cx > 0 && joins(i - 1)) add(cx - 1, cy);
    if (cx + 1 < w && joins(i + 1)) add(cx + 1, cy);
    if (cy > 0 && joins(i - w)) add(cx, cy - 1);
    if (cy + 1 < h && joins(i + w)) add(cx, cy + 1);
  }
  return n;
}

std::vector<Point> group_at(const Board& board, Point p) {
  std::vector<Point> group;
  if (!board.contains(p.x, p.y) || board.at(p.x, p.y) == 0) return group;
  FillScratch scratch;  // left uninitialised but for the bitmap
  scratch.clear_seen();
  const int n = fill_group(board, p.x, p.y, scratch);
  group.reserve(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    group.push_back(Point{scratch.xs[i], scratch.ys[i]});
  }
  return group;
}

int group_size(const Board& board, Point p) {
  if (!board.contains(p.x, p.y) || board.at(p.x, p.y) == 0) return 0;
  FillScratch scratch;
  scratch.clear_seen();
  return fill_group(board, p.x, p.y, scratch);
}

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
  apply_gravity(board, 0, board.width() - 1, moves);
}

void apply_gravity(Board& board, int first_x, int last_x, std::vector<std::array<int, 3>>& moves) {
  const int w = board.width();
  const int h = board.height();
  std::uint8_t* cells = board.cells().data();
  // The moves go to a local buffer, then into the vector in one insert:
  // stores through the byte pointer could alias the vector, which would
  // reload it at every cell, and an insert a column made a 9 x 9 match-3
  // fall about twice as slow.
  std::array<std::array<int, 3>, kMaxSide * kMaxSide> found;
  std::size_t n = 0;
  for (int x = first_x; x <= last_x; ++x) {
    int write_y = h - 1;
    while (write_y >= 0 && cells[write_y * w + x] != 0) --write_y;  // the lowest hole
    for (int y = write_y - 1; y >= 0; --y) {
      const std::uint8_t c = cells[y * w + x];
      if (c == 0) continue;
      cells[write_y * w + x] = c;
      cells[y * w + x] = 0;
      found[n++] = {x, y, write_y};
      --write_y;
    }
  }
  moves.insert(moves.end(), found.begin(), found.begin() + static_cast<std::ptrdiff_t>(n));
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
