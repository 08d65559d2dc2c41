#include "match3_board.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "board_ops.hpp"

namespace tilecrush::game::match3 {
namespace {

// Whether (x, y), holding v, is in a run, not looking toward `skip` (0 left,
// 1 right, 2 up, 3 down): after a swap the partner there holds the other
// colour. A run of three through a cell lies within two cells of it on each
// side, so two cells each way are enough.
bool in_run(const std::uint8_t* c, int w, int h, int x, int y, std::uint8_t v, int skip) {
  const std::uint8_t* p = c + y * w + x;
  int across = 1;
  if (skip != 0 && x >= 1 && p[-1] == v) {
    if (x >= 2 && p[-2] == v) return true;
    ++across;
  }
  if (skip != 1 && x + 1 < w && p[1] == v) {
    if (x + 2 < w && p[2] == v) return true;
    ++across;
  }
  if (across >= kMinRun) return true;
  int down = 1;
  if (skip != 2 && y >= 1 && p[-w] == v) {
    if (y >= 2 && p[-2 * w] == v) return true;
    ++down;
  }
  if (skip != 3 && y + 1 < h && p[w] == v) {
    if (y + 2 < h && p[2 * w] == v) return true;
    ++down;
  }
  return down >= kMinRun;
}

// swap_makes_run for a, b = a + (1, 0) (right) or a + (0, 1) (down), both
// filled, on raw cells.
bool swap_right_makes_run(const std::uint8_t* c, int w, int h, int x, int y) {
  const std::uint8_t va = c[y * w + x];
  const std::uint8_t vb = c[y * w + x + 1];
  return va != vb && (in_run(c, w, h, x, y, vb, 1) || in_run(c, w, h, x + 1, y, va, 0));
}
bool swap_down_makes_run(const std::uint8_t* c, int w, int h, int x, int y) {
  const std::uint8_t va = c[y * w + x];
  const std::uint8_t vb = c[(y + 1) * w + x];
  return va != vb && (in_run(c, w, h, x, y, vb, 3) || in_run(c, w, h, x, y + 1, va, 2));
}

// Calls f(move) for each valid swap in scan order until f returns false.
template <typename F>
void scan_valid_swaps(const Board& board, F&& f) {
  const int w = board.width();
  const int h = board.height();
  const std::uint8_t* c = board.cells().data();
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (c[y * w + x] == 0) continue;
      if (x + 1 < w && c[y * w + x + 1] != 0 && swap_right_makes_run(c, w, h, x, y)) {
        if (!f(Move{MoveKind::swap, {x, y}, {x + 1, y}})) return;
      }
      if (y + 1 < h && c[(y + 1) * w + x] != 0 && swap_down_makes_run(c, w, h, x, y)) {
        if (!f(Move{MoveKind::swap, {x, y}, {x, y + 1}})) return;
      }
    }
  }
}

// One neighbour-exclusion fill, row-major from the top row. A cell may not
// take the colour of two equal cells directly to its left, nor of two equal
// cells directly above; it draws uniformly among the remaining colours,
// listed in increasing order. Such a board never holds a run.
Board deal_once(int width, int height, int colors, Rng& rng) {
  Board board(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      std::uint8_t banned_row = 0;
      std::uint8_t banned_col = 0;
      if (x >= 2 && board.at(x - 1, y) == board.at(x - 2, y)) banned_row = board.at(x - 1, y);
      if (y >= 2 && board.at(x, y - 1) == board.at(x, y - 2)) banned_col = board.at(x, y - 1);
      if (banned_col == banned_row) banned_col = 0;
      const int allowed = colors - (banned_row != 0 ? 1 : 0) - (banned_col != 0 ? 1 : 0);
      auto pick = static_cast<int>(rng.bounded(static_cast<std::uint64_t>(allowed)));
      std::uint8_t color = 0;
      for (int c = 1; c <= colors; ++c) {
        if (c == banned_row || c == banned_col) continue;
        if (pick-- == 0) {
          color = static_cast<std::uint8_t>(c);
          break;
        }
      }
      board.set(x, y, color);
    }
  }
  return board;
}

}  // namespace

// A run of any length is the union of its windows of three, so marking
// every window of three equal filled cells marks exactly the run cells. The
// loops are branch-free over the flat cell array so that they vectorise.
int mark_runs(const Board& board, Mask& mask) {
  const int w = board.width();
  const int n = w * board.height();
  const std::uint8_t* c = board.cells().data();
  std::uint8_t* m = mask.data();
  // across[i]: a row window of three ends at i; down[i]: a column window.
  // Only the entries read are written (both are padded past the end).
  std::array<std::uint8_t, kMaxCells + 2> across;
  std::array<std::uint8_t, kMaxCells + 2 * kMaxSide> down;
  for (int i = 2; i < n; ++i) {
    across[i] = static_cast<std::uint8_t>((c[i] != 0) & (c[i] == c[i - 1]) & (c[i] == c[i - 2]));
  }
  for (int row = 0; row < n; row += w) {  // windows reaching back into the row above
    across[row] = 0;
    across[row + 1] = 0;
  }
  across[n] = across[n + 1] = 0;
  for (int i = 0; i < 2 * w && i < n; ++i) down[i] = 0;
  for (int i = 2 * w; i < n; ++i) {
    down[i] = static_cast<std::uint8_t>((c[i] != 0) & (c[i] == c[i - w]) & (c[i] == c[i - 2 * w]));
  }
  for (int i = n; i < n + 2 * w; ++i) down[i] = 0;
  std::uint8_t any = 0;
  for (int i = 0; i < n; ++i) {
    m[i] = static_cast<std::uint8_t>(across[i] | across[i + 1] | across[i + 2] | down[i] |
                                     down[i + w] | down[i + 2 * w]);
    any |= m[i];
  }
  if (any == 0) return 0;
  int count = 0;
  for (int i = 0; i < n; ++i) count += m[i];
  return count;
}

bool has_run(const Board& board) {
  const int w = board.width();
  const int n = w * board.height();
  const std::uint8_t* c = board.cells().data();
  for (int row = 0; row < n; row += w) {
    for (int i = row + 2; i < row + w; ++i) {
      if (c[i] != 0 && c[i] == c[i - 1] && c[i] == c[i - 2]) return true;
    }
  }
  for (int i = 2 * w; i < n; ++i) {
    if (c[i] != 0 && c[i] == c[i - w] && c[i] == c[i - 2 * w]) return true;
  }
  return false;
}

bool swappable(const Board& board, Point a, Point b) {
  if (!board.contains(a.x, a.y) || !board.contains(b.x, b.y)) return false;
  // Both on the board: the differences cannot overflow.
  const int dx = a.x > b.x ? a.x - b.x : b.x - a.x;
  const int dy = a.y > b.y ? a.y - b.y : b.y - a.y;
  if (dx + dy != 1) return false;
  return board.at(a.x, a.y) != 0 && board.at(b.x, b.y) != 0;
}

bool swap_makes_run(const Board& board, Point a, Point b) {
  if (b.x < a.x || b.y < a.y) std::swap(a, b);
  const int w = board.width();
  const int h = board.height();
  const std::uint8_t* c = board.cells().data();
  return b.x > a.x ? swap_right_makes_run(c, w, h, a.x, a.y)
                   : swap_down_makes_run(c, w, h, a.x, a.y);
}

bool first_valid_swap(const Board& board, Move& out) {
  bool found = false;
  scan_valid_swaps(board, [&](const Move& m) {
    out = m;
    found = true;
    return false;
  });
  return found;
}

bool has_valid_swap(const Board& board) {
  Move ignored;
  return first_valid_swap(board, ignored);
}

std::vector<Move> valid_swaps(const Board& board) {
  std::vector<Move> moves;
  scan_valid_swaps(board, [&](const Move& m) {
    moves.push_back(m);
    return true;
  });
  return moves;
}

// After gravity a column's empty cells are its top ones: the scan of a
// column stops at its first filled cell.
void refill(Board& board, int colors, Rng& rng, std::vector<std::array<int, 3>>& spawned) {
  const int w = board.width();
  const int h = board.height();
  std::uint8_t* c = board.cells().data();
  for (int x = 0; x < w; ++x) {
    for (int y = 0; y < h && c[y * w + x] == 0; ++y) {
      const std::uint8_t color = rng.color(colors);
      c[y * w + x] = color;
      spawned.push_back({x, y, color});
    }
  }
}

int resolve(Board& board, int colors, bool refill_on, Rng& rng, const Resolution& out) {
  const int w = board.width();
  Mask mask;
  int wave = 0;
  for (;;) {
    const int n = mark_runs(board, mask);
    if (n == 0) return wave;
    ++wave;
    RemoveEvent removed;
    removed.wave = wave;
    if (out.events) removed.cells.reserve(static_cast<std::size_t>(n));
    std::uint8_t* c = board.cells().data();
    const int cells = static_cast<int>(board.cells().size());
    for (int i = 0; i < cells; ++i) {
      if (mask[static_cast<std::size_t>(i)] == 0) continue;
      c[i] = 0;
      if (out.events) removed.cells.push_back(Point{i % w, i / w});
    }
    const std::int64_t delta = kPointsPerCell * n * wave;
    std::int64_t total = delta;
    if (out.score) total = (*out.score += delta);
    if (out.events) {
      out.events->emplace_back(std::move(removed));
      out.events->emplace_back(ScoreEvent{delta, total});
    }
    FallEvent fallen;
    ops::apply_gravity(board, fallen.moves);
    if (out.events && !fallen.moves.empty()) out.events->emplace_back(std::move(fallen));
    if (refill_on && wave <= kMaxRefillWaves) {
      SpawnEvent spawn;
      spawn.wave = wave;
      spawn.cells.reserve(static_cast<std::size_t>(n));  // exactly the removed cells
      refill(board, colors, rng, spawn.cells);
      if (out.events && !spawn.cells.empty()) out.events->emplace_back(std::move(spawn));
    }
  }
}

void stabilise(Board& board, int colors, bool refill_on, Rng& rng) {
  std::vector<std::array<int, 3>> scratch;
  ops::apply_gravity(board, scratch);
  if (refill_on) refill(board, colors, rng, scratch);
  resolve(board, colors, refill_on, rng, Resolution{});
}

// Two colours p != q drawn from rng (p = color(K), q uniform among the
// others), laid out as pairs along each row, the pattern shifted by one pair
// on every other row:
//   p p q q p p ...
//   q q p p q q ...
// No run (pairs across, alternation down), and swapping (2, 0) with (2, 1)
// completes p p p on row 0.
Board deal_fallback(int width, int height, int colors, Rng& rng) {
  const std::uint8_t p = rng.color(colors);
  auto q = static_cast<std::uint8_t>(1 + rng.bounded(static_cast<std::uint64_t>(colors - 1)));
  if (q >= p) ++q;
  Board board(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) board.set(x, y, ((x / 2 + y) % 2 == 0) ? p : q);
  }
  return board;
}

// Dealing (rules version 1): up to kDealAttempts neighbour-exclusion fills
// (deal_once), the generator continuing from one to the next; the first
// with a valid swap is the board. If none has one, deal_fallback's
// two-colour pattern, which always has one. That happens only on tiny boards
// with many colours: about one seed in 5,000 on 3 x 3 with 12 colours, none
// in 20,000 on 3 x 4 or 4 x 4 with 12, or on any preset.
Board deal(int width, int height, int colors, Rng& rng) {
  for (int attempt = 0; attempt < kDealAttempts; ++attempt) {
    Board board = deal_once(width, height, colors, rng);
    if (has_valid_swap(board)) return board;
  }
  return deal_fallback(width, height, colors, rng);
}

}  // namespace tilecrush::game::match3
