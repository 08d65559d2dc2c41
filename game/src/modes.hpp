// Factories of the three modes, called by create_game() once the setup is
// validated and the generator seeded. Internal to the engine.
#pragma once

#include <memory>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/rng.hpp"

namespace tilecrush::game::detail {

// `board` is the custom board as given, or nullopt to deal one from `rng`.
// `colors` is K (for a custom board: its highest colour).
std::unique_ptr<Game> make_same_game(const GameSetup& setup, std::optional<Board> board, int width,
                                     int height, int colors, Rng rng);
std::unique_ptr<Game> make_match3_game(const GameSetup& setup, std::optional<Board> board,
                                       int width, int height, int colors,
                                       std::optional<int> move_budget, bool refill, Rng rng);
std::unique_ptr<Game> make_hidden_game(const GameSetup& setup, std::optional<Board> board,
                                       int width, int height, int colors, Rng rng);

// Deals a W x H board of uniform colours 1..K, row-major from the top row.
Board deal_uniform(int width, int height, int colors, Rng& rng);

}  // namespace tilecrush::game::detail
