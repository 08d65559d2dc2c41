// RoomManager: membership. Creating a room, joining it (new players and
// spectators, returning members), leaving it, members who go away, and
// reattaching a player who resumes their room game.
//
// A join that must show games (a spectator of a playing room, a player
// coming back) locks those games before the room, as the lock order says:
// with every game of the room locked, no move can happen between the views
// it answers with and the member being added, so the member's first
// room_events is exactly the move after its view. The answer leaves from the
// joiner's thread before that handler returns, so pushes posted to the same
// thread meanwhile follow it on the wire.
#include "rooms/room_manager.hpp"

#include <algorithm>

#include "play/ids.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

using protocol::ErrorCode;

namespace {

constexpr int kMaxRetries = 3;

}  // namespace

RoomManager::RoomManager(GameService& games, storage::Database& db,
                         net::any_io_executor timer_executor, NowFn now, RoomLimits limits,
                         std::string node_id)
    : games_(games),
      now_(now),
      limits_(limits),
      store_(db, registry_, now, std::move(node_id)),
      races_(games, registry_, store_, now),
      sweeper_(registry_, store_, std::move(timer_executor), now, limits) {
  games_.subscribe(*this);
}

RoomManager::~RoomManager() {
  games_.unsubscribe(*this);
}

void RoomManager::refuse(const RequestPtr& req, ErrorCode code, std::string_view message) {
  req->fail(code, message);
}

void RoomManager::answer(const RequestPtr& req, std::string text) {
  req->answer_text(std::move(text));
}

void RoomManager::answer_join(const RequestPtr& req, std::string text, std::string after) {
  answer(req, std::move(text));
  if (!after.empty()) req->conn()->push(std::move(after));
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
  store_.give_up_if_claims_lost();
  // A code nobody uses: not in memory here, claimed by this node (so no
  // other node serves it), and not stored as another node's open room.
  const std::optional<std::string> free_code = store_.claim_new_code();
  if (!free_code) return refuse(req, ErrorCode::internal, "no room code is free");
  const std::string& code = *free_code;
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
  if (!registry_.admit(room, limits_.max_open_rooms_hosted)) {
    lock.unlock();
    store_.release(code);
    return refuse(
        req, ErrorCode::not_allowed,
        "you already host " + std::to_string(limits_.max_open_rooms_hosted) + " open rooms");
  }
  store_.save_locked(*room);
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
  if (!room->has_member(player_id)) registry_.index_remove(player_id, room->code);
  std::string text = protocol::dump(protocol::room_reply(req->id(), room->view()));
  if (room->phase == RoomPhase::lobby && room->players.empty()) store_.remove_locked(*room);
  if (!spectator) store_.save_locked(*room);
  room->push_all(room->update_text());
  if (left_the_race) store_.finish_if_over_locked(*room);
  lock.unlock();
  answer(req, std::move(text));
}

// The games of a playing room, looked up one after the other.
struct RoomManager::GameSet {
  std::vector<std::string> ids;
  std::vector<std::string> names;
  std::vector<std::shared_ptr<LiveGame>> games;
};

namespace {

// Acquires set.ids[i..] in order, then calls `done` on `conn`'s thread.
template <typename Set>
void acquire_from(GameService& service, const std::shared_ptr<Connection>& conn,
                  const std::shared_ptr<Set>& set, std::size_t i, std::function<void()> done) {
  if (i == set->ids.size()) return done();
  service.acquire_game(
      conn, set->ids[i],
      [&service, conn, set, i, done = std::move(done)](std::shared_ptr<LiveGame> live) mutable {
        set->games[i] = std::move(live);
        acquire_from(service, conn, set, i + 1, std::move(done));
      });
}

}  // namespace

std::shared_ptr<Room> RoomManager::lock_room(const RequestPtr& req, const std::string& code,
                                             std::unique_lock<std::mutex>& lock) {
  store_.give_up_if_claims_lost();
  const std::string normal = normalize_room_code(code);
  auto room = registry_.find(normal);
  bool moved = false;
  std::string owner;
  if (!room) room = store_.take_over(normal, moved, owner);
  if (room) {
    lock = std::unique_lock(room->mutex);
    if (!room->removed) return room;
    lock.unlock();
  }
  if (moved) {
    req->moved(normal, owner);
    return nullptr;
  }
  refuse(req, ErrorCode::not_found, "no such room");
  return nullptr;
}

void RoomManager::join(const RequestPtr& req, const protocol::JoinRoom& cmd) {
  const std::int64_t player_id = *req->state().player_id;
  std::unique_lock<std::mutex> lock;
  auto room = lock_room(req, cmd.code, lock);
  if (!room) return;
  const bool lobby = room->phase == RoomPhase::lobby || room->phase == RoomPhase::starting;
  RoomPlayerEntry* player = room->find_player(player_id);
  if (player && !player->left) {
    // A player coming back, whatever `as` says: members keep their role.
    if (!lobby) {
      std::string game_id = player->game_id;
      lock.unlock();
      return rejoin_player(req, room, std::move(game_id));
    }
    player->link.attach(req->conn());
    std::string text = protocol::dump(protocol::room_reply(req->id(), room->view()));
    room->push_others(player_id, room->update_text());
    lock.unlock();
    return answer(req, std::move(text));
  }
  if (!cmd.spectator) {
    std::string refusal;
    if (player) {
      refusal = "you left this room; you may join it as a spectator";
    } else if (room->phase != RoomPhase::lobby) {
      refusal = "the room has started";
    } else if (room->players.size() >= limits_.max_players) {
      refusal = "the room is full";
    }
    if (!refusal.empty()) {
      lock.unlock();
      return refuse(req, ErrorCode::not_allowed, refusal);
    }
    RoomPlayerEntry entry;
    entry.player_id = player_id;
    entry.name = req->state().player_name;
    entry.link.attach(req->conn());
    room->players.push_back(std::move(entry));
    registry_.index_add(player_id, room->code);
    store_.save_locked(*room);
    std::string text = protocol::dump(protocol::room_reply(req->id(), room->view()));
    room->push_others(player_id, room->update_text());
    lock.unlock();
    return answer(req, std::move(text));
  }
  if (!room->find_spectator(player_id) && room->spectators.size() >= limits_.max_spectators) {
    lock.unlock();
    return refuse(req, ErrorCode::not_allowed, "the room has too many spectators");
  }
  if (!lobby) {
    lock.unlock();
    return join_spectator(req, room);
  }
  RoomSpectatorEntry* spectator = room->find_spectator(player_id);
  if (!spectator) {
    room->spectators.push_back({player_id, req->state().player_name, {}});
    spectator = &room->spectators.back();
    registry_.index_add(player_id, room->code);
  }
  spectator->link.attach(req->conn());
  std::string text = protocol::dump(protocol::room_reply(req->id(), room->view()));
  room->push_others(player_id, room->update_text());
  lock.unlock();
  answer(req, std::move(text));
}

void RoomManager::rejoin_player(const RequestPtr& req, const std::shared_ptr<Room>& room,
                                std::string game_id, int attempt) {
  games_.acquire_game(
      req->conn(), game_id, [this, req, room, game_id, attempt](std::shared_ptr<LiveGame> live) {
        if (!live) return refuse(req, ErrorCode::internal, "could not load your room game");
        std::unique_lock game_lock(live->mutex);
        if (live->retired) {
          game_lock.unlock();
          if (attempt >= kMaxRetries) return refuse(req, ErrorCode::internal, "game unavailable");
          return rejoin_player(req, room, game_id, attempt + 1);
        }
        const std::int64_t player_id = *req->state().player_id;
        std::unique_lock lock(room->mutex);
        RoomPlayerEntry* player = room->removed ? nullptr : room->find_player(player_id);
        if (!player || player->left) {
          const ErrorCode code = room->removed ? ErrorCode::not_found : ErrorCode::not_allowed;
          lock.unlock();
          game_lock.unlock();
          return refuse(req, code, "you are no longer in this room");
        }
        player->link.attach(req->conn());
        nlohmann::json reply = protocol::room_reply(req->id(), room->view());
        // Addition to protocol.md: a returning player gets their own game back.
        reply["game"] = protocol::game_view(*live->game, live->view_meta(now_()));
        std::string text = protocol::dump(reply);
        std::string after = room->announce_join(player_id);
        lock.unlock();
        game_lock.unlock();
        answer_join(req, std::move(text), std::move(after));
      });
}

void RoomManager::join_spectator(const RequestPtr& req, const std::shared_ptr<Room>& room,
                                 int attempt) {
  auto set = std::make_shared<GameSet>();
  {
    std::lock_guard lock(room->mutex);
    if (room->removed) {
      set = nullptr;
    } else {
      for (const RoomPlayerEntry& p : room->players) {
        set->ids.push_back(p.game_id);
        set->names.push_back(p.name);
      }
      set->games.resize(set->ids.size());
    }
  }
  if (!set) return refuse(req, ErrorCode::not_found, "no such room");
  acquire_from(games_, req->conn(), set, 0, [this, req, room, set, attempt]() {
    complete_spectator_join(req, room, set, attempt);
  });
}

void RoomManager::complete_spectator_join(const RequestPtr& req, const std::shared_ptr<Room>& room,
                                          const std::shared_ptr<GameSet>& set, int attempt) {
  if (std::any_of(set->games.begin(), set->games.end(), [](const auto& g) { return !g; })) {
    return refuse(req, ErrorCode::internal, "could not load the room's games");
  }
  // In the players' order: the one order every multi-game lock uses.
  std::vector<std::unique_lock<std::mutex>> game_locks;
  game_locks.reserve(set->games.size());
  for (const auto& live : set->games) game_locks.emplace_back(live->mutex);
  if (std::any_of(set->games.begin(), set->games.end(),
                  [](const auto& g) { return g->retired.load(); })) {
    game_locks.clear();
    if (attempt >= kMaxRetries) return refuse(req, ErrorCode::internal, "games unavailable");
    return join_spectator(req, room, attempt + 1);
  }
  const std::int64_t player_id = *req->state().player_id;
  std::unique_lock lock(room->mutex);
  std::string refusal;
  ErrorCode code = ErrorCode::not_allowed;
  RoomSpectatorEntry* spectator = room->removed ? nullptr : room->find_spectator(player_id);
  if (room->removed) {
    code = ErrorCode::not_found;
    refusal = "no such room";
  } else if (!spectator && room->spectators.size() >= limits_.max_spectators) {
    refusal = "the room has too many spectators";
  }
  if (!refusal.empty()) {
    lock.unlock();
    game_locks.clear();
    return refuse(req, code, refusal);
  }
  if (!spectator) {
    room->spectators.push_back({player_id, req->state().player_name, {}});
    spectator = &room->spectators.back();
    registry_.index_add(player_id, room->code);
  }
  spectator->link.attach(req->conn());
  const std::int64_t now = now_();
  nlohmann::json games = nlohmann::json::object();
  for (std::size_t i = 0; i < set->games.size(); ++i) {
    games[set->names[i]] = protocol::game_view(*set->games[i]->game, set->games[i]->view_meta(now));
  }
  std::string text =
      protocol::dump(protocol::room_reply(req->id(), room->view(), std::move(games)));
  std::string after = room->announce_join(player_id);
  lock.unlock();
  game_locks.clear();
  answer_join(req, std::move(text), std::move(after));
}

void RoomManager::on_resume(const std::shared_ptr<Connection>& conn, LiveGame& live) {
  if (!live.room_code) return;
  auto room = registry_.find(*live.room_code);
  if (!room) return;
  std::lock_guard lock(room->mutex);
  if (room->removed) return;
  RoomPlayerEntry* player = room->find_player(live.player_id);
  if (!player || player->left || player->game_id != live.id || player->link.is(conn.get())) {
    return;
  }
  player->link.attach(conn);
  // The player gets the room back through the same update as everyone else.
  room->push_all(room->update_text());
  if (room->phase == RoomPhase::finished) player->link.push(room->finished_text());
}

void RoomManager::on_disconnect(const std::shared_ptr<Connection>& conn) {
  const std::optional<std::int64_t> player_id = conn->state().player_id;
  if (!player_id) return;
  const std::vector<std::string> codes = registry_.codes_of(*player_id);
  if (codes.empty()) return;
  const std::int64_t now = now_();
  for (const std::string& code : codes) {
    auto room = registry_.find(code);
    if (!room) continue;
    std::lock_guard lock(room->mutex);
    if (room->removed) continue;
    bool changed = false;
    if (RoomPlayerEntry* p = room->find_player(*player_id); p && p->link.is(conn.get())) {
      p->link.detach(now);
      changed = true;
    }
    if (RoomSpectatorEntry* s = room->find_spectator(*player_id); s && s->link.is(conn.get())) {
      // Spectators hold no state worth keeping: joining again gives fresh views.
      room->remove_spectator(*player_id);
      if (!room->has_member(*player_id)) registry_.index_remove(*player_id, code);
      changed = true;
    }
    if (changed) room->push_all(room->update_text());
  }
}

}  // namespace tilecrush::server
