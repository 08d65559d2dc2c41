// The rooms' clean-up: a pass every RoomLimits::sweep_every that forgets
// abandoned and finished rooms, so that nothing grows without bound. A lobby
// player disconnected past lobby_grace is removed; a racing player
// disconnected past play_grace, or in a room idle past play_idle, has left
// for good; a finished room goes after finished_keep; an empty lobby goes.
//
// Thread safety: sweep() may be called from any thread (the timer calls it
// on `timer_executor`); it takes each room's lock in turn, never two.
#pragma once

#include <cstdint>
#include <functional>

#include "net/net.hpp"
#include "rooms/room.hpp"
#include "rooms/room_registry.hpp"
#include "rooms/room_store.hpp"

namespace tilecrush::server {

class RoomSweeper {
 public:
  using NowFn = std::function<std::int64_t()>;

  // Sweeps every limits.sweep_every on `timer_executor` until destroyed;
  // destroy it only once that executor's threads have stopped.
  RoomSweeper(RoomRegistry& registry, RoomStore& store, net::any_io_executor timer_executor,
              NowFn now, RoomLimits limits);

  // One pass at the current time; returns how many rooms were removed.
  std::size_t sweep();

 private:
  void schedule();

  RoomRegistry& registry_;
  RoomStore& store_;
  NowFn now_;
  RoomLimits limits_;
  net::steady_timer timer_;
};

}  // namespace tilecrush::server
