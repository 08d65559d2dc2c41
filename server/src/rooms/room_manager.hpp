// The rooms of protocol.md ("Rooms"): create, join (as player or
// spectator), leave, start; live progress and events of every player's game
// to the other members; standings when everyone is over; reconnection by
// player id; cleanup of abandoned and finished rooms.
//
// Rooms sit above the game service: they deal and register their games
// through it and follow them as a GameObserver (subscribed for the
// manager's lifetime); the game service never calls up into them.
//
// Thread safety: every public method may be called from any thread (the
// request handlers run on their connection's thread; on_game_progress runs
// with that game's mutex held). Three kinds of locks, always taken in this
// order, each one optional:
//
//   LiveGame::mutex (one or several of one room, in its players' order)
//     -> Room::mutex
//       -> RoomManager::map_mutex_ (rooms_, by_player_, hosted_)
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

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "play/game_service.hpp"
#include "play/request.hpp"
#include "rooms/room.hpp"

namespace tilecrush::server {

class RoomManager final : public GameObserver {
 public:
  using NowFn = std::function<std::int64_t()>;

  // Sweeps every limits.sweep_every on `timer_executor` until destroyed;
  // destroy it only once that executor's threads have stopped.
  // `node_id`: this node's name among several (rooms record their owner by
  // it); empty on a single node.
  RoomManager(GameService& games, net::any_io_executor timer_executor, NowFn now,
              RoomLimits limits = {}, std::string node_id = {});
  ~RoomManager() override;

  void create(const RequestPtr& req, const protocol::CreateRoom& cmd);
  void join(const RequestPtr& req, const protocol::JoinRoom& cmd);
  void leave(const RequestPtr& req, const protocol::LeaveRoom& cmd);
  void start(const RequestPtr& req, const protocol::StartRoom& cmd);
  // The same, for the dispatcher's routing.
  void handle(const RequestPtr& req, const protocol::CreateRoom& cmd) { create(req, cmd); }
  void handle(const RequestPtr& req, const protocol::JoinRoom& cmd) { join(req, cmd); }
  void handle(const RequestPtr& req, const protocol::LeaveRoom& cmd) { leave(req, cmd); }
  void handle(const RequestPtr& req, const protocol::StartRoom& cmd) { start(req, cmd); }
  // The members' connections: a room player who disconnects is away.
  void on_disconnect(const std::shared_ptr<Connection>& conn);

  // GameObserver: progress of room games to the other members; a player who
  // resumed a room game is attached to the room again.
  void on_game_progress(LiveGame& live, const game::EventList& events) override;
  void on_resume(const std::shared_ptr<Connection>& conn, LiveGame& live) override;

  // Rebuilds the open rooms an earlier run of this node stored (those whose
  // owner is this node, or nobody, and whose claim is free;
  // room_persist.cpp): every
  // player disconnected since now (their grace periods start now, and so
  // does a playing room's idle time), scores and moves from each player's
  // stored game, counted against their creators' open rooms. Returns how
  // many rooms came back. Blocking storage reads: call once, before any
  // traffic, never on a network thread. Throws StorageError on a fault.
  std::size_t restore();

  // One cleanup pass at the current time (the timer calls it); returns how
  // many rooms were removed.
  std::size_t sweep();

  std::size_t room_count() const;
  // Players with at least one room in the per-player index (for tests).
  std::size_t indexed_players() const;

 private:
  struct StartState;
  struct GameSet;

  std::shared_ptr<Room> find(const std::string& code) const;
  // The stored open room `code`, claimed and rebuilt here (room_persist.cpp):
  // null when there is none, or another node holds it (then `moved` is set
  // and `owner` names that node). Blocking storage reads: only for a room
  // not in memory.
  std::shared_ptr<Room> take_over(const std::string& code, bool& moved, std::string& owner);
  // From a stored state, with the room's lock held by the caller; every
  // player disconnected since `now`.
  std::shared_ptr<Room> rebuild(const storage::OpenRoomRecord& stored, std::int64_t now);
  // Registers a rebuilt room in the map and indexes; false when a room of
  // that code is there already.
  bool adopt(const std::shared_ptr<Room>& room);
  // When the database says this node's claims were lost: every room is
  // dropped from memory (not from storage: another node may serve it now).
  void give_up_if_claims_lost();
  // The room with this code, locked into `lock`; null (not_found answered)
  // when there is none or it was removed meanwhile.
  std::shared_ptr<Room> lock_room(const RequestPtr& req, const std::string& code,
                                  std::unique_lock<std::mutex>& lock);
  // Direct answers. Called without any lock (they may write to the socket).
  void refuse(const RequestPtr& req, protocol::ErrorCode code, std::string_view message);
  void answer(const RequestPtr& req, std::string text);
  void schedule_sweep();
  // With the room locked: takes it out of the map and the indexes.
  void remove_room_locked(Room& room);
  // With the room locked: the room is no longer open for its creator.
  void release_open_locked(Room& room);
  void index_add(std::int64_t player_id, const std::string& code);
  void index_remove(std::int64_t player_id, const std::string& code);
  // With the room locked and every player over: standings, pushes, storage.
  void finish_locked(Room& room);
  // With the room locked, after a change a restart must know (a player
  // joins, leaves or is gone, the host passes on, the games are stored):
  // queues the room's whole state (room_persist.cpp). Nothing for a removed
  // or finished room, whose removal is written when it happens.
  void store_locked(const Room& room);
  // A player who left for good is over; ends the room when everyone is.
  void after_player_left_locked(Room& room);

  // Joins that need game views: the room's games are locked (in player
  // order) before the room.
  void rejoin_player(const RequestPtr& req, const std::shared_ptr<Room>& room, std::string game_id,
                     int attempt = 0);
  void join_spectator(const RequestPtr& req, const std::shared_ptr<Room>& room, int attempt = 0);
  void complete_spectator_join(const RequestPtr& req, const std::shared_ptr<Room>& room,
                               const std::shared_ptr<GameSet>& set, int attempt);
  void complete_start(const std::shared_ptr<StartState>& state);

  GameService& games_;
  NowFn now_;
  RoomLimits limits_;
  const std::string node_id_;
  std::atomic<std::uint64_t> claims_generation_;
  net::steady_timer timer_;

  mutable std::mutex map_mutex_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
  // Rooms each player is a member of (player entry or spectator entry).
  std::unordered_map<std::int64_t, std::vector<std::string>> by_player_;
  // Open rooms (lobby, starting, playing) each player created.
  std::unordered_map<std::int64_t, std::size_t> hosted_;
  // Rooms removed whose stored state is not yet deleted: never taken over
  // from storage meanwhile. Shared with the deletions' callbacks, which may
  // run after the manager is gone. Its own mutex, innermost.
  struct Removing {
    std::mutex mutex;
    std::unordered_set<std::string> codes;
  };
  std::shared_ptr<Removing> removing_ = std::make_shared<Removing>();
};

}  // namespace tilecrush::server
