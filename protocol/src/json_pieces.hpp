// Pieces of JSON several of the protocol's messages share, written once.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "tilecrush/game/types.hpp"

namespace tilecrush::protocol::detail {

// The value, or null when there is none: optional fields are written as
// null, never left out.
template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// [x, y]: a cell in events, selections, previews and hints.
inline nlohmann::json point_json(game::Point p) {
  return nlohmann::json::array({p.x, p.y});
}

// `cells` row by row, width * height of them, top row first: GameView's
// `board` and a finished practice game's starting board are written alike.
nlohmann::json board_rows(const std::vector<int>& cells, int width, int height);

}  // namespace tilecrush::protocol::detail
