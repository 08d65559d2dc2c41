// Same Game (rules.md, seed 000): click a group of two or more, score
// (n - 2)^2, gravity, column compression, +1000 when the board is cleared.
#include <algorithm>

#include "board_ops.hpp"
#include "modes.hpp"

namespace tilecrush::game::detail {
namespace {

constexpr std::int64_t kClearBonus = 1000;

std::int64_t group_points(std::size_t n) {
  const auto k = static_cast<std::int64_t>(n) - 2;
  return k * k;
}

class SameGame final : public Game {
 public:
  SameGame(const GameSetup& setup, Board board, int colors) : Game(setup, std::move(board), colors) {
    end_if_stuck_at_start();
  }

  Outcome preview(Point p, Preview& out) const override {
    if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
    std::vector<Point> group = ops::group_at(board_, p);
    if (const Outcome refused = refuse_group(group); !refused.ok()) return refused;
    out.points = group_points(group.size());
    out.cells = std::move(group);
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
    if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
    if (moves_.empty()) return Outcome::refuse(Status::not_allowed, "nothing to undo");
    const std::size_t n = board_.cells().size();
    std::copy(history_cells_.end() - static_cast<std::ptrdiff_t>(n), history_cells_.end(),
              board_.cells().begin());
    history_cells_.resize(history_cells_.size() - n);
    score_ = history_scores_.back();
    history_scores_.pop_back();
    moves_.pop_back();
    return Outcome::success();
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
    std::vector<Point> group = ops::group_at(board_, move.a);
    if (const Outcome refused = refuse_group(group); !refused.ok()) return refused;

    history_cells_.insert(history_cells_.end(), board_.cells().begin(), board_.cells().end());
    history_scores_.push_back(score_);

    for (const Point p : group) board_.set(p.x, p.y, 0);
    const std::int64_t delta = group_points(group.size());
    score_ += delta;
    events.emplace_back(RemoveEvent{std::move(group), 0});
    events.emplace_back(ScoreEvent{delta, score_});

    FallEvent fall;
    ops::apply_gravity(board_, fall.moves);
    if (!fall.moves.empty()) events.emplace_back(std::move(fall));
    ShiftEvent shift;
    ops::compress_columns(board_, shift.moves);
    if (!shift.moves.empty()) events.emplace_back(std::move(shift));
    return Outcome::success();
  }

  OverReason check_over() const override {
    if (board_.empty()) return OverReason::cleared;
    if (!ops::has_group_of_two(board_)) return OverReason::no_moves;
    return OverReason::none;
  }

  std::int64_t end_bonus(OverReason reason) const override {
    return reason == OverReason::cleared ? kClearBonus : 0;
  }

 private:
  static Outcome refuse_group(const std::vector<Point>& group) {
    if (group.empty()) return Outcome::refuse(Status::invalid_move, "no tile there");
    if (group.size() < 2) return Outcome::refuse(Status::invalid_move, "a single tile cannot be removed");
    return Outcome::success();
  }

  // Calls f(first cell in row-major order, size) once per group.
  template <typename F>
  void for_each_group(F&& f) const {
    std::vector<bool> seen(board_.cells().size(), false);
    const int w = board_.width();
    for (int y = 0; y < board_.height(); ++y) {
      for (int x = 0; x < w; ++x) {
        if (seen[static_cast<std::size_t>(y * w + x)] || board_.at(x, y) == 0) continue;
        const std::vector<Point> group = ops::group_at(board_, {x, y});
        for (const Point p : group) seen[static_cast<std::size_t>(p.y * w + p.x)] = true;
        f(Point{x, y}, group.size());
      }
    }
  }

  // Undo snapshots: one board (W*H bytes) and one score per accepted move.
  std::vector<std::uint8_t> history_cells_;
  std::vector<std::int64_t> history_scores_;
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
