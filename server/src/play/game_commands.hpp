// The requests on one live game of the player's own: resume, moves,
// preview, hint, undo, resign. Each finds the game (GameLoader), locks it,
// applies the request through the engine, queues its writes and tells the
// observers; an answer that needs a write leaves once the write commits,
// while the connection already reads its next message (request.hpp).
//
// Thread safety: handle() runs on the calling connection's thread; the game
// is guarded by its mutex (live_game.hpp), and storage callbacks only touch
// what is atomic or the Answer they hold.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "ops/metrics.hpp"
#include "play/competition_closer.hpp"
#include "play/game_loader.hpp"
#include "play/game_observer.hpp"
#include "play/live_game.hpp"
#include "play/request.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class GameCommands {
 public:
  using NowFn = std::function<std::int64_t()>;

  GameCommands(storage::Database& db, Metrics& metrics, GameRegistry& games, GameLoader& loader,
               CompetitionCloser& closer, const GameObservers& observers, NowFn now);

  void handle(const RequestPtr& req, const protocol::Resume& cmd);
  void handle(const RequestPtr& req, const protocol::MoveCommand& cmd);
  void handle(const RequestPtr& req, const protocol::Preview& cmd);
  void handle(const RequestPtr& req, const protocol::HintRequest& cmd);
  void handle(const RequestPtr& req, const protocol::Undo& cmd);
  void handle(const RequestPtr& req, const protocol::Resign& cmd);

 private:
  // Runs `body` with the player's own game locked, or answers the error
  // (not_found, unauthorized, internal) itself. `body` runs on the
  // connection's thread.
  void with_own_game(
      const RequestPtr& req, const std::string& game_id,
      std::function<void(const std::shared_ptr<LiveGame>&, std::unique_lock<std::mutex>&)> body);
  // Queues the writes of an accepted move (and the game's end); `text` is
  // answered once they commit. Called with the game locked.
  void persist_move(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                    const game::Move& move, std::string text);
  void persist_finish(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                      std::string text);
  // A write of `live` failed: it leaves the registry (GameRegistry::retire).
  void retire(const std::shared_ptr<LiveGame>& live);
  // The callback of a write of `live`, counted in its pending_writes from
  // now: sends `text` once stored; a write refused or lost retires the game
  // and answers the failure (`what`, or stale for a conflict). `what` must
  // be a literal (it is kept until the write ends).
  storage::WriteCallback answer_when_written(const RequestPtr& req,
                                             const std::shared_ptr<LiveGame>& live,
                                             std::string text, std::string_view what);

  storage::Database& db_;
  Metrics& metrics_;
  GameRegistry& games_;
  GameLoader& loader_;
  CompetitionCloser& closer_;
  const GameObservers& observers_;
  NowFn now_;
  // PostgreSQL, which other nodes may write: resume reads the database.
  const bool shared_db_;
};

}  // namespace tilecrush::server
