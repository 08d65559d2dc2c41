// A game being played, held in memory, and the registry of such games.
//
// The engine state of a LiveGame is guarded by its mutex: requests for one
// game from several connections (two tabs, a room) are applied one at a
// time, and every storage write of a game is queued while holding it, so
// writes reach the database in the order the moves were applied.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "play/play_clock.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

struct LiveGame {
  std::mutex mutex;
  // Fixed at creation:
  std::string id;
  std::int64_t player_id = 0;
  std::string player_name;
  std::optional<std::string> room_code;
  // Whether it feeds its board's leaderboard (the record's flag).
  bool ranked = false;
  // A competition game: which, its counted attempt (0: none), and when the
  // competition closes: from then on no move is accepted and the game ends
  // at its score (reason closed).
  std::optional<std::string> competition;
  std::int64_t attempt = 0;
  std::optional<std::int64_t> closes_at;
  // SHA-256 of the board's key, for a keyed board.
  std::optional<std::string> commitment;
  // Guarded by mutex (clock.created_at is fixed at creation):
  std::unique_ptr<game::Game> game;
  PlayClock clock;
  std::int64_t last_used_ms = 0;
  // Writes queued and not yet committed; a game is only evicted at 0.
  // Atomic: storage callbacks update it without taking the mutex.
  std::atomic<int> pending_writes{0};
  // Set under the mutex when the game leaves the registry (evicted, or a
  // write failed so memory may be ahead of the database). Whoever then holds
  // this object must look the game up again, which reloads it from storage.
  std::atomic<bool> retired{false};

  // The game's duration if it ends at `end` (PlayClock::duration_ms).
  std::int64_t duration_ms(std::int64_t end) const;
  // What its GameView shows besides the engine state.
  protocol::GameViewMeta view_meta(std::int64_t now) const;
};

// Thread safety: thread-safe. Lock order: a game's mutex may be held while
// taking the registry's, never the other way round.
class GameRegistry {
 public:
  std::shared_ptr<LiveGame> find(const std::string& id) const;
  // Inserts unless the id is present; returns the game now registered.
  std::shared_ptr<LiveGame> insert(std::shared_ptr<LiveGame> game);
  void erase(const std::string& id, const LiveGame* expected);
  // A write of `game` failed: memory may be ahead of the database, so the
  // game leaves the registry (the next request reloads it).
  void retire(const std::shared_ptr<LiveGame>& game);
  // Drops games unused since `idle_before` with nothing left to write; a
  // later request reloads them from storage. Returns how many were dropped.
  std::size_t evict_idle(std::int64_t idle_before);
  // Drops games that are over with nothing left to write, outside rooms
  // (a room follows its games to the end of the room; they leave with
  // evict_idle). A game busy on another thread is left for the next call.
  std::size_t evict_finished();
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<LiveGame>> games_;
};

}  // namespace tilecrush::server
