#include "http/api_json.hpp"

#include "ops/clock.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server::api {

using nlohmann::json;

HttpAnswer ok_json(const json& body, unsigned status) {
  return {status, protocol::dump(body)};
}

HttpAnswer error_answer(int status, protocol::ErrorCode code, std::string_view message) {
  return {static_cast<unsigned>(status), protocol::http_error_body(code, message)};
}

HttpAnswer error_answer(const protocol::HttpError& e) {
  return {static_cast<unsigned>(e.status), protocol::http_error_body(e)};
}

json entry_json(const storage::LeaderboardEntry& e) {
  return {{"rank", e.rank},
          {"player", e.player},
          {"score", e.score},
          {"move_count", e.move_count},
          {"duration_ms", e.duration_ms},
          {"attempts", e.attempts},
          {"game_id", e.game_id},
          {"finished_at", iso_time(e.finished_at)}};
}

json page_json(const storage::BoardKey& board, const storage::LeaderboardPage& page) {
  json entries = json::array();
  for (const auto& e : page.entries) entries.push_back(entry_json(e));
  return {{"mode", game::to_string(board.mode)},
          {"preset", board.preset},
          {"seed", board.seed},
          {"total", page.total},
          {"entries", std::move(entries)}};
}

json move_json(const game::Move& m) {
  json out = json::array({game::to_string(m.kind), m.a.x, m.a.y});
  if (m.kind == game::MoveKind::swap) {
    out.push_back(m.b.x);
    out.push_back(m.b.y);
  }
  return out;
}

json moves_json(const std::vector<game::Move>& moves) {
  json out = json::array();
  for (const auto& m : moves) out.push_back(move_json(m));
  return out;
}

json board_json(const std::vector<int>& cells, int width) {
  json rows = json::array();
  for (std::size_t i = 0; i < cells.size(); i += static_cast<std::size_t>(width)) {
    rows.push_back(std::vector<int>(cells.begin() + static_cast<std::ptrdiff_t>(i),
                                    cells.begin() + static_cast<std::ptrdiff_t>(i) + width));
  }
  return rows;
}

}  // namespace tilecrush::server::api
