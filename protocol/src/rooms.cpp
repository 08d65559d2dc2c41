#include "tilecrush/protocol/rooms.hpp"

namespace tilecrush::protocol {

using nlohmann::json;

namespace {

constexpr game::EnumNames kRoomStateNames(RoomState::finished, {"lobby", "playing", "finished"});

}  // namespace

std::string_view to_string(RoomState state) {
  return game::name_of(kRoomStateNames, state, "lobby");
}

json room_view(const RoomView& room) {
  json players = json::array();
  for (const RoomPlayer& p : room.players) {
    players.push_back({{"name", p.name},
                       {"score", p.score},
                       {"move_count", p.move_count},
                       {"over", p.over},
                       {"connected", p.connected}});
  }
  return {{"code", room.code},
          {"mode", game::to_string(room.mode)},
          {"preset", room.preset},
          {"seed", room.seed},
          {"host", room.host},
          {"state", to_string(room.state)},
          {"players", std::move(players)},
          {"spectators", room.spectators}};
}

json room_reply(const json& id, const RoomView& room, std::optional<json> games) {
  json out{{"type", "room"}, {"id", id}, {"room", room_view(room)}};
  if (games) out["games"] = std::move(*games);
  return out;
}

json room_started(std::string_view code, json game_view) {
  return {{"type", "room_started"}, {"code", code}, {"game", std::move(game_view)}};
}

json room_started_spectator(std::string_view code, json games) {
  return {{"type", "room_started"}, {"code", code}, {"games", std::move(games)}};
}

json room_progress(const RoomProgress& progress) {
  return {{"type", "room_progress"},           {"code", progress.code},
          {"player", progress.player},         {"score", progress.score},
          {"move_count", progress.move_count}, {"over", progress.over}};
}

json room_finished(std::string_view code, const std::vector<Standing>& standings) {
  json rows = json::array();
  for (const Standing& s : standings) {
    rows.push_back(
        {{"rank", s.rank}, {"player", s.player}, {"score", s.score}, {"move_count", s.move_count}});
  }
  return {{"type", "room_finished"}, {"code", code}, {"standings", std::move(rows)}};
}

}  // namespace tilecrush::protocol
