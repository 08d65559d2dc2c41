// RoomRaces: start_room, and the progress of the room games.
#include "rooms/room_races.hpp"

#include <atomic>

#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

using protocol::ErrorCode;

// One start_room between the room entering `starting` and its games being
// durable.
struct RoomRaces::StartState {
  // The starter's connection and answer: the room's pushes and the answer
  // leave from its thread. (Not the Request: the starter reads on meanwhile.)
  std::shared_ptr<Connection> conn;
  std::shared_ptr<Answer> answer;
  std::shared_ptr<Room> room;
  std::vector<std::int64_t> player_ids;  // the players when the start began
  std::vector<std::string> names;
  std::vector<std::shared_ptr<LiveGame>> games;  // same order
  std::vector<nlohmann::json> views;             // each game's starting view
  std::atomic<std::size_t> remaining{0};
  std::atomic<bool> failed{false};
};

RoomRaces::RoomRaces(GameService& games, RoomRegistry& registry, RoomStore& store, NowFn now)
    : games_(games), registry_(registry), store_(store), now_(std::move(now)) {}

void RoomRaces::start(const RequestPtr& req, const protocol::StartRoom& cmd) {
  const std::int64_t player_id = *req->state().player_id;
  auto room = registry_.find(normalize_room_code(cmd.code));
  if (!room) return req->fail(ErrorCode::not_found, "no such room");
  auto state = std::make_shared<StartState>();
  state->conn = req->conn();
  state->answer = req->defer();
  state->room = room;
  {
    std::unique_lock lock(room->mutex);
    std::string refusal;
    ErrorCode code = ErrorCode::not_allowed;
    if (room->removed) {
      code = ErrorCode::not_found;
      refusal = "no such room";
    } else if (room->host_id != player_id) {
      refusal = "only the host can start the room";
    } else if (room->phase != RoomPhase::lobby) {
      refusal = "the room has already started";
    }
    if (!refusal.empty()) {
      lock.unlock();
      return req->fail(code, refusal);
    }
    room->phase = RoomPhase::starting;
    for (const RoomPlayerEntry& p : room->players) {
      state->player_ids.push_back(p.player_id);
      state->names.push_back(p.name);
    }
  }
  // Dealing takes a while on big boards: done without any lock, the room
  // being in `starting` keeps others out meanwhile.
  for (std::size_t i = 0; i < state->player_ids.size(); ++i) {
    std::string error;
    auto live =
        games_.make_game(room->setup, state->player_ids[i], state->names[i], room->code, &error);
    if (!live) {
      {
        std::lock_guard lock(room->mutex);
        room->phase = RoomPhase::lobby;
      }
      return req->fail(ErrorCode::internal, "could not deal the room's games");
    }
    state->views.push_back(protocol::game_view(*live->game, live->view_meta(0)));
    state->games.push_back(std::move(live));
  }
  state->remaining = state->games.size();
  for (const auto& live : state->games) {
    // Every game is durable before anyone is told about it, as new_game
    // does; the players learn their game ids only from room_started.
    games_.register_game(live, [this, state](const storage::WriteResult& r) {
      if (!r.ok()) state->failed = true;
      if (--state->remaining > 0) return;
      net::post(state->conn->executor(), [this, state]() { complete_start(state); });
    });
  }
}

void RoomRaces::complete_start(const std::shared_ptr<StartState>& state) {
  Room& room = *state->room;
  std::unique_lock lock(room.mutex);
  if (state->failed || room.removed) {
    if (!room.removed) room.phase = RoomPhase::lobby;
    lock.unlock();
    return state->answer->fail(ErrorCode::internal, "could not save the room's games");
  }
  room.phase = RoomPhase::playing;
  room.last_activity = now_();
  nlohmann::json all_games = nlohmann::json::object();
  for (std::size_t i = 0; i < state->games.size(); ++i) {
    const nlohmann::json& view = state->views[i];
    all_games[state->names[i]] = view;
    RoomPlayerEntry* p = room.find_player(state->player_ids[i]);
    if (!p) continue;
    p->game_id = state->games[i]->id;
    p->score = view["score"].get<std::int64_t>();
    p->move_count = view["move_count"].get<std::int64_t>();
    p->game_over = view["over"].get<bool>();
    p->link.push(protocol::dump(protocol::room_started(room.code, view)));
  }
  room.push_spectators(protocol::dump(protocol::room_started_spectator(room.code, all_games)));
  std::string text = protocol::dump(protocol::room_reply(state->answer->id(), room.view()));
  // Every game it names is durable by now (this runs after their commits).
  store_.save_locked(room);
  if (room.all_over()) store_.finish_locked(room);
  lock.unlock();
  state->answer->send_text(std::move(text));
}

void RoomRaces::on_game_progress(LiveGame& live, const game::EventList& events) {
  if (!live.room_code) return;
  auto room = registry_.find(*live.room_code);
  if (!room) return;
  std::lock_guard lock(room->mutex);
  if (room->removed || room->phase != RoomPhase::playing) return;
  RoomPlayerEntry* p = room->find_player(live.player_id);
  if (!p || p->left || p->game_id != live.id) return;
  const game::Game& g = *live.game;
  const std::int64_t now = now_();
  p->score = g.score();
  p->move_count = g.move_count();
  p->game_over = g.over();
  room->last_activity = now;
  if (events.empty()) {
    // An undo: events cannot express it, so spectators get the whole view.
    room->push_spectators(protocol::dump({{"type", "room_game"},
                                          {"code", room->code},
                                          {"player", p->name},
                                          {"game", protocol::game_view(g, live.view_meta(now))}}));
  } else {
    room->push_spectators(protocol::room_events_text(room->code, p->name, g, events));
  }
  room->push_all(protocol::dump(
      protocol::room_progress({room->code, p->name, p->score, p->move_count, p->over()})));
  if (p->game_over && room->all_over()) store_.finish_locked(*room);
}

}  // namespace tilecrush::server
