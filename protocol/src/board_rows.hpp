// A board's cells as JSON rows, top row first: GameView's `board` and a
// finished practice game's starting board are written alike.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

namespace tilecrush::protocol::detail {

// `cells` row by row, width * height of them.
nlohmann::json board_rows(const std::vector<int>& cells, int width, int height);

}  // namespace tilecrush::protocol::detail
