// Hidden colours (rules.md, seed 004): the player sees which cells are
// filled but not their colours. A peek shows one colour for a point; a
// selected cell shows its colour while it stays selected. Selecting a whole
// group removes it (+10 per cell), the cells above fall, and columns close up
// only with the practice option `compress`. +1000 when the board is cleared.
//
// Nothing this class exposes to a player depends on a colour the player has
// not revealed: visible_board() (and so state_hash()) shows -1 for every
// filled cell that is not selected, events carry a colour only in the answer
// to a peek or a select of that very cell, and refusal reasons depend only on
// what the player already sees (the fact of a refusal says what the rules say).
#include <algorithm>
#include <array>

#include "board_ops.hpp"
#include "modes.hpp"

namespace tilecrush::game::detail {
namespace {

constexpr std::int64_t kPointsPerCell = 10;
constexpr std::int64_t kPeekCost = 1;
constexpr std::int64_t kClearBonus = 1000;

class HiddenGame final : public Game {
 public:
  HiddenGame(const GameSetup& setup, Board board, int colors)
      : Game(setup, std::move(board), colors), selected_mask_(board_.cells().size(), false) {
    end_if_stuck_at_start();
  }

  std::vector<int> visible_board() const override {
    std::vector<int> view(board_.cells().size());
    for (std::size_t i = 0; i < view.size(); ++i) {
      const std::uint8_t c = board_.cells()[i];
      view[i] = c == 0 ? 0 : (selected_mask_[i] ? static_cast<int>(c) : -1);
    }
    return view;
  }

  std::int64_t peeks() const override { return peeks_; }
  std::vector<Point> selected() const override { return selection_; }

  std::vector<Move> legal_moves() const override {
    std::vector<Move> moves;
    if (over()) return moves;
    for (int y = 0; y < board_.height(); ++y) {
      for (int x = 0; x < board_.width(); ++x) {
        const Point p{x, y};
        if (board_.at(x, y) == 0) continue;
        moves.push_back(Move{MoveKind::peek, p, {}});
        if (is_selected(p)) {
          if (check_unselect(p).ok()) moves.push_back(Move{MoveKind::unselect, p, {}});
        } else if (check_select(p).ok()) {
          moves.push_back(Move{MoveKind::select, p, {}});
        }
      }
    }
    return moves;
  }

  std::unique_ptr<Game> clone() const override { return std::make_unique<HiddenGame>(*this); }

 protected:
  bool accepts(MoveKind kind) const override {
    return kind == MoveKind::peek || kind == MoveKind::select || kind == MoveKind::unselect;
  }

  Outcome do_apply(const Move& move, EventList& events) override {
    switch (move.kind) {
      case MoveKind::peek:
        return peek(move.a, events);
      case MoveKind::select:
        return select(move.a, events);
      case MoveKind::unselect:
        return unselect(move.a, events);
      case MoveKind::click:
      case MoveKind::swap:
        break;
    }
    return Outcome::refuse(Status::wrong_mode, "that move does not exist in this mode");
  }

  // A selection in progress always lies inside a group of two or more, and
  // the board changes only when a group goes, so this is exact at any time.
  OverReason check_over() const override {
    if (board_.empty()) return OverReason::cleared;
    if (!ops::has_group_of_two(board_)) return OverReason::no_moves;
    return OverReason::none;
  }

  std::int64_t end_bonus(OverReason reason) const override {
    return reason == OverReason::cleared ? kClearBonus : 0;
  }

 private:
  std::size_t index(Point p) const {
    return static_cast<std::size_t>(p.y) * static_cast<std::size_t>(board_.width()) +
           static_cast<std::size_t>(p.x);
  }
  bool filled(Point p) const { return board_.contains(p.x, p.y) && board_.at(p.x, p.y) != 0; }
  bool is_selected(Point p) const { return board_.contains(p.x, p.y) && selected_mask_[index(p)]; }

  static std::array<Point, 4> neighbours(Point p) {
    return {{{p.x - 1, p.y}, {p.x + 1, p.y}, {p.x, p.y - 1}, {p.x, p.y + 1}}};
  }

  // Selected orthogonal neighbours (all selected cells share one colour, so
  // these are the seed's "selected neighbours of the same colour").
  int selected_neighbours(Point p, std::array<Point, 4>& out) const {
    int n = 0;
    for (const Point q : neighbours(p)) {
      if (is_selected(q) && board_.at(q.x, q.y) == board_.at(p.x, p.y)) out[n++] = q;
    }
    return n;
  }

  static Outcome refuse(const char* why) { return Outcome::refuse(Status::invalid_move, why); }

  Outcome check_select(Point p) const {
    if (!board_.contains(p.x, p.y)) return refuse("outside the board");
    if (board_.at(p.x, p.y) == 0) return refuse("no tile there");
    if (is_selected(p)) return refuse("that tile is already selected");
    const std::uint8_t color = board_.at(p.x, p.y);
    if (selection_.empty()) {
      for (const Point q : neighbours(p)) {
        if (board_.contains(q.x, q.y) && board_.at(q.x, q.y) == color) return Outcome::success();
      }
      return refuse("that tile cannot be selected");
    }
    bool next_to_selection = false;
    for (const Point q : neighbours(p)) {
      if (!is_selected(q)) continue;
      next_to_selection = true;
      if (board_.at(q.x, q.y) == color) return Outcome::success();
    }
    // Which of the two reasons applies is visible to the player already.
    return refuse(next_to_selection ? "that tile cannot be selected"
                                    : "select a tile next to the selection");
  }

  Outcome check_unselect(Point p) const {
    if (!is_selected(p)) return refuse("that tile is not selected");
    std::array<Point, 4> near{};
    const int n = selected_neighbours(p, near);
    if (n <= 1) return Outcome::success();
    if (n >= 3) return refuse("a tile with three or more selected neighbours cannot be unselected");
    if (!connected_without(p, near[0]))
      return refuse("unselecting that tile would split the selection");
    return Outcome::success();
  }

  // True when every selected cell but `removed` is reachable from `start`
  // through selected cells other than `removed`.
  bool connected_without(Point removed, Point start) const {
    std::vector<bool> seen(selected_mask_.size(), false);
    seen[index(removed)] = true;
    seen[index(start)] = true;
    std::vector<Point> frontier{start};
    std::size_t reached = 1;
    while (!frontier.empty()) {
      const Point c = frontier.back();
      frontier.pop_back();
      for (const Point q : neighbours(c)) {
        if (!is_selected(q) || seen[index(q)]) continue;
        seen[index(q)] = true;
        ++reached;
        frontier.push_back(q);
      }
    }
    return reached + 1 == selection_.size();
  }

  Outcome peek(Point p, EventList& events) {
    if (!board_.contains(p.x, p.y)) return refuse("outside the board");
    if (board_.at(p.x, p.y) == 0) return refuse("no tile there");
    ++peeks_;
    score_ -= kPeekCost;
    events.emplace_back(PeekEvent{p.x, p.y, board_.at(p.x, p.y)});
    events.emplace_back(ScoreEvent{-kPeekCost, score_});
    return Outcome::success();
  }

  Outcome select(Point p, EventList& events) {
    if (const Outcome refused = check_select(p); !refused.ok()) return refused;
    selected_mask_[index(p)] = true;
    selection_.push_back(p);
    events.emplace_back(SelectEvent{p.x, p.y, board_.at(p.x, p.y)});
    if (selection_is_whole_group()) remove_selection(events);
    return Outcome::success();
  }

  Outcome unselect(Point p, EventList& events) {
    if (const Outcome refused = check_unselect(p); !refused.ok()) return refused;
    selected_mask_[index(p)] = false;
    selection_.erase(std::find(selection_.begin(), selection_.end(), p));
    events.emplace_back(UnselectEvent{p.x, p.y});
    return Outcome::success();
  }

  bool selection_is_whole_group() const {
    for (const Point p : selection_) {
      const std::uint8_t color = board_.at(p.x, p.y);
      for (const Point q : neighbours(p)) {
        if (board_.contains(q.x, q.y) && board_.at(q.x, q.y) == color && !is_selected(q))
          return false;
      }
    }
    return true;
  }

  void remove_selection(EventList& events) {
    for (const Point p : selection_) {
      board_.set(p.x, p.y, 0);
      selected_mask_[index(p)] = false;
    }
    const std::int64_t delta = kPointsPerCell * static_cast<std::int64_t>(selection_.size());
    score_ += delta;
    events.emplace_back(RemoveEvent{std::move(selection_), 0});
    selection_.clear();
    events.emplace_back(ScoreEvent{delta, score_});

    FallEvent fall;
    ops::apply_gravity(board_, fall.moves);
    if (!fall.moves.empty()) events.emplace_back(std::move(fall));
    if (setup_.compress) {
      ShiftEvent shift;
      ops::compress_columns(board_, shift.moves);
      if (!shift.moves.empty()) events.emplace_back(std::move(shift));
    }
  }

  // One flag per cell (row-major) and the same cells in selection order.
  std::vector<bool> selected_mask_;
  std::vector<Point> selection_;
  std::int64_t peeks_ = 0;
};

}  // namespace

std::unique_ptr<Game> make_hidden_game(const GameSetup& setup, std::optional<Board> board,
                                       int width, int height, int colors, Rng rng) {
  Board start;
  if (board) {
    start = std::move(*board);
    std::vector<std::array<int, 3>> falls;
    ops::apply_gravity(start, falls);
    if (setup.compress) {
      std::vector<std::array<int, 2>> shifts;
      ops::compress_columns(start, shifts);
    }
  } else {
    start = deal_uniform(width, height, colors, rng);
  }
  return std::make_unique<HiddenGame>(setup, std::move(start), colors);
}

}  // namespace tilecrush::game::detail
