// RoomSweeper: the cleanup pass that forgets abandoned and finished rooms
// so that nothing grows without bound.
#include "rooms/room_sweeper.hpp"

namespace tilecrush::server {

RoomSweeper::RoomSweeper(RoomRegistry& registry, RoomStore& store,
                         net::any_io_executor timer_executor, NowFn now, RoomLimits limits)
    : registry_(registry),
      store_(store),
      now_(std::move(now)),
      limits_(limits),
      timer_(std::move(timer_executor)) {
  schedule();
}

void RoomSweeper::schedule() {
  timer_.expires_after(limits_.sweep_every);
  timer_.async_wait([this](error_code ec) {
    if (ec) return;
    sweep();
    schedule();
  });
}

std::size_t RoomSweeper::sweep() {
  // Several nodes: a node whose database session broke has lost its rooms'
  // claims; it notices here at the latest (or with its next room request).
  store_.check_claims();
  const std::vector<std::shared_ptr<Room>> rooms = registry_.rooms();
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
          if (!room->has_member(id)) registry_.index_remove(id, room->code);
        }
        if (room->players.empty()) {
          store_.remove_locked(*room);
          ++removed;
        }
        if (!gone.empty()) {
          store_.save_locked(*room);
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
          store_.save_locked(*room);
          room->push_all(room->update_text());
          store_.finish_if_over_locked(*room);
        }
        break;
      }
      case RoomPhase::finished:
        if (older_than(room->finished_at, limits_.finished_keep)) {
          store_.remove_locked(*room);
          ++removed;
        }
        break;
    }
  }
  return removed;
}

}  // namespace tilecrush::server
