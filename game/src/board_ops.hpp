// Board transformations shared by the modes. Internal to the engine.
#pragma once

#include <array>
#include <vector>

#include "tilecrush/game/board.hpp"
#include "tilecrush/game/events.hpp"

namespace tilecrush::game::ops {

// Every cell orthogonally connected to p with p's colour (p included), in
// flood-fill order. Empty when p is outside the board or empty.
std::vector<Point> group_at(const Board& board, Point p);

// Size of the group at p without building it (0 for an empty cell).
int group_size(const Board& board, Point p);

// True when some cell has an orthogonal neighbour of its own colour.
bool has_group_of_two(const Board& board);

// Gravity: in every column the filled cells fall to the bottom, keeping their
// order. Appends {x, from_y, to_y} for every cell that moved.
void apply_gravity(Board& board, std::vector<std::array<int, 3>>& moves);

// Column compression: empty columns are removed, the ones to their right move
// left keeping their order. Appends {from_x, to_x} for every moved column.
void compress_columns(Board& board, std::vector<std::array<int, 2>>& moves);

}  // namespace tilecrush::game::ops
