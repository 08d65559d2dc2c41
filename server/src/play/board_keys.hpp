// The secret keys of ranked boards (rules version 2, docs/rules.md): every
// (scope, mode, preset, seed) board gets one key, drawn once from the
// operating system's random source and stored with the board, so everyone
// on a board gets the same board while nobody can compute it in advance.
//
// A key is handed out only once its board's row is queued for the
// database: a game created afterwards is queued behind it, so the board is
// committed no later than the game that uses it (storage refuses a keyed
// game without its board).
//
// Thread safety: thread-safe. Two requests for a new board on a label a
// player chose, in this process or on other nodes, agree on its key: each
// waits for its creation to commit, and the one whose insert lost reads the
// winner's key back.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "tilecrush/game/crypto.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class BoardKeys {
 public:
  // Draws a new key for a board; the server's is system_random().
  using KeySource = std::function<game::BoardSecret(const storage::BoardKey&)>;
  using NowFn = std::function<std::int64_t()>;

  BoardKeys(storage::Database& db, KeySource source, NowFn now);

  // 256 bits from OpenSSL's RAND_bytes (the OS random source); throws when
  // the source fails, which ends the request with `internal`.
  static KeySource system_random();

  // The key of a casual board (scope ""), creating the board when it is
  // new. `fresh`: its seed was just drawn by the server, so the board cannot
  // exist yet and nothing is read. Otherwise a cache miss reads storage and
  // may wait for a write: call it off the network threads and never from a
  // write callback. nullopt: storage failed.
  std::optional<game::BoardSecret> casual_key(const storage::BoardKey& board, bool fresh);
  // Only what is cached (no storage access): for the network threads.
  std::optional<game::BoardSecret> cached(const storage::BoardKey& board) const;

  // A new board (a competition's, written by Competitions with its row):
  // its record with a fresh key.
  storage::BoardRecord new_board(storage::BoardKey board, std::optional<std::int64_t> closes_at);
  // Remembers a key known to be stored.
  void remember(const storage::BoardKey& board, const game::BoardSecret& key);
  // Entries at most; past it the cache starts over. A new board's key is
  // cached only until the board is stored (every game on a seed the server
  // draws is a new board), so the cache holds boards read from storage
  // (competitions', seeds chosen by players) and boards being stored.
  static constexpr std::size_t kMaxCached = 16384;
  // Keys cached now (a gauge of /metrics), at most kMaxCached.
  std::size_t cached_count() const;

 private:
  static std::string cache_key(const storage::BoardKey& board);

  storage::Database& db_;
  KeySource source_;
  NowFn now_;
  mutable std::mutex mutex_;
  // Bounded: past kMaxCached entries it starts over (misses just read again).
  std::unordered_map<std::string, game::BoardSecret> cache_;
};

}  // namespace tilecrush::server
