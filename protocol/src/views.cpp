#include "tilecrush/protocol/views.hpp"

#include "json_pieces.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::protocol {

using detail::or_null;
using detail::point_json;
using nlohmann::json;

json detail::board_rows(const std::vector<int>& cells, int width, int height) {
  json rows = json::array();
  for (int y = 0; y < height; ++y) {
    json row = json::array();
    for (int x = 0; x < width; ++x) {
      row.push_back(cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                          static_cast<std::size_t>(x)]);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json game_view(const game::Game& game, const GameViewMeta& meta) {
  const game::GameSetup& setup = game.setup();
  json view{
      {"game_id", meta.game_id},
      {"mode", game::to_string(game.mode())},
      {"preset", setup.preset.empty() ? json(nullptr) : json(setup.preset)},
      {"seed", setup.seed},
      {"ranked", meta.ranked},
      {"width", game.width()},
      {"height", game.height()},
      {"colors", game.colors()},
      {"board", detail::board_rows(game.visible_board(), game.width(), game.height())},
      {"score", game.score()},
      {"move_count", game.move_count()},
      {"moves_left", or_null(game.moves_left())},
      {"over", game.over()},
      {"rules_version", setup.rules_version},
      {"state_hash", game::hash_hex(game.state_hash())},
      {"competition", or_null(meta.competition)},
      {"attempt", meta.attempt > 0 ? json(meta.attempt) : json(nullptr)},
      {"commitment", or_null(meta.commitment)},
  };
  if (game.mode() == game::Mode::hidden) {
    json selected = json::array();
    for (const game::Point& p : game.selected()) selected.push_back(point_json(p));
    view["peeks"] = game.peeks();
    view["selected"] = std::move(selected);
    view["elapsed_ms"] = meta.elapsed_ms;
  }
  return view;
}

game::Board board_from_rows(const json& rows) {
  game::Board board(static_cast<int>(rows.at(0).size()), static_cast<int>(rows.size()));
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      board.set(
          x, y,
          static_cast<std::uint8_t>(
              rows.at(static_cast<std::size_t>(y)).at(static_cast<std::size_t>(x)).get<int>()));
    }
  }
  return board;
}

json welcome(const json& id, const json& player_id, std::string_view name, std::string_view token) {
  return {{"type", "welcome"},
          {"id", id},
          {"player", {{"id", player_id}, {"name", name}}},
          {"token", token}};
}

// Written member by member, each under its own name.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_ONLY_SERIALIZE(RunningView, game_id, competition, mode, preset,
                                                  attempt, ranked, score, move_count, started_at,
                                                  closes_at)

json running_list(const std::vector<RunningView>& games) {
  return games;
}

json running_reply(const json& id, json list) {
  return {{"type", "running"}, {"id", id}, {"running", std::move(list)}};
}

json game_reply(const json& id, json view) {
  return {{"type", "game"}, {"id", id}, {"game", std::move(view)}};
}

json preview_reply(const json& id, std::string_view game_id, const game::Preview& preview) {
  json cells = json::array();
  for (const game::Point& p : preview.cells) cells.push_back(point_json(p));
  return {{"type", "preview"},
          {"id", id},
          {"game_id", game_id},
          {"cells", std::move(cells)},
          {"points", preview.points}};
}

json hint_reply(const json& id, std::string_view game_id, const game::Hint& hint) {
  json out{{"type", "hint"}, {"id", id}, {"game_id", game_id}};
  if (hint.move.kind == game::MoveKind::swap) {
    out["swap"] = json::array({point_json(hint.move.a), point_json(hint.move.b)});
  } else {
    out["click"] = point_json(hint.move.a);
  }
  return out;
}

json pong(const json& id) {
  return {{"type", "pong"}, {"id", id}};
}

json recovery_code_reply(const json& id, std::string_view code) {
  return {{"type", "recovery_code"}, {"id", id}, {"code", code}};
}

json error_reply(const json& id, ErrorCode code, std::string_view message) {
  return {{"type", "error"}, {"id", id}, {"code", to_string(code)}, {"message", message}};
}

json error_reply(const json& id, const Error& error) {
  return error_reply(id, error.code, error.message);
}

json moved_reply(const json& id, std::string_view code, std::string_view node) {
  json reply = error_reply(id, ErrorCode::moved, "the room is served by another node");
  reply["room"] = code;
  reply["node"] = node;
  return reply;
}

std::string dump(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace tilecrush::protocol
