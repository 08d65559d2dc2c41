#include "tilecrush/game/game.hpp"

#include <string>

#include "modes.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {

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

namespace {

std::string seed_material(const GameSetup& setup, int width, int height, int colors,
                          std::string_view version) {
  std::string material = "tilecrush/";
  material += version;
  material += '/';
  material += to_string(setup.mode);
  material += '/';
  if (!setup.preset.empty()) {
    material += setup.preset;
  } else {
    material += std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(colors);
  }
  material += '/';
  material += setup.seed;
  return material;
}

// rules.md: a board with a key draws from the keyed stream of
// HMAC-SHA-256(key, "tilecrush/v2/<mode>/<preset>/<seed>"); every other
// board from its version 1 material.
Rng board_generator(const GameSetup& setup, int width, int height, int colors) {
  if (setup.board_key) {
    return Rng::keyed(hmac_sha256(std::span<const std::uint8_t>(*setup.board_key),
                                  seed_material(setup, width, height, colors, "v2")));
  }
  return Rng::from_material(seed_material(setup, width, height, colors, "v1"));
}

std::string check_board(const Board& board, const CustomLimits& limits) {
  if (board.width() < limits.min_side || board.width() > limits.max_side ||
      board.height() < limits.min_side || board.height() > limits.max_side) {
    return "board size must be " + std::to_string(limits.min_side) + ".." +
           std::to_string(limits.max_side) + " on each side";
  }
  for (std::uint8_t c : board.cells()) {
    if (c > limits.max_cell) {
      return "board cells must be 0.." + std::to_string(limits.max_cell);
    }
  }
  if (board.empty()) return "board has no tile";
  return {};
}

}  // namespace

CreateResult create_game(const GameSetup& setup) {
  CreateResult result;
  const CustomLimits limits = custom_limits(setup.mode);
  int width = setup.width;
  int height = setup.height;
  int colors = setup.colors;
  std::optional<int> budget = setup.moves;
  bool refill = setup.refill;
  if (setup.seed.empty()) {
    result.error = "a game needs a seed";
    return result;
  }
  if (setup.rules_version < kMinRulesVersion || setup.rules_version > kRulesVersion) {
    result.error = "unknown rules version";
    return result;
  }
  if (setup.board_key && (setup.rules_version < 2 || !setup.ranked())) {
    result.error = "a board key needs rules version 2 and a preset without practice options";
    return result;
  }
  if (setup.mode != Mode::match3 && !setup.refill) {
    result.error = "refill is a match-3 option";
    return result;
  }
  if (setup.mode != Mode::hidden && setup.compress) {
    result.error = "compress is a hidden-mode option";
    return result;
  }
  if (!setup.preset.empty()) {
    const Preset* preset = find_preset(setup.mode, setup.preset);
    if (preset == nullptr) {
      result.error = "unknown preset";
      return result;
    }
    if (setup.board) {
      result.error = "a custom board cannot use a preset";
      return result;
    }
    width = preset->width;
    height = preset->height;
    colors = preset->colors;
    budget = preset->moves;
    refill = refill && preset->refill;
  } else if (setup.board) {
    if (std::string why = check_board(*setup.board, limits); !why.empty()) {
      result.error = why;
      return result;
    }
    width = setup.board->width();
    height = setup.board->height();
    colors = setup.board->max_color();
  } else {
    if (width < limits.min_side || width > limits.max_side || height < limits.min_side ||
        height > limits.max_side) {
      result.error = "width and height must be " + std::to_string(limits.min_side) + ".." +
                     std::to_string(limits.max_side);
      return result;
    }
    if (colors < limits.min_colors || colors > limits.max_colors) {
      result.error = "colors must be " + std::to_string(limits.min_colors) + ".." +
                     std::to_string(limits.max_colors);
      return result;
    }
  }
  if (setup.mode != Mode::match3 && setup.moves) {
    result.error = "a move budget exists only in match-3";
    return result;
  }
  if (setup.preset.empty() && budget && (*budget < kMinMoveBudget || *budget > kMaxMoveBudget)) {
    result.error = "moves must be 1..1000";
    return result;
  }

  Rng rng = board_generator(setup, width, height, colors);
  switch (setup.mode) {
    case Mode::same:
      result.game = detail::make_same_game(setup, setup.board, width, height, colors, rng);
      break;
    case Mode::match3:
      result.game =
          detail::make_match3_game(setup, setup.board, width, height, colors, budget, refill, rng);
      break;
    case Mode::hidden:
      result.game = detail::make_hidden_game(setup, setup.board, width, height, colors, rng);
      break;
  }
  if (!result.game) result.error = "the board could not be set up";
  return result;
}

ReplayResult replay(const GameSetup& setup, const std::vector<Move>& moves) {
  ReplayResult result;
  CreateResult created = create_game(setup);
  if (!created.game) {
    result.error = created.error;
    return result;
  }
  EventList events;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    events.clear();
    const Outcome outcome = created.game->apply(moves[i], events);
    if (!outcome.ok()) {
      result.error = "move " + std::to_string(i + 1) + " refused: " + outcome.reason;
      result.failed_move = i;
      return result;
    }
  }
  result.game = std::move(created.game);
  return result;
}

}  // namespace tilecrush::game

namespace tilecrush::game::detail {

Board deal_uniform(int width, int height, int colors, Rng& rng) {
  Board board(width, height);
  for (auto& cell : board.cells()) cell = rng.color(colors);
  return board;
}

}  // namespace tilecrush::game::detail
