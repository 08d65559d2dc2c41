// Multiplayer rooms: players race on the same seeded board, spectators watch.
//
// Thread safety: every method may be called from any connection's strand;
// each room is guarded by its own mutex, never held during I/O (pushes are
// only queued on the members' connections, which never blocks). The lock
// order is in room_manager.hpp.
#pragma once

#include <memory>

#include "game_service.hpp"

namespace tilecrush::server {

class RoomService {
 public:
  virtual ~RoomService() = default;
  virtual void create(const GameService::RequestPtr& req, const protocol::CreateRoom& cmd) = 0;
  virtual void join(const GameService::RequestPtr& req, const protocol::JoinRoom& cmd) = 0;
  virtual void leave(const GameService::RequestPtr& req, const protocol::LeaveRoom& cmd) = 0;
  virtual void start(const GameService::RequestPtr& req, const protocol::StartRoom& cmd) = 0;
  // After every accepted move, undo or resign of a room game (game locked).
  virtual void on_game_progress(LiveGame& live, const game::EventList& events) = 0;
  virtual void on_disconnect(const std::shared_ptr<Connection>& conn) = 0;
  // After a player resumed a room game on `conn` (game locked): reattaches
  // them to the room.
  virtual void on_resume(const std::shared_ptr<Connection>&, LiveGame&) {}
};

}  // namespace tilecrush::server
