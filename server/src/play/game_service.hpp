// The single-player game service: owns the live games (GameRegistry), the
// storage thread pool and the parts that each do one job, and routes each
// request to its part:
//   Players            hello, running, recovery_code
//   GameStarter        new_game; dealing and registering games (rooms too)
//   GameCommands       resume, moves, preview, hint, undo, resign
//   GameLoader         finding a game in memory or loading it from storage
//   CompetitionCloser  ending a closed competition's games, moderation
// Rooms build on it (make_game, register_game, acquire_game) and follow
// their games through GameObserver; it knows nothing of rooms.
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
#include <optional>
#include <string>

#include "net/connection.hpp"
#include "ops/metrics.hpp"
#include "play/competition_closer.hpp"
#include "play/game_commands.hpp"
#include "play/game_loader.hpp"
#include "play/game_observer.hpp"
#include "play/game_starter.hpp"
#include "play/live_game.hpp"
#include "play/players.hpp"
#include "play/request.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class BoardKeys;
class Competitions;

class GameService {
 public:
  using NowFn = std::function<std::int64_t()>;

  GameService(storage::Database& db, Metrics& metrics, NowFn now, BoardKeys& keys,
              Competitions& competitions);
  ~GameService();

  void subscribe(GameObserver& observer) { observers_.add(observer); }
  void unsubscribe(GameObserver& observer) { observers_.remove(observer); }

  // The commands of protocol.md this service answers.
  void handle(const RequestPtr& req, const protocol::Hello& cmd) { players_.handle(req, cmd); }
  void handle(const RequestPtr& req, const protocol::Running& cmd) { players_.handle(req, cmd); }
  void handle(const RequestPtr& req, const protocol::RecoveryCode& cmd) {
    players_.handle(req, cmd);
  }
  void handle(const RequestPtr& req, const protocol::NewGame& cmd) { starter_.handle(req, cmd); }
  void handle(const RequestPtr& req, const protocol::Resume& cmd) { commands_.handle(req, cmd); }
  void handle(const RequestPtr& req, const protocol::MoveCommand& cmd) {
    commands_.handle(req, cmd);
  }
  void handle(const RequestPtr& req, const protocol::Preview& cmd) { commands_.handle(req, cmd); }
  void handle(const RequestPtr& req, const protocol::HintRequest& cmd) {
    commands_.handle(req, cmd);
  }
  void handle(const RequestPtr& req, const protocol::Undo& cmd) { commands_.handle(req, cmd); }
  void handle(const RequestPtr& req, const protocol::Resign& cmd) { commands_.handle(req, cmd); }

  // Drops idle, fully persisted games from memory (they reload on demand).
  std::size_t evict_idle(std::chrono::milliseconds idle);
  // Drops finished games whose writes are durable (GameRegistry::evict_finished).
  std::size_t evict_finished() { return games_.evict_finished(); }
  std::size_t live_games() const { return games_.size(); }
  // Waits for running storage reads to finish.
  void stop();

  // For rooms (GameLoader::acquire_game, GameStarter::make_game and
  // register_game).
  void acquire_game(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                    std::function<void(std::shared_ptr<LiveGame>)> then) {
    loader_.acquire_game(conn, game_id, std::move(then));
  }
  std::shared_ptr<LiveGame> make_game(const game::GameSetup& setup, std::int64_t player_id,
                                      const std::string& player_name,
                                      std::optional<std::string> room_code, std::string* error) {
    return starter_.make_game(setup, player_id, player_name, std::move(room_code), error);
  }
  void register_game(const std::shared_ptr<LiveGame>& live,
                     std::function<void(const storage::WriteResult&)> committed,
                     std::optional<storage::GameRecord::AttemptRule> rule = std::nullopt) {
    starter_.register_game(live, std::move(committed), rule);
  }

  // CompetitionCloser::close. Blocking: call it on a pool thread, never a
  // network thread.
  void close_competition(const storage::CompetitionRecord& competition) {
    closer_.close(competition);
  }
  // Runs `work` on the service's storage thread pool.
  void post_to_pool(std::function<void()> work);

  std::int64_t now() const { return now_(); }

 private:
  NowFn now_;
  GameRegistry games_;
  GameObservers observers_;
  // Before the parts, which hold it; joined by stop() before they go.
  std::unique_ptr<net::thread_pool> db_pool_;
  GameLoader loader_;
  CompetitionCloser closer_;
  GameStarter starter_;
  GameCommands commands_;
  Players players_;
};

}  // namespace tilecrush::server
