// The rooms of protocol.md ("Rooms"): create, join (as player or
// spectator), leave, start; live progress and events of every player's game
// to the other members; standings when everyone is over; reconnection by
// player id; cleanup of abandoned and finished rooms.
//
// Rooms sit above the game service: they deal and register their games
// through it and follow them as a GameObserver (subscribed for the
// manager's lifetime); the game service never calls up into them.
//
// The manager holds membership (create, join, leave, spectators, members
// who go away or come back) and owns the parts with one job each, which
// know nothing of it: RoomRegistry (the map and indexes, memory only),
// RoomStore (persistence and claims, over its own storage::Database),
// RoomRaces (start, progress, the end) and RoomSweeper (clean-up).
//
// Thread safety: every public method may be called from any thread (the
// request handlers run on their connection's thread; on_game_progress runs
// with that game's mutex held). Three kinds of locks, always taken in this
// order, each one optional:
//
//   LiveGame::mutex (one or several of one room, in its players' order)
//     -> Room::mutex
//       -> RoomRegistry's mutex (the map and indexes)
//
// So: no game lock is ever taken while holding a room or the map lock (a
// path that needs a game view drops the room lock, takes the game locks,
// then the room lock again), and the map lock is innermost and held briefly.
// Room mutexes are never nested. No lock is held during I/O: pushes only
// queue on the connections, storage writes only queue on the writer.
//
// Several nodes (one PostgreSQL database): a node serves a room only while
// it holds the room's claim (Database::claim_room). A request about a room
// this node does not hold takes it over when its claim is free (the node
// that served it died or gave it up): the room is rebuilt from its stored
// state with a higher epoch, so the old owner's late writes are refused.
// When the claim is held elsewhere the request is answered `moved`, naming
// the owner. A node whose claims were lost (its database session broke)
// gives up every room it holds before serving any room request.
//
// Restarts: every change of a room that a restarted server needs is written
// through storage (the open rooms) while holding the room's lock. The writer
// applies writes in the order they were queued, so one room's stored state
// always ends as its latest; and a room's writes follow the game writes
// (moves, finish) queued before them under the games' locks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "play/game_service.hpp"
#include "play/request.hpp"
#include "rooms/room.hpp"
#include "rooms/room_races.hpp"
#include "rooms/room_registry.hpp"
#include "rooms/room_store.hpp"
#include "rooms/room_sweeper.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class RoomManager final : public GameObserver {
 public:
  using NowFn = std::function<std::int64_t()>;

  // Sweeps every limits.sweep_every on `timer_executor` until destroyed;
  // destroy it only once that executor's threads have stopped.
  // `db`: where the rooms are stored and claimed (RoomStore).
  // `node_id`: this node's name among several (rooms record their owner by
  // it); empty on a single node.
  RoomManager(GameService& games, storage::Database& db, net::any_io_executor timer_executor,
              NowFn now, RoomLimits limits = {}, std::string node_id = {});
  ~RoomManager() override;

  void create(const RequestPtr& req, const protocol::CreateRoom& cmd);
  void join(const RequestPtr& req, const protocol::JoinRoom& cmd);
  void leave(const RequestPtr& req, const protocol::LeaveRoom& cmd);
  void start(const RequestPtr& req, const protocol::StartRoom& cmd) { races_.start(req, cmd); }
  // The same, for the dispatcher's routing.
  void handle(const RequestPtr& req, const protocol::CreateRoom& cmd) { create(req, cmd); }
  void handle(const RequestPtr& req, const protocol::JoinRoom& cmd) { join(req, cmd); }
  void handle(const RequestPtr& req, const protocol::LeaveRoom& cmd) { leave(req, cmd); }
  void handle(const RequestPtr& req, const protocol::StartRoom& cmd) { start(req, cmd); }
  // The members' connections: a room player who disconnects is away.
  void on_disconnect(const std::shared_ptr<Connection>& conn);

  // GameObserver: progress of room games to the other members; a player who
  // resumed a room game is attached to the room again.
  void on_game_progress(LiveGame& live, const game::EventList& events) override {
    races_.on_game_progress(live, events);
  }
  void on_resume(const std::shared_ptr<Connection>& conn, LiveGame& live) override;

  // The open rooms an earlier run of this node stored (RoomStore::restore).
  // Call once, before any traffic; throws StorageError on a fault.
  std::size_t restore() { return store_.restore(); }

  // One cleanup pass at the current time (the timer calls it); returns how
  // many rooms were removed.
  std::size_t sweep() { return sweeper_.sweep(); }

  std::size_t room_count() const { return registry_.room_count(); }
  // Players with at least one room in the per-player index (for tests).
  std::size_t indexed_players() const { return registry_.indexed_players(); }

 private:
  struct GameSet;

  // The room with this code, locked into `lock`; null (not_found or moved
  // answered) when there is none here or it was removed meanwhile. A room
  // stored but not in memory is taken over when its claim is free.
  std::shared_ptr<Room> lock_room(const RequestPtr& req, const std::string& code,
                                  std::unique_lock<std::mutex>& lock);
  // Direct answers. Called without any lock (they may write to the socket).
  void refuse(const RequestPtr& req, protocol::ErrorCode code, std::string_view message);
  void answer(const RequestPtr& req, std::string text);
  // A join's answer, then `after` (Room::announce_join's) when not empty.
  void answer_join(const RequestPtr& req, std::string text, std::string after);

  // Joins that need game views: the room's games are locked (in player
  // order) before the room.
  void rejoin_player(const RequestPtr& req, const std::shared_ptr<Room>& room, std::string game_id,
                     int attempt = 0);
  void join_spectator(const RequestPtr& req, const std::shared_ptr<Room>& room, int attempt = 0);
  void complete_spectator_join(const RequestPtr& req, const std::shared_ptr<Room>& room,
                               const std::shared_ptr<GameSet>& set, int attempt);

  GameService& games_;
  NowFn now_;
  RoomLimits limits_;
  RoomRegistry registry_;
  RoomStore store_;
  RoomRaces races_;
  RoomSweeper sweeper_;
};

}  // namespace tilecrush::server
