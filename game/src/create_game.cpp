// create_game() and replay() (declared in game.hpp): a setup's validation,
// the board's generator, and the hand-over to the mode's factory
// (modes.hpp). Kept apart from game.cpp (the Game base class, which every
// mode builds on) because this is the one file that knows every mode.
#include <string>

#include "modes.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {

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
