#include "tilecrush/game/game.hpp"

#include "tilecrush/game/hash.hpp"

namespace tilecrush::game {

namespace {

constexpr EnumNames kMoveKindNames(MoveKind::unselect,
                                   {"click", "swap", "peek", "select", "unselect"});

}  // namespace

std::string_view to_string(MoveKind kind) {
  return name_of(kMoveKindNames, kind, "click");
}

bool GameSetup::ranked() const {
  return !preset.empty() && !board && refill && !compress;
}

Game::Game(GameSetup setup, Board board, int colors)
    : setup_(std::move(setup)), board_(std::move(board)), colors_(colors) {}

std::optional<int> Game::moves_left() const {
  return std::nullopt;
}

std::vector<int> Game::visible_board() const {
  return std::vector<int>(board_.cells().begin(), board_.cells().end());
}

std::uint64_t Game::state_hash() const {
  return game::state_hash(visible_board(), move_count(), score_);
}

Outcome Game::apply(const Move& move, EventList& events) {
  if (!accepts(move.kind))
    return Outcome::refuse(Status::wrong_mode, "that move does not exist in this mode");
  if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
  const std::size_t first_event = events.size();
  const Outcome outcome = do_apply(move, events);
  if (!outcome.ok()) {
    events.resize(first_event);
    return outcome;
  }
  moves_.push_back(move);
  const OverReason reason = check_over();
  if (reason != OverReason::none) finish(reason, events);
  return outcome;
}

Outcome Game::resign(EventList& events) {
  if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
  finish(OverReason::resigned, events);
  return Outcome::success();
}

Outcome Game::close(EventList& events) {
  if (over()) return Outcome::refuse(Status::not_allowed, "the game is over");
  finish(OverReason::closed, events);
  return Outcome::success();
}

Outcome Game::preview(Point, Preview&) const {
  return Outcome::refuse(Status::wrong_mode, "preview exists only in Same Game");
}

Outcome Game::hint(Hint&) const {
  return Outcome::refuse(Status::not_allowed, "no hint in this mode");
}

Outcome Game::undo() {
  return Outcome::refuse(Status::not_allowed, "no undo in this mode");
}

std::int64_t Game::end_bonus(OverReason) const {
  return 0;
}

void Game::finish(OverReason reason, EventList& events) {
  const bool ended_early = reason == OverReason::resigned || reason == OverReason::closed;
  const std::int64_t bonus = ended_early ? 0 : end_bonus(reason);
  score_ += bonus;
  over_reason_ = reason;
  events.push_back(GameOverEvent{reason, bonus, score_});
}

void Game::end_if_stuck_at_start() {
  over_reason_ = check_over();
}

}  // namespace tilecrush::game
