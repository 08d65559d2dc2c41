// Pieces of JSON the HTTP API's answers share (docs/protocol.md, "HTTP
// API"): error answers, leaderboard pages, moves and boards.
//
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "net/http_session.hpp"
#include "tilecrush/protocol/errors.hpp"
#include "tilecrush/protocol/http_query.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::server::api {

HttpAnswer ok_json(const nlohmann::json& body, unsigned status = 200);
HttpAnswer error_answer(int status, protocol::ErrorCode code, std::string_view message);
HttpAnswer error_answer(const protocol::HttpError& e);

nlohmann::json entry_json(const storage::LeaderboardEntry& e);
// {mode, preset, seed, total, entries}
nlohmann::json page_json(const storage::BoardKey& board, const storage::LeaderboardPage& page);
// ["click", x, y], ["swap", x1, y1, x2, y2], ...
nlohmann::json move_json(const game::Move& m);
nlohmann::json moves_json(const std::vector<game::Move>& moves);
nlohmann::json board_json(const std::vector<int>& cells, int width);

}  // namespace tilecrush::server::api
