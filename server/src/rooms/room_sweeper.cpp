// RoomManager: members who go away, and the cleanup pass that forgets
// abandoned and finished rooms so that nothing grows without bound.
#include "rooms/room_manager.hpp"

namespace tilecrush::server {

void RoomManager::on_disconnect(const std::shared_ptr<Connection>& conn) {
  const std::optional<std::int64_t> player_id = conn->state().player_id;
  if (!player_id) return;
  std::vector<std::string> codes;
  {
    std::lock_guard map(map_mutex_);
    const auto it = by_player_.find(*player_id);
    if (it == by_player_.end()) return;
    codes = it->second;
  }
  const std::int64_t now = now_();
  for (const std::string& code : codes) {
    auto room = find(code);
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
      if (!room->has_member(*player_id)) index_remove(*player_id, code);
      changed = true;
    }
    if (changed) room->push_all(room->update_text());
  }
}

std::size_t RoomManager::sweep() {
  // Several nodes: a node whose database session broke has lost its rooms'
  // claims; it notices here at the latest (or with its next room request).
  games_.db().check_room_claims();
  give_up_if_claims_lost();
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard map(map_mutex_);
    rooms.reserve(rooms_.size());
    for (const auto& [code, room] : rooms_) rooms.push_back(room);
  }
  const std::int64_t now = now_();
  const auto older_than = [now](std::int64_t t, std::chrono::milliseconds age) {
    return now - t >= age.count();
  };
  std::size_t removed = 0;
  for (const auto& room : rooms) {
    std::lock_guard lock(room->mutex);
    if (room->removed) continue;
    switch (room->phase) {
      case RoomPhase::lobby: {
        std::vector<std::int64_t> gone;
        for (const RoomPlayerEntry& p : room->players) {
          if (!p.link.connected() && older_than(p.link.detached_at(), limits_.lobby_grace)) {
            gone.push_back(p.player_id);
          }
        }
        for (const std::int64_t id : gone) {
          room->remove_player(id);
          if (!room->has_member(id)) index_remove(id, room->code);
        }
        if (room->players.empty()) {
          remove_room_locked(*room);
          ++removed;
        }
        if (!gone.empty()) {
          store_locked(*room);
          room->push_all(room->update_text());
        }
        break;
      }
      case RoomPhase::starting:
        break;
      case RoomPhase::playing: {
        const bool idle = older_than(room->last_activity, limits_.play_idle);
        bool changed = false;
        for (RoomPlayerEntry& p : room->players) {
          if (p.over()) continue;
          if (idle ||
              (!p.link.connected() && older_than(p.link.detached_at(), limits_.play_grace))) {
            p.left = true;
            changed = true;
          }
        }
        if (changed) {
          store_locked(*room);
          room->push_all(room->update_text());
          after_player_left_locked(*room);
        }
        break;
      }
      case RoomPhase::finished:
        if (older_than(room->finished_at, limits_.finished_keep)) {
          remove_room_locked(*room);
          ++removed;
        }
        break;
    }
  }
  return removed;
}

}  // namespace tilecrush::server
