// The single-player game service: authenticates players (hello), creates
// and resumes games, applies moves through the engine, persists them, and
// answers. Rooms build on it (make_game, register_game, acquire_game) and
// follow their games through GameObserver; it knows nothing of rooms.
//
// A move is answered only once it is durable: the answer leaves from the
// storage callback after the batch holding the move has committed, while
// the connection already reads its next message (request.hpp).
//
// Thread safety: handle() runs on the calling connection's thread; shared
// state (games, players) is guarded as described in live_game.hpp. Storage
// reads run on the service's own small thread pool, never on the network
// threads. Observers are added before traffic starts and removed after it
// ends.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "net/connection.hpp"
#include "ops/metrics.hpp"
#include "play/live_game.hpp"
#include "play/request.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class BoardKeys;
class Competitions;

// Told of what happens to games, under the game's lock (so in the order it
// happened); must not block.
class GameObserver {
 public:
  virtual ~GameObserver() = default;
  // After every accepted move, undo (no events) or resign.
  virtual void on_game_progress(LiveGame& live, const game::EventList& events) = 0;
  // After a player resumed a game on `conn`.
  virtual void on_resume(const std::shared_ptr<Connection>& conn, LiveGame& live) = 0;
};

class GameService {
 public:
  using NowFn = std::function<std::int64_t()>;

  GameService(storage::Database& db, Metrics& metrics, NowFn now, BoardKeys& keys,
              Competitions& competitions);
  ~GameService();

  void subscribe(GameObserver& observer);
  void unsubscribe(GameObserver& observer);

  // The commands of protocol.md this service answers.
  void handle(const RequestPtr& req, const protocol::Hello& cmd);
  void handle(const RequestPtr& req, const protocol::NewGame& cmd);
  void handle(const RequestPtr& req, const protocol::Resume& cmd);
  void handle(const RequestPtr& req, const protocol::MoveCommand& cmd);
  void handle(const RequestPtr& req, const protocol::Preview& cmd);
  void handle(const RequestPtr& req, const protocol::HintRequest& cmd);
  void handle(const RequestPtr& req, const protocol::Undo& cmd);
  void handle(const RequestPtr& req, const protocol::Resign& cmd);
  void handle(const RequestPtr& req, const protocol::Running& cmd);

  // What `welcome.running` and the `running` answer list (protocol.md,
  // "Running attempts"): at most this many attempts, found among the
  // player's this many latest games.
  static constexpr std::int64_t kRunningListed = 20;
  static constexpr std::int64_t kRunningScanned = 1000;
  // A new recovery code for the signed-in player (recovery.cpp).
  void handle(const RequestPtr& req, const protocol::RecoveryCode& cmd);

  // Drops idle, fully persisted games from memory (they reload on demand).
  std::size_t evict_idle(std::chrono::milliseconds idle);
  // Drops finished games whose writes are durable (GameRegistry::evict_finished).
  std::size_t evict_finished() { return games_.evict_finished(); }
  std::size_t live_games() const { return games_.size(); }
  // Waits for running storage reads to finish.
  void stop();

  // For rooms: finds (or loads) a game, then calls `then` on `conn`'s thread
  // with the game or null.
  void acquire_game(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                    std::function<void(std::shared_ptr<LiveGame>)> then);
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

  // The closing work of a competition past its close: every game still
  // playing on it ends at its score (reason closed), every entry is replayed
  // again and flagged when it does not replay, and the competition is marked
  // closed. Blocking: call it on a pool thread, never a network thread.
  void close_competition(const storage::CompetitionRecord& competition);
  // Runs `work` on the service's storage thread pool.
  void post_to_pool(std::function<void()> work);

  std::int64_t now() const { return now_(); }

 private:
  // hello with `recovery` (recovery.cpp), on the storage pool: checks the
  // code and stores a new device token, then calls `welcome` with the
  // player and that token, or `refuse`.
  // id, name, token, and the player's running attempts (welcome.running).
  using WelcomeFn = std::function<void(std::int64_t, std::string, std::string, nlohmann::json)>;
  using RefuseFn = std::function<void(protocol::ErrorCode, std::string)>;
  void recover(const protocol::Hello& cmd, WelcomeFn welcome, RefuseFn refuse);
  // Whether `token` is one of the player's (its first token or a device
  // token). Reads storage: call it on the pool. Throws on storage faults.
  bool owns_name(const storage::PlayerRecord& player, std::string_view token);

  // The rest of new_game, once any storage read it needs may be done here.
  void start_game(const RequestPtr& req, const protocol::NewGame& cmd, game::GameSetup setup,
                  bool server_seed);
  // A game of a competition that has closed ends now (reason closed, at the
  // close's time), written without an answer. Called with the game locked.
  void end_at_close(const std::shared_ptr<LiveGame>& live);

  // Runs `body` with the player's own game locked, or answers the error
  // (not_found, unauthorized) itself. `body` runs on the connection's thread.
  void with_own_game(
      const RequestPtr& req, const std::string& game_id,
      std::function<void(const std::shared_ptr<LiveGame>&, std::unique_lock<std::mutex>&)> body);
  // A stored game, replayed and registered; null when there is no such
  // game (or it does not replay, or its competition is gone). Throws
  // StorageError on a storage fault. Blocking: call it on the pool.
  std::shared_ptr<LiveGame> load_game(const std::string& game_id);
  // acquire_game, telling a storage fault (`fault` true, the game null)
  // apart from a missing game.
  void acquire(const std::shared_ptr<Connection>& conn, const std::string& game_id,
               std::function<void(std::shared_ptr<LiveGame>, bool fault)> then);
  // Queues the writes of an accepted move (and the game's end); `text` is
  // answered once they commit. Called with the game locked.
  void persist_move(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                    const game::Move& move, std::string text);
  void persist_finish(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                      std::string text);
  // A write of `live` failed: memory may be ahead of the database, so the
  // game leaves the registry (the next request reloads it).
  void retire(const std::shared_ptr<LiveGame>& live);
  void notify_progress(LiveGame& live, const game::EventList& events);
  // The player's running attempts as the protocol lists them (a storage
  // read: call it on the pool). Throws StorageError.
  nlohmann::json running_list(std::int64_t player_id);

  storage::Database& db_;
  Metrics& metrics_;
  NowFn now_;
  BoardKeys& keys_;
  Competitions& competitions_;
  GameRegistry games_;
  std::vector<GameObserver*> observers_;
  std::unique_ptr<net::thread_pool> db_pool_;
  // PostgreSQL, which other nodes may write: resume reads the database.
  bool shared_db_ = false;
};

}  // namespace tilecrush::server
