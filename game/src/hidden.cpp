#include "modes.hpp"

namespace tilecrush::game::detail {

std::unique_ptr<Game> make_hidden_game(const GameSetup&, std::optional<Board>, int, int, int, Rng) {
  return nullptr;  // TODO(hidden helper)
}

}  // namespace tilecrush::game::detail
