#include "rooms/room_registry.hpp"

#include <algorithm>

namespace tilecrush::server {

namespace {

void add_code(std::vector<std::string>& codes, const std::string& code) {
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
}

}  // namespace

std::shared_ptr<Room> RoomRegistry::find(const std::string& code) const {
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second;
}

std::size_t RoomRegistry::room_count() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

std::size_t RoomRegistry::indexed_players() const {
  std::lock_guard lock(mutex_);
  return by_player_.size();
}

std::vector<std::shared_ptr<Room>> RoomRegistry::rooms() const {
  std::vector<std::shared_ptr<Room>> out;
  std::lock_guard lock(mutex_);
  out.reserve(rooms_.size());
  for (const auto& [code, room] : rooms_) out.push_back(room);
  return out;
}

std::vector<std::string> RoomRegistry::codes_of(std::int64_t player_id) const {
  std::lock_guard lock(mutex_);
  const auto it = by_player_.find(player_id);
  return it == by_player_.end() ? std::vector<std::string>{} : it->second;
}

bool RoomRegistry::admit(const std::shared_ptr<Room>& room, std::size_t max_hosted) {
  std::lock_guard lock(mutex_);
  const auto hosted = hosted_.find(room->creator_id);
  if ((hosted != hosted_.end() && hosted->second >= max_hosted) || rooms_.contains(room->code)) {
    return false;
  }
  rooms_.emplace(room->code, room);
  ++hosted_[room->creator_id];
  by_player_[room->creator_id].push_back(room->code);
  return true;
}

bool RoomRegistry::adopt(const std::shared_ptr<Room>& room) {
  std::lock_guard lock(mutex_);
  if (!rooms_.emplace(room->code, room).second) return false;
  ++hosted_[room->creator_id];
  for (const RoomPlayerEntry& p : room->players) add_code(by_player_[p.player_id], room->code);
  return true;
}

void RoomRegistry::index_add(std::int64_t player_id, const std::string& code) {
  std::lock_guard lock(mutex_);
  add_code(by_player_[player_id], code);
}

void RoomRegistry::index_remove(std::int64_t player_id, const std::string& code) {
  std::lock_guard lock(mutex_);
  const auto it = by_player_.find(player_id);
  if (it == by_player_.end()) return;
  std::erase(it->second, code);
  if (it->second.empty()) by_player_.erase(it);
}

void RoomRegistry::release_open_locked(Room& room) {
  if (!room.counted_open) return;
  room.counted_open = false;
  std::lock_guard lock(mutex_);
  const auto it = hosted_.find(room.creator_id);
  if (it != hosted_.end() && --it->second == 0) hosted_.erase(it);
}

void RoomRegistry::forget_locked(const Room& room) {
  {
    std::lock_guard lock(mutex_);
    const auto it = rooms_.find(room.code);
    if (it != rooms_.end() && it->second.get() == &room) rooms_.erase(it);
  }
  for (const RoomPlayerEntry& p : room.players) index_remove(p.player_id, room.code);
  for (const RoomSpectatorEntry& s : room.spectators) index_remove(s.player_id, room.code);
}

std::vector<std::shared_ptr<Room>> RoomRegistry::take_all() {
  std::vector<std::shared_ptr<Room>> out;
  std::lock_guard lock(mutex_);
  out.reserve(rooms_.size());
  for (auto& [code, room] : rooms_) out.push_back(room);
  rooms_.clear();
  by_player_.clear();
  hosted_.clear();
  return out;
}

}  // namespace tilecrush::server
