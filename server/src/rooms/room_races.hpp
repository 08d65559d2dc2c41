// The race of a room: start_room (every player's game dealt and durable
// before anyone is told), then each game's progress to the other members,
// and the room's end once every player is over.
//
// Thread safety: start() runs on the starter's connection thread; the
// games' commits are joined there again. on_game_progress() runs with that
// game's mutex held and takes the room's (the lock order of
// room_manager.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "play/game_service.hpp"
#include "play/request.hpp"
#include "rooms/room_registry.hpp"
#include "rooms/room_store.hpp"

namespace tilecrush::server {

class RoomRaces {
 public:
  using NowFn = std::function<std::int64_t()>;

  RoomRaces(GameService& games, RoomRegistry& registry, RoomStore& store, NowFn now);

  void start(const RequestPtr& req, const protocol::StartRoom& cmd);
  // A room game's move, undo (no events) or resign.
  void on_game_progress(LiveGame& live, const game::EventList& events);

 private:
  struct StartState;
  void complete_start(const std::shared_ptr<StartState>& state);

  GameService& games_;
  RoomRegistry& registry_;
  RoomStore& store_;
  NowFn now_;
};

}  // namespace tilecrush::server
