// Finds a game: in memory (the GameRegistry), or else loaded from storage,
// replayed and registered, on the storage thread pool.
//
// Thread safety: thread-safe. load() blocks on storage: call it on the pool
// (acquire() does), never on a network thread.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "net/connection.hpp"
#include "net/net.hpp"
#include "play/live_game.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class Competitions;

class GameLoader {
 public:
  using NowFn = std::function<std::int64_t()>;

  // `pool` runs the storage reads; all must outlive the loader.
  GameLoader(storage::Database& db, Competitions& competitions, GameRegistry& games,
             net::thread_pool& pool, NowFn now);

  // A stored game, replayed and registered; null when there is no such
  // game (or it does not replay, or its competition is gone). Throws
  // StorageError on a storage fault. Blocking: call it on the pool.
  std::shared_ptr<LiveGame> load(const std::string& game_id);
  // Finds (or loads) a game, then calls `then` on `conn`'s thread with the
  // game, or null and `fault` true on a storage fault, or null and `fault`
  // false when there is no such game.
  void acquire(const std::shared_ptr<Connection>& conn, const std::string& game_id,
               std::function<void(std::shared_ptr<LiveGame>, bool fault)> then);
  // acquire() for rooms, which treat a fault as a missing game.
  void acquire_game(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                    std::function<void(std::shared_ptr<LiveGame>)> then);

 private:
  storage::Database& db_;
  Competitions& competitions_;
  GameRegistry& games_;
  net::thread_pool& pool_;
  NowFn now_;
};

}  // namespace tilecrush::server
