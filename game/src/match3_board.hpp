// Match-3 board rules (rules.md, "Match-3"): runs, swaps, refill, cascades,
// the dealt start board and the stabilisation of a custom board. Internal to
// the engine; the tests and benchmarks use it directly.
//
// Every function here is part of rules version 1: the order in which cells
// are visited and colours drawn from the generator decides what a seed and a
// move list produce, so changing it is a breaking change. In short:
//   - deal: neighbour-exclusion fill, row-major from the top row, one
//     bounded() draw per cell; up to 64 fills, the generator continuing;
//     else a two-colour fallback pattern (deal_fallback);
//   - refill: columns left to right, each top to bottom, one color(K) each,
//     from the same generator, which keeps going for the whole game;
//   - a custom board: gravity, refill (if on), then waves, without score;
//   - valid swaps are listed (and the hint chosen) in scan order: cells
//     row-major, each with its right neighbour, then the one below;
//   - only the first kMaxRefillWaves waves of a resolution refill.
//
// Thread safety: free functions on values; the ones taking a Board& or Rng&
// mutate them and need the caller's exclusive access.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tilecrush/game/board.hpp"
#include "tilecrush/game/events.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/rng.hpp"

namespace tilecrush::game::match3 {

// Fixed scratch sizes: no per-cell allocation anywhere in the rules.
inline constexpr int kMaxCells = kMaxSide * kMaxSide;
using Mask = std::array<std::uint8_t, kMaxCells>;

inline constexpr int kMinRun = 3;
inline constexpr std::int64_t kPointsPerCell = 10;
// Dealing: whole-board attempts before the fallback pattern.
inline constexpr int kDealAttempts = 64;
// Cascades: waves 1..kMaxRefillWaves of one resolution refill; later waves
// of the same resolution do not, so that every resolution ends. Ordinary
// play never gets near it: over 15,000 random swaps on 32 x 32 boards with 3
// colours (the longest cascades the limits allow) the mean was 42 waves and
// the longest 272; with 6 colours on 8 x 8, 1.5 and 10.
inline constexpr int kMaxRefillWaves = 1000;

// Sets mask[y * W + x] to 1 for every cell in a run (three or more equal,
// non-empty cells in a row or a column), 0 for the others; only the first
// W * H entries are written. Returns the number of marked cells.
int mark_runs(const Board& board, Mask& mask);
bool has_run(const Board& board);

// True when a and b are on the board, orthogonally adjacent and both filled.
bool swappable(const Board& board, Point a, Point b);
// For a swappable pair on a board without runs: whether swapping them makes
// a run (which then passes through a or b).
bool swap_makes_run(const Board& board, Point a, Point b);

// Valid swaps in scan order: cells row-major from the top-left, each paired
// first with its right neighbour, then with the one below.
bool first_valid_swap(const Board& board, Move& out);
bool has_valid_swap(const Board& board);
std::vector<Move> valid_swaps(const Board& board);

// On a board whose filled cells rest on the bottom: fills every empty cell
// with rng.color(colors), columns left to right and, within a column, top
// to bottom; appends {x, y, color} for each.
void refill(Board& board, int colors, Rng& rng, std::vector<std::array<int, 3>>& spawned);

// Where a resolution reports what it does; null members are skipped.
struct Resolution {
  std::int64_t* score = nullptr;  // receives 10 * n * wave per wave
  EventList* events = nullptr;    // remove, score, fall?, spawn? per wave
};

// Waves until no run remains, on a board whose filled cells already rest on
// the bottom: remove every run cell (wave w scores 10 * n * w), gravity,
// refill (when `refill_on`, for the first kMaxRefillWaves waves). Returns
// the number of waves.
int resolve(Board& board, int colors, bool refill_on, Rng& rng, const Resolution& out);

// Seed 003's update (converge of explode after gravity) with the refill step
// when `refill_on`: gravity, refill, then resolve() without score or events.
void stabilise(Board& board, int colors, bool refill_on, Rng& rng);

// The dealt start board (see match3_board.cpp for the algorithm): full, no
// run, at least one valid swap. Requires W, H >= 3 and colors >= 3.
Board deal(int width, int height, int colors, Rng& rng);
// deal()'s last resort, a two-colour pattern with a valid swap at (2, 0) -
// (2, 1). Requires W >= 3, H >= 2 and colors >= 2.
Board deal_fallback(int width, int height, int colors, Rng& rng);

}  // namespace tilecrush::game::match3
