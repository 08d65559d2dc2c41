// Match-3 (rules.md, seeds 001, 002, 003): swap two adjacent tiles to make a
// run of three or more; runs explode in waves (10 * n * wave points each),
// tiles fall, empty cells refill from the game's generator, until the board
// is stable. The board rules themselves live in match3_board.cpp.
#include <algorithm>

#include "match3_board.hpp"
#include "modes.hpp"
#include "undo_checkpoints.hpp"

namespace tilecrush::game::detail {
namespace {

class Match3Game final : public Game {
 public:
  Match3Game(const GameSetup& setup, Board board, int colors, std::optional<int> budget,
             bool refill, Rng rng)
      : Game(setup, std::move(board), colors),
        budget_(budget),
        refill_(refill),
        undoable_(!setup.ranked()),
        rng_(rng) {
    end_if_stuck_at_start();
  }

  std::optional<int> moves_left() const override {
    if (!budget_) return std::nullopt;
    return *budget_ - static_cast<int>(move_count());
  }

  // The first valid swap in scan order (match3::first_valid_swap): cells
  // row-major from the top-left, each with its right neighbour, then with
  // the one below.
  Outcome hint(Hint& out) const override {
    if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
    if (!match3::first_valid_swap(board_, out.move)) {
      return Outcome::refuse(Status::not_allowed, "no move left");
    }
    return Outcome::success();
  }

  Outcome undo() override {
    if (!undoable_) return Outcome::refuse(Status::not_allowed, "no undo in ranked match-3");
    // The state before the last move: from the nearest snapshot, replay the
    // swaps after it (refills included: the generator is in the snapshot).
    EventList ignored;
    return undo_.undo_last(
        over(), moves_,
        [&](const Snapshot& from) {
          from.restore(board_, score_);
          rng_ = from.rng;
        },
        [&](std::size_t i) {
          ignored.clear();
          swap_and_resolve(moves_[i].a, moves_[i].b, ignored);
        });
  }

  // Every valid swap once, as the pair {a, b} with b right of or below a.
  std::vector<Move> legal_moves() const override {
    if (over()) return {};
    return match3::valid_swaps(board_);
  }

  std::unique_ptr<Game> clone() const override { return std::make_unique<Match3Game>(*this); }

 protected:
  bool accepts(MoveKind kind) const override { return kind == MoveKind::swap; }

  Outcome do_apply(const Move& move, EventList& events) override {
    const Point a = move.a;
    const Point b = move.b;
    if (!board_.contains(a.x, a.y) || !board_.contains(b.x, b.y)) {
      return Outcome::refuse(Status::invalid_move, "outside the board");
    }
    if (!match3::swappable(board_, a, b)) {
      if (board_.at(a.x, a.y) == 0 || board_.at(b.x, b.y) == 0) {
        return Outcome::refuse(Status::invalid_move, "no tile there");
      }
      return Outcome::refuse(Status::invalid_move, "the tiles are not next to each other");
    }
    if (!match3::swap_makes_run(board_, a, b)) {
      return Outcome::refuse(Status::invalid_move, "the swap makes no run");
    }

    if (undoable_) undo_.before_move(moves_.size(), Snapshot{{board_.cells(), score_}, rng_});
    swap_and_resolve(a, b, events);
    return Outcome::success();
  }

  OverReason check_over() const override {
    if (budget_ && move_count() >= *budget_) return OverReason::out_of_moves;
    if (!match3::has_valid_swap(board_)) return OverReason::no_moves;
    return OverReason::none;
  }

 private:
  struct Snapshot : BoardSnapshot {
    Rng rng;
  };

  // An accepted swap: the tiles change places and the board resolves.
  void swap_and_resolve(Point a, Point b, EventList& events) {
    const std::uint8_t va = board_.at(a.x, a.y);
    board_.set(a.x, a.y, board_.at(b.x, b.y));
    board_.set(b.x, b.y, va);
    events.emplace_back(SwapEvent{a, b});
    match3::resolve(board_, colors_, refill_, rng_, match3::Resolution{&score_, &events});
  }

  std::optional<int> budget_;
  bool refill_;
  // Ranked games refuse undo, so they keep no history.
  bool undoable_;
  // Continues from the deal: every refill draws from it.
  Rng rng_;
  // Undo snapshots (of practice games only).
  UndoCheckpoints<Snapshot> undo_;
};

}  // namespace

std::unique_ptr<Game> make_match3_game(const GameSetup& setup, std::optional<Board> board,
                                       int width, int height, int colors,
                                       std::optional<int> move_budget, bool refill, Rng rng) {
  Board start;
  if (board) {
    start = std::move(*board);
    match3::stabilise(start, colors, refill, rng);
  } else {
    start = match3::deal(width, height, colors, rng);
  }
  return std::make_unique<Match3Game>(setup, std::move(start), colors, move_budget, refill, rng);
}

}  // namespace tilecrush::game::detail
