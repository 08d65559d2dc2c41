// The rooms this node serves, by code, and two indexes over them: the rooms
// each player is a member of (as player or spectator), and how many open
// rooms each player created. Memory only: a room's stored state and claim
// are RoomStore's, the rules of joining and racing RoomManager's and
// RoomRaces'.
//
// Thread safety: every method may be called from any thread. One mutex,
// the innermost lock of the rooms' lock order (room_manager.hpp), held only
// for the map operation itself. The `_locked` methods expect the caller to
// hold that room's mutex (which comes before this one).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rooms/room.hpp"

namespace tilecrush::server {

class RoomRegistry {
 public:
  std::shared_ptr<Room> find(const std::string& code) const;
  std::size_t room_count() const;
  // Players with at least one room in the per-player index.
  std::size_t indexed_players() const;
  // Every room now in the map (for a pass over them).
  std::vector<std::shared_ptr<Room>> rooms() const;
  // The codes of the rooms `player_id` is a member of (empty when none).
  std::vector<std::string> codes_of(std::int64_t player_id) const;

  // A new room, its creator as its one member: false (nothing changed) when
  // the creator already hosts `max_hosted` open rooms or the code is taken.
  bool admit(const std::shared_ptr<Room>& room, std::size_t max_hosted);
  // A room rebuilt from storage, its players indexed and counted against its
  // creator; false (nothing changed) when a room of that code is there.
  bool adopt(const std::shared_ptr<Room>& room);
  void index_add(std::int64_t player_id, const std::string& code);
  void index_remove(std::int64_t player_id, const std::string& code);

  // With the room locked: the room is no longer open for its creator.
  void release_open_locked(Room& room);
  // With the room locked: out of the map (when it is the room there) and
  // out of its members' indexes.
  void forget_locked(const Room& room);
  // Empties the map and the indexes; returns the rooms that were there.
  std::vector<std::shared_ptr<Room>> take_all();

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
  // Rooms each player is a member of (player entry or spectator entry).
  std::unordered_map<std::int64_t, std::vector<std::string>> by_player_;
  // Open rooms (lobby, starting, playing) each player created.
  std::unordered_map<std::int64_t, std::size_t> hosted_;
};

}  // namespace tilecrush::server
