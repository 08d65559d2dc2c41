// RoomManager: the room map and indexes, create / leave / start, progress of
// the room games. Joins are in room_join.cpp, disconnects and cleanup in
// room_cleanup.cpp.
#include "rooms/room_manager.hpp"

#include <algorithm>
#include <atomic>

#include "play/ids.hpp"
#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

using protocol::ErrorCode;

// One start_room between the room entering `starting` and its games being
// durable.
struct RoomManager::StartState {
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

RoomManager::RoomManager(GameService& games, net::any_io_executor timer_executor, NowFn now,
                         RoomLimits limits, std::string node_id)
    : games_(games),
      now_(std::move(now)),
      limits_(limits),
      node_id_(std::move(node_id)),
      claims_generation_(games.db().room_claims_generation()),
      timer_(std::move(timer_executor)) {
  games_.subscribe(*this);
  schedule_sweep();
}

RoomManager::~RoomManager() {
  games_.unsubscribe(*this);
}

void RoomManager::schedule_sweep() {
  timer_.expires_after(limits_.sweep_every);
  timer_.async_wait([this](error_code ec) {
    if (ec) return;
    sweep();
    schedule_sweep();
  });
}

std::shared_ptr<Room> RoomManager::find(const std::string& code) const {
  std::lock_guard map(map_mutex_);
  const auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second;
}

std::size_t RoomManager::room_count() const {
  std::lock_guard map(map_mutex_);
  return rooms_.size();
}

std::size_t RoomManager::indexed_players() const {
  std::lock_guard map(map_mutex_);
  return by_player_.size();
}

void RoomManager::index_add(std::int64_t player_id, const std::string& code) {
  std::lock_guard map(map_mutex_);
  std::vector<std::string>& codes = by_player_[player_id];
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
}

void RoomManager::index_remove(std::int64_t player_id, const std::string& code) {
  std::lock_guard map(map_mutex_);
  const auto it = by_player_.find(player_id);
  if (it == by_player_.end()) return;
  std::erase(it->second, code);
  if (it->second.empty()) by_player_.erase(it);
}

void RoomManager::release_open_locked(Room& room) {
  if (!room.counted_open) return;
  room.counted_open = false;
  std::lock_guard map(map_mutex_);
  const auto it = hosted_.find(room.creator_id);
  if (it != hosted_.end() && --it->second == 0) hosted_.erase(it);
}

void RoomManager::remove_room_locked(Room& room) {
  if (room.removed) return;
  room.removed = true;
  // A finished room's open state went with its result (finish_locked). The
  // claim goes once the removal is committed, so that no node takes over a
  // room whose removal is still queued.
  storage::Database& db = games_.db();
  if (room.phase != RoomPhase::finished) {
    {
      std::lock_guard removing(removing_->mutex);
      removing_->codes.insert(room.code);
    }
    db.remove_open_room(room.code,
                        [removing = removing_, &db, code = room.code](const storage::WriteResult&) {
                          db.release_room(code);
                          std::lock_guard lock(removing->mutex);
                          removing->codes.erase(code);
                        });
  } else {
    db.release_room(room.code);
  }
  release_open_locked(room);
  {
    std::lock_guard map(map_mutex_);
    const auto it = rooms_.find(room.code);
    if (it != rooms_.end() && it->second.get() == &room) rooms_.erase(it);
  }
  for (const RoomPlayerEntry& p : room.players) index_remove(p.player_id, room.code);
  for (const RoomSpectatorEntry& s : room.spectators) index_remove(s.player_id, room.code);
}

void RoomManager::refuse(const RequestPtr& req, ErrorCode code, std::string_view message) {
  req->fail(code, message);
}

void RoomManager::answer(const RequestPtr& req, std::string text) {
  req->answer_text(std::move(text));
}

void RoomManager::create(const RequestPtr& req, const protocol::CreateRoom& cmd) {
  const std::int64_t player_id = *req->state().player_id;
  game::GameSetup setup;
  setup.mode = cmd.mode;
  setup.preset = cmd.preset;
  setup.seed = cmd.seed.value_or(random_seed());
  // The parser checked the preset; dealing once here means start cannot fail
  // on the setup.
  if (!game::create_game(setup).game) {
    return refuse(req, ErrorCode::bad_request, "this board cannot be dealt");
  }
  const std::int64_t now = now_();
  give_up_if_claims_lost();
  // A code nobody uses: not in memory here, claimed by this node (so no
  // other node serves it), and not stored as another node's open room.
  storage::Database& db = games_.db();
  std::string code;
  for (int tries = 0;; ++tries) {
    code = random_room_code();
    if (find(code)) continue;
    if (tries >= 16) return refuse(req, ErrorCode::internal, "no room code is free");
    if (!db.claim_room(code)) continue;
    bool stored = false;
    try {
      stored = db.find_open_room(code).has_value();
    } catch (const std::exception&) {
      stored = true;
    }
    if (!stored) break;
    db.release_room(code);
  }
  // Locked before anyone can see it, and before the map lock (the order
  // every path takes them in): its first stored state is queued before any
  // other change of it.
  auto room = std::make_shared<Room>(code, setup, player_id, now);
  std::unique_lock lock(room->mutex);
  RoomPlayerEntry host;
  host.player_id = player_id;
  host.name = req->state().player_name;
  host.link.attach(req->conn());
  room->players.push_back(std::move(host));
  bool admitted = false;
  {
    std::lock_guard map(map_mutex_);
    const auto hosted = hosted_.find(player_id);
    if ((hosted == hosted_.end() || hosted->second < limits_.max_open_rooms_hosted) &&
        !rooms_.contains(code)) {
      rooms_.emplace(code, room);
      ++hosted_[player_id];
      by_player_[player_id].push_back(code);
      admitted = true;
    }
  }
  if (!admitted) {
    lock.unlock();
    db.release_room(code);
    return refuse(
        req, ErrorCode::not_allowed,
        "you already host " + std::to_string(limits_.max_open_rooms_hosted) + " open rooms");
  }
  store_locked(*room);
  std::string text = protocol::dump(protocol::room_reply(req->id(), room->view()));
  lock.unlock();
  answer(req, std::move(text));
}

void RoomManager::leave(const RequestPtr& req, const protocol::LeaveRoom& cmd) {
  const std::int64_t player_id = *req->state().player_id;
  std::unique_lock<std::mutex> lock;
  auto room = lock_room(req, cmd.code, lock);
  if (!room) return;
  RoomPlayerEntry* player = room->find_player(player_id);
  const bool spectator = room->find_spectator(player_id) != nullptr;
  if (!spectator && (!player || (player->left && !player->link.connected()))) {
    lock.unlock();
    return refuse(req, ErrorCode::not_allowed, "you are not in this room");
  }
  bool left_the_race = false;
  if (spectator) {
    room->remove_spectator(player_id);
  } else if (room->phase == RoomPhase::lobby) {
    room->remove_player(player_id);
  } else {
    // Once games exist the player stays listed, with their score so far.
    left_the_race = !player->over() && room->phase != RoomPhase::finished;
    if (room->phase != RoomPhase::finished) player->left = true;
    player->link.detach(now_());
  }
  if (!room->has_member(player_id)) index_remove(player_id, room->code);
  std::string text = protocol::dump(protocol::room_reply(req->id(), room->view()));
  if (room->phase == RoomPhase::lobby && room->players.empty()) remove_room_locked(*room);
  if (!spectator) store_locked(*room);
  room->push_all(room->update_text());
  if (left_the_race) after_player_left_locked(*room);
  lock.unlock();
  answer(req, std::move(text));
}

void RoomManager::after_player_left_locked(Room& room) {
  if (room.phase == RoomPhase::playing && room.all_over()) finish_locked(room);
}

void RoomManager::start(const RequestPtr& req, const protocol::StartRoom& cmd) {
  const std::int64_t player_id = *req->state().player_id;
  auto room = find(normalize_room_code(cmd.code));
  if (!room) return refuse(req, ErrorCode::not_found, "no such room");
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
      return refuse(req, code, refusal);
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
      return refuse(req, ErrorCode::internal, "could not deal the room's games");
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

void RoomManager::complete_start(const std::shared_ptr<StartState>& state) {
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
  store_locked(room);
  if (room.all_over()) finish_locked(room);
  lock.unlock();
  state->answer->send_text(std::move(text));
}

void RoomManager::finish_locked(Room& room) {
  room.phase = RoomPhase::finished;
  room.finished_at = now_();
  room.results = room.current_results();
  room.push_all(room.finished_text());
  release_open_locked(room);

  storage::RoomRecord record;
  record.code = room.code;
  record.mode = room.setup.mode;
  record.preset = room.setup.preset;
  record.seed = room.setup.seed;
  record.host_player_id = room.creator_id;
  record.created_at = room.created_at;
  record.finished_at = room.finished_at;
  for (const RoomResult& r : room.results) {
    storage::RoomStanding s;
    s.rank = r.standing.rank;
    s.player_id = r.player_id;
    s.score = r.standing.score;
    s.move_count = r.standing.move_count;
    if (!r.game_id.empty()) s.game_id = r.game_id;
    record.standings.push_back(std::move(s));
  }
  // Queued after the last game's finish_game (queued before this call), so
  // every game it names is stored first; the open room goes in the same
  // operation, so a restart finds either the open room or its result.
  games_.db().finish_open_room(std::move(record));
}

void RoomManager::on_game_progress(LiveGame& live, const game::EventList& events) {
  if (!live.room_code) return;
  auto room = find(*live.room_code);
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
  if (p->game_over && room->all_over()) finish_locked(*room);
}

}  // namespace tilecrush::server
