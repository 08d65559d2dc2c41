// RoomStore: what a restart needs, and what several nodes need. Each open
// room's state is written through storage whenever it changes in a way a
// restarted server must know, and restore() rebuilds the rooms from it
// before the server listens.
//
// What is kept: code, board, creator, host, phase (a room still `starting`
// is kept as the lobby it was: its start is not durable until the room
// state naming its games is), and the players in joining order with their
// game and whether they left. What is not: spectators, connections, and
// each player's score while they race, which their own game row holds more
// exactly (it is written with every move).
#include "rooms/room_store.hpp"

#include <algorithm>

#include "play/ids.hpp"

namespace tilecrush::server {

namespace {

// What every stored form of a room (open, or finished) starts with.
template <typename Record>
Record stored_room(const Room& room) {
  Record record;
  record.code = room.code;
  record.mode = room.setup.mode;
  record.preset = room.setup.preset;
  record.seed = room.setup.seed;
  record.created_at = room.created_at;
  return record;
}

}  // namespace

RoomStore::RoomStore(storage::Database& db, RoomRegistry& registry, NowFn now, std::string node_id)
    : db_(db),
      registry_(registry),
      now_(std::move(now)),
      node_id_(std::move(node_id)),
      claims_generation_(db.room_claims_generation()) {}

void RoomStore::save_locked(const Room& room) {
  if (room.removed || room.phase == RoomPhase::finished) return;
  auto record = stored_room<storage::OpenRoomRecord>(room);
  record.creator_player_id = room.creator_id;
  record.host_player_id = room.host_id;
  record.phase = room.phase == RoomPhase::playing ? storage::OpenRoomPhase::playing
                                                  : storage::OpenRoomPhase::lobby;
  record.last_activity = room.last_activity;
  record.epoch = room.epoch;
  record.owner = node_id_;
  record.players.reserve(room.players.size());
  for (const RoomPlayerEntry& p : room.players) {
    storage::OpenRoomPlayer stored;
    stored.player_id = p.player_id;
    if (!p.game_id.empty()) stored.game_id = p.game_id;
    stored.left = p.left;
    stored.score = p.score;
    stored.move_count = p.move_count;
    record.players.push_back(std::move(stored));
  }
  // Queued while the caller holds the room's lock: one room's states are
  // queued in the order its changes happened, and the single writer applies
  // them in that order, so the row always ends as the room's latest state.
  db_.save_open_room(std::move(record));
}

void RoomStore::finish_locked(Room& room) {
  room.phase = RoomPhase::finished;
  room.finished_at = now_();
  room.results = room.current_results();
  room.push_all(room.finished_text());
  registry_.release_open_locked(room);

  auto record = stored_room<storage::RoomRecord>(room);
  record.host_player_id = room.creator_id;
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
  db_.finish_open_room(std::move(record));
}

void RoomStore::finish_if_over_locked(Room& room) {
  if (room.phase == RoomPhase::playing && room.all_over()) finish_locked(room);
}

void RoomStore::remove_locked(Room& room) {
  if (room.removed) return;
  room.removed = true;
  // A finished room's open state went with its result (finish_locked). The
  // claim goes once the removal is committed, so that no node takes over a
  // room whose removal is still queued.
  if (room.phase != RoomPhase::finished) {
    {
      std::lock_guard removing(removing_->mutex);
      removing_->codes.insert(room.code);
    }
    db_.remove_open_room(room.code, [removing = removing_, &db = db_,
                                     code = room.code](const storage::WriteResult&) {
      db.release_room(code);
      std::lock_guard lock(removing->mutex);
      removing->codes.erase(code);
    });
  } else {
    db_.release_room(room.code);
  }
  registry_.release_open_locked(room);
  registry_.forget_locked(room);
}

std::optional<std::string> RoomStore::claim_new_code() {
  for (int tries = 0;; ++tries) {
    std::string code = random_room_code();
    if (registry_.find(code)) continue;
    if (tries >= 16) return std::nullopt;
    if (!db_.claim_room(code)) continue;
    bool stored = false;
    try {
      stored = db_.find_open_room(code).has_value();
    } catch (const std::exception&) {
      stored = true;
    }
    if (!stored) return code;
    db_.release_room(code);
  }
}

void RoomStore::release(const std::string& code) {
  db_.release_room(code);
}

std::shared_ptr<Room> RoomStore::rebuild(const storage::OpenRoomRecord& stored, std::int64_t now) {
  game::GameSetup setup;
  setup.mode = stored.mode;
  setup.preset = stored.preset;
  setup.seed = stored.seed;
  auto room = std::make_shared<Room>(stored.code, std::move(setup), stored.creator_player_id,
                                     stored.created_at);
  room->phase =
      stored.phase == storage::OpenRoomPhase::playing ? RoomPhase::playing : RoomPhase::lobby;
  room->host_id = stored.host_player_id;
  room->epoch = stored.epoch;
  room->last_activity = std::max(stored.last_activity, now);
  for (const storage::OpenRoomPlayer& sp : stored.players) {
    RoomPlayerEntry p;
    p.player_id = sp.player_id;
    p.name = sp.player;
    p.game_id = sp.game_id.value_or("");
    p.left = sp.left;
    p.score = sp.score;
    p.move_count = sp.move_count;
    p.link.detach(now);
    if (room->phase == RoomPhase::playing && !p.left) {
      // The game row has every acknowledged move; a player who left keeps
      // the figures the room counted then (their game may have gone on).
      const auto game = p.game_id.empty() ? std::nullopt : db_.load_game(p.game_id);
      if (game) {
        p.score = game->score;
        p.move_count = game->move_count;
        p.game_over = game->state == storage::GameState::over;
      } else {
        p.left = true;  // without a game there is no race to come back to
      }
    }
    room->players.push_back(std::move(p));
  }
  return room;
}

std::shared_ptr<Room> RoomStore::take_over(const std::string& code, bool& moved,
                                           std::string& owner) {
  {
    std::lock_guard removing(removing_->mutex);
    if (removing_->codes.contains(code)) return nullptr;
  }
  std::optional<storage::OpenRoomRecord> stored;
  try {
    stored = db_.find_open_room(code);
    if (!stored) return nullptr;
    if (!db_.claim_room(code)) {
      // Served by another node, which may not have stored its name yet
      // (it took the room over a moment ago): then the room's old owner is
      // named, and that node answers `moved` in its turn. Nodes started
      // without --node-id are named "": the proxy picks by room code then.
      moved = true;
      owner = stored->owner;
      return nullptr;
    }
    // Claimed: read again, since the previous owner may have written its
    // last state between the first read and the claim.
    stored = db_.find_open_room(code);
  } catch (const std::exception&) {
    return nullptr;
  }
  if (!stored || stored->players.empty()) {
    db_.release_room(code);
    return nullptr;
  }
  const std::int64_t now = now_();
  std::shared_ptr<Room> room;
  try {
    room = rebuild(*stored, now);
  } catch (const std::exception&) {
    db_.release_room(code);
    return nullptr;
  }
  std::lock_guard lock(room->mutex);
  // A higher epoch than any write of the node that served it before.
  ++room->epoch;
  if (!registry_.adopt(room)) return registry_.find(code);  // another request took it over first
  save_locked(*room);
  finish_if_over_locked(*room);
  return room;
}

void RoomStore::give_up_if_claims_lost() {
  const std::uint64_t now_generation = db_.room_claims_generation();
  std::uint64_t seen = claims_generation_.load();
  if (now_generation == seen || !claims_generation_.compare_exchange_strong(seen, now_generation)) {
    return;
  }
  const std::vector<std::shared_ptr<Room>> rooms = registry_.take_all();
  // Not removed from storage: the rooms go on, on whichever node claims
  // them next. Their members find them there with their next request.
  for (const auto& room : rooms) {
    std::lock_guard lock(room->mutex);
    room->removed = true;
  }
}

void RoomStore::check_claims() {
  db_.check_room_claims();
  give_up_if_claims_lost();
}

std::size_t RoomStore::restore() {
  storage::Database& db = db_;
  // Nobody could come back while the server was down: the grace periods
  // and a playing room's idle time count from the restart.
  const std::int64_t now = now_();
  std::size_t restored = 0;
  for (const storage::OpenRoomRecord& stored : db.open_rooms()) {
    // Another node's room (it took it over while this one was down) stays
    // there; a room of this node, or of nobody, comes back if its claim is
    // free.
    if (!stored.owner.empty() && stored.owner != node_id_) continue;
    if (!db.claim_room(stored.code)) continue;
    if (stored.players.empty()) {
      db.remove_open_room(stored.code, [&db, code = stored.code](const storage::WriteResult&) {
        db.release_room(code);
      });
      continue;
    }
    auto room = rebuild(stored, now);
    std::lock_guard lock(room->mutex);
    if (!registry_.adopt(room)) continue;
    ++restored;
    // Everyone was over before the stop but the result had not been
    // written yet: the room finishes now, as it would have then.
    finish_if_over_locked(*room);
  }
  return restored;
}

}  // namespace tilecrush::server
