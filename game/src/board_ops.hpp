// Board transformations shared by the modes. Internal to the engine.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tilecrush/game/board.hpp"
#include "tilecrush/game/events.hpp"

namespace tilecrush::game::ops {

// Memory for flood fills without allocation: a visited bitmap over cell
// indices (y * width + x), and the cells found as index, x and y (kept apart
// so that nobody divides). About 6.6 KB; meant for the stack.
struct FillScratch {
  static constexpr int kCells = kMaxSide * kMaxSide;
  std::array<std::uint64_t, (kCells + 63) / 64> seen;
  std::array<std::uint16_t, kCells> cells;
  std::array<std::uint8_t, kCells> xs;
  std::array<std::uint8_t, kCells> ys;

  void clear_seen() { seen.fill(0); }
  bool is_seen(int i) const { return (seen[static_cast<std::size_t>(i) >> 6] >> (i & 63)) & 1U; }
  void mark(int i) { seen[static_cast<std::size_t>(i) >> 6] |= std::uint64_t{1} << (i & 63); }
};

// Flood fill from the filled, not yet seen cell (x, y): writes its group to
// scratch.cells/xs/ys in flood-fill order, marks it seen, returns its size.
// Does not clear scratch.seen, so one bitmap can serve a whole scan.
int fill_group(const Board& board, int x, int y, FillScratch& scratch);

// Every cell orthogonally connected to p with p's colour (p included), in
// flood-fill order. Empty when p is outside the board or empty.
std::vector<Point> group_at(const Board& board, Point p);

// Size of the group at p without building it (0 for an empty cell).
int group_size(const Board& board, Point p);

// True when some cell has an orthogonal neighbour of its own colour.
bool has_group_of_two(const Board& board);

// Gravity: in every column the filled cells fall to the bottom, keeping their
// order. Appends {x, from_y, to_y} for every cell that moved: columns left
// to right, each from the bottom up. Same Game, hidden colours and match-3
// all fall through here (no allocation but the one append).
void apply_gravity(Board& board, std::vector<std::array<int, 3>>& moves);
// The same for columns first_x..last_x only (the others must be settled).
void apply_gravity(Board& board, int first_x, int last_x, std::vector<std::array<int, 3>>& moves);

// Column compression: empty columns are removed, the ones to their right move
// left keeping their order. Appends {from_x, to_x} for every moved column.
void compress_columns(Board& board, std::vector<std::array<int, 2>>& moves);

}  // namespace tilecrush::game::ops
