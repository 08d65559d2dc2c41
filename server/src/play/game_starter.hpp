// Starting games: new_game, and what rooms share of it. Deals a game (with
// its board's key when the board is ranked), counts competition attempts,
// and makes the game durable before anyone hears of it.
//
// Thread safety: thread-safe. handle() runs on the calling connection's
// thread and does its storage reads (competitions, keys not cached) on the
// pool it is given.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "net/net.hpp"
#include "ops/metrics.hpp"
#include "play/live_game.hpp"
#include "play/request.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class BoardKeys;
class Competitions;

class GameStarter {
 public:
  using NowFn = std::function<std::int64_t()>;

  GameStarter(storage::Database& db, Metrics& metrics, BoardKeys& keys, Competitions& competitions,
              GameRegistry& games, net::thread_pool& pool, NowFn now);

  void handle(const RequestPtr& req, const protocol::NewGame& cmd);

  // Deals a new game (not yet registered); null with `error` when the
  // setup is refused.
  std::shared_ptr<LiveGame> make_game(const game::GameSetup& setup, std::int64_t player_id,
                                      const std::string& player_name,
                                      std::optional<std::string> room_code, std::string* error);
  // Registers and persists a game from make_game(); `committed` runs on the
  // writer thread once it is durable, with the create's result (not ok:
  // storage refused it; conflict for a competition: no attempts left). A
  // competition game (live->competition set) counts an attempt by `rule`.
  void register_game(const std::shared_ptr<LiveGame>& live,
                     std::function<void(const storage::WriteResult&)> committed,
                     std::optional<storage::GameRecord::AttemptRule> rule = std::nullopt);

 private:
  // The rest of new_game, once any storage read it needs may be done here.
  void start_game(const RequestPtr& req, const protocol::NewGame& cmd, game::GameSetup setup,
                  bool server_seed);

  storage::Database& db_;
  Metrics& metrics_;
  BoardKeys& keys_;
  Competitions& competitions_;
  GameRegistry& games_;
  net::thread_pool& pool_;
  NowFn now_;
};

}  // namespace tilecrush::server
