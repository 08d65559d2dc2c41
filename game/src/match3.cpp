#include "modes.hpp"

namespace tilecrush::game::detail {

std::unique_ptr<Game> make_match3_game(const GameSetup&, std::optional<Board>, int, int, int,
                                       std::optional<int>, bool, Rng) {
  return nullptr;  // TODO(match3 helper)
}

}  // namespace tilecrush::game::detail
