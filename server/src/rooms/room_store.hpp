// The rooms' persistence and their claims between nodes (room_manager.hpp,
// "Several nodes" and "Restarts"): each open room's state, written whenever
// it changes in a way a restarted server must know; a room's end (its
// result, told to its members and stored in the same operation that drops
// its open state) and its removal; this node's claims on room codes; and
// the rooms rebuilt from storage, at a restart or when this node takes a
// room over from another.
//
// Thread safety: every method may be called from any thread. The `_locked`
// methods expect the caller to hold that room's mutex: one room's writes
// are then queued in the order its changes happened, and the single writer
// applies them in that order. Nothing here waits for a write; the reads
// (take_over, claim_new_code, restore) block on storage.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "rooms/room.hpp"
#include "rooms/room_registry.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class RoomStore {
 public:
  using NowFn = std::function<std::int64_t()>;

  // `node_id`: this node's name among several (rooms record their owner by
  // it); empty on a single node.
  RoomStore(storage::Database& db, RoomRegistry& registry, NowFn now, std::string node_id);

  // With the room locked, after a change a restart must know (a player
  // joins, leaves or is gone, the host passes on, the games are stored):
  // queues the room's whole state. Nothing for a removed or finished room,
  // whose removal is written when it happens.
  void save_locked(const Room& room);
  // With the room locked and every player over: standings, pushes, storage.
  void finish_locked(Room& room);
  // With the room locked: finishes a playing room whose players are all over.
  void finish_if_over_locked(Room& room);
  // With the room locked: takes it out of the registry and out of storage;
  // its claim goes once the removal is committed.
  void remove_locked(Room& room);

  // A code nobody uses, claimed by this node: not in the registry, and not
  // stored as another node's open room. Empty when none was found in a few
  // tries.
  std::optional<std::string> claim_new_code();
  // Gives up this node's claim on `code` (a room that was not created).
  void release(const std::string& code);
  // The stored open room `code`, claimed and rebuilt here, in the registry:
  // null when there is none, or another node holds it (then `moved` is set
  // and `owner` names that node). Blocking storage reads: only for a room
  // not in memory.
  std::shared_ptr<Room> take_over(const std::string& code, bool& moved, std::string& owner);
  // When the database says this node's claims were lost: every room is
  // dropped from memory (not from storage: another node may serve it now).
  void give_up_if_claims_lost();
  // Asks the database whether this node's claims still hold, then gives up
  // the rooms when they do not.
  void check_claims();

  // Rebuilds the open rooms an earlier run of this node stored (those whose
  // owner is this node, or nobody, and whose claim is free): every player
  // disconnected since now (their grace periods start now, and so does a
  // playing room's idle time), scores and moves from each player's stored
  // game, counted against their creators' open rooms. Returns how many
  // rooms came back. Blocking storage reads: call once, before any
  // traffic, never on a network thread. Throws StorageError on a fault.
  std::size_t restore();

 private:
  // From a stored state; every player disconnected since `now`.
  std::shared_ptr<Room> rebuild(const storage::OpenRoomRecord& stored, std::int64_t now);

  storage::Database& db_;
  RoomRegistry& registry_;
  NowFn now_;
  const std::string node_id_;
  std::atomic<std::uint64_t> claims_generation_;
  // Rooms removed whose stored state is not yet deleted: never taken over
  // from storage meanwhile. Shared with the deletions' callbacks, which may
  // run after the store is gone. Its own mutex, innermost.
  struct Removing {
    std::mutex mutex;
    std::unordered_set<std::string> codes;
  };
  std::shared_ptr<Removing> removing_ = std::make_shared<Removing>();
};

}  // namespace tilecrush::server
