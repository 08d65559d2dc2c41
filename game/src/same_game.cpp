// Same Game (rules.md, seed 000): click a group of two or more, score
// (n - 2)^2, gravity, column compression, +1000 when the board is cleared.
#include <algorithm>

#include "board_ops.hpp"
#include "modes.hpp"
#include "undo_checkpoints.hpp"

namespace tilecrush::game::detail {
namespace {

constexpr std::int64_t kClearBonus = 1000;

std::int64_t group_points(std::size_t n) {
  const auto k = static_cast<std::int64_t>(n) - 2;
  return k * k;
}

class SameGame final : public Game {
 public:
  SameGame(const GameSetup& setup, Board board, int colors)
      : Game(setup, std::move(board), colors) {
    end_if_stuck_at_start();
  }

  Outcome preview(Point p, Preview& out) const override {
    if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
    ops::FillScratch scratch;
    const int n = fill_at(p, scratch);
    if (const Outcome refused = refuse_group(n); !refused.ok()) return refused;
    out.points = group_points(static_cast<std::size_t>(n));
    out.cells.clear();
    append_points(scratch, n, out.cells);
    return Outcome::success();
  }

  Outcome hint(Hint& out) const override {
    if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
    std::size_t best = 0;
    for_each_group([&](Point first, std::size_t size) {
      if (size > best) {
        best = size;
        out.move = Move{MoveKind::click, first, {}};
      }
    });
    if (best < 2) return Outcome::refuse(Status::not_allowed, "no move left");
    return Outcome::success();
  }

  Outcome undo() override {
    // The state before the last move: from the nearest snapshot, replay the
    // moves after it (each was accepted from exactly that state before).
    EventList ignored;
    return undo_.undo_last(
        over(), moves_, [&](const Snapshot& from) { from.restore(board_, score_); },
        [&](std::size_t i) {
          ops::FillScratch scratch;
          const int n = fill_at(moves_[i].a, scratch);
          ignored.clear();
          remove_group(scratch, n, ignored);
        });
  }

  std::vector<Move> legal_moves() const override {
    std::vector<Move> moves;
    if (over()) return moves;
    for_each_group([&](Point first, std::size_t size) {
      if (size >= 2) moves.push_back(Move{MoveKind::click, first, {}});
    });
    return moves;
  }

  std::unique_ptr<Game> clone() const override { return std::make_unique<SameGame>(*this); }

 protected:
  bool accepts(MoveKind kind) const override { return kind == MoveKind::click; }

  Outcome do_apply(const Move& move, EventList& events) override {
    ops::FillScratch scratch;
    const int n = fill_at(move.a, scratch);
    if (const Outcome refused = refuse_group(n); !refused.ok()) return refused;
    undo_.before_move(moves_.size(), Snapshot{board_.cells(), score_});
    remove_group(scratch, n, events);
    return Outcome::success();
  }

  // The board is always settled (gravity and compression after every click
  // and before play): it is empty exactly when its bottom-left cell is, the
  // filled columns are the first ones, and a row without a tile has none
  // above it.
  OverReason check_over() const override {
    const int w = board_.width();
    const int h = board_.height();
    const std::uint8_t* cells = board_.cells().data();
    const std::uint8_t* bottom = cells + (h - 1) * w;
    int columns = 0;
    while (columns < w && bottom[columns] != 0) ++columns;
    if (columns == 0) return OverReason::cleared;
    // Bottom row first: pairs are most often found there.
    for (int y = h - 1; y >= 0; --y) {
      const std::uint8_t* row = cells + y * w;
      bool any = false;
      for (int x = 0; x < columns; ++x) {
        const std::uint8_t c = row[x];
        if (c == 0) continue;
        any = true;
        if ((x + 1 < w && row[x + 1] == c) || (y > 0 && row[x - w] == c)) return OverReason::none;
      }
      if (!any) break;
    }
    return OverReason::no_moves;
  }

  std::int64_t end_bonus(OverReason reason) const override {
    return reason == OverReason::cleared ? kClearBonus : 0;
  }

 private:
  static Outcome refuse_group(int size) {
    if (size == 0) return Outcome::refuse(Status::invalid_move, "no tile there");
    if (size < 2) return Outcome::refuse(Status::invalid_move, "a single tile cannot be removed");
    return Outcome::success();
  }

  // Removes the group of n cells found by fill_at(), scores it, and lets the
  // board settle (gravity, then compression), with their events.
  void remove_group(const ops::FillScratch& scratch, int n, EventList& events) {
    const int w = board_.width();
    const int h = board_.height();
    RemoveEvent remove;
    remove.cells.reserve(static_cast<std::size_t>(n));
    append_points(scratch, n, remove.cells);
    int first_x = w, last_x = -1;
    std::uint8_t* cells = board_.cells().data();
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      cells[scratch.cells[i]] = 0;
      first_x = std::min(first_x, static_cast<int>(scratch.xs[i]));
      last_x = std::max(last_x, static_cast<int>(scratch.xs[i]));
    }
    const std::int64_t delta = group_points(static_cast<std::size_t>(n));
    score_ += delta;
    events.emplace_back(std::move(remove));
    events.emplace_back(ScoreEvent{delta, score_});

    // Only the columns the group touched can fall or become empty.
    FallEvent fall;
    fall.moves.reserve(static_cast<std::size_t>((last_x - first_x + 1) * h));
    ops::apply_gravity(board_, first_x, last_x, fall.moves);
    if (!fall.moves.empty()) events.emplace_back(std::move(fall));
    bool emptied = false;
    for (int x = first_x; x <= last_x && !emptied; ++x) emptied = cells[(h - 1) * w + x] == 0;
    if (emptied) {
      ShiftEvent shift;
      shift.moves.reserve(static_cast<std::size_t>(w));
      ops::compress_columns(board_, shift.moves);
      if (!shift.moves.empty()) events.emplace_back(std::move(shift));
    }
  }

  // Size of the group at p, its cells in scratch.cells; 0 outside the board
  // or on an empty cell.
  int fill_at(Point p, ops::FillScratch& scratch) const {
    if (!board_.contains(p.x, p.y) || board_.at(p.x, p.y) == 0) return 0;
    scratch.clear_seen();
    return ops::fill_group(board_, p.x, p.y, scratch);
  }

  static void append_points(const ops::FillScratch& scratch, int n, std::vector<Point>& out) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      out.push_back(Point{scratch.xs[i], scratch.ys[i]});
    }
  }

  // Calls f(first cell in row-major order, size) once per group.
  template <typename F>
  void for_each_group(F&& f) const {
    ops::FillScratch scratch;
    scratch.clear_seen();
    const int w = board_.width();
    const std::uint8_t* cells = board_.cells().data();
    for (int y = 0; y < board_.height(); ++y) {
      for (int x = 0; x < w; ++x) {
        const int i = y * w + x;
        if (cells[i] == 0 || scratch.is_seen(i)) continue;
        f(Point{x, y}, static_cast<std::size_t>(ops::fill_group(board_, x, y, scratch)));
      }
    }
  }

  using Snapshot = BoardSnapshot;
  UndoCheckpoints<Snapshot> undo_;
};

}  // namespace

std::unique_ptr<Game> make_same_game(const GameSetup& setup, std::optional<Board> board, int width,
                                     int height, int colors, Rng rng) {
  Board start;
  if (board) {
    start = std::move(*board);
    std::vector<std::array<int, 3>> falls;
    std::vector<std::array<int, 2>> shifts;
    ops::apply_gravity(start, falls);
    ops::compress_columns(start, shifts);
  } else {
    start = deal_uniform(width, height, colors, rng);
  }
  return std::make_unique<SameGame>(setup, std::move(start), colors);
}

}  // namespace tilecrush::game::detail
