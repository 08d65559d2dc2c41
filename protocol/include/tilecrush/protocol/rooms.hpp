// Room messages of protocol.md ("Rooms") built from plain structs the
// server fills in. room_events is in events.hpp with the other event
// messages.
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/types.hpp"

namespace tilecrush::protocol {

enum class RoomState : std::uint8_t { lobby, playing, finished };

std::string_view to_string(RoomState state);

struct RoomPlayer {
  std::string name;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  bool over = false;
  bool connected = true;
};

struct RoomView {
  std::string code;
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  std::string host;  // the host's name
  RoomState state = RoomState::lobby;
  std::vector<RoomPlayer> players;
  std::int64_t spectators = 0;
};

struct RoomProgress {
  std::string code;
  std::string player;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  bool over = false;
};

struct Standing {
  int rank = 0;
  std::string player;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
};

// RoomView: {code, mode, preset, seed, host, state, players: [{name, score,
// move_count, over, connected}], spectators}.
nlohmann::json room_view(const RoomView& room);

// Direct answer to create_room / join_room / leave_room:
// {type: "room", id, room}. `games` ({name: GameView}, built with
// game_view()) is added when given: for a spectator joining a playing room.
nlohmann::json room_reply(const nlohmann::json& id, const RoomView& room,
                          std::optional<nlohmann::json> games = std::nullopt);

// Pushes (no id):
// {type: "room_started", code, game} to a player (their own GameView);
nlohmann::json room_started(std::string_view code, nlohmann::json game_view);
// {type: "room_started", code, games: {name: GameView}} to a spectator;
nlohmann::json room_started_spectator(std::string_view code, nlohmann::json games);
// {type: "room_progress", code, player, score, move_count, over};
nlohmann::json room_progress(const RoomProgress& progress);
// {type: "room_finished", code, standings: [{rank, player, score, move_count}]}.
nlohmann::json room_finished(std::string_view code, const std::vector<Standing>& standings);

}  // namespace tilecrush::protocol
