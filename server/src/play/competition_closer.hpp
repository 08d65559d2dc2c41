// The close of a competition, seen from the games: games still running end
// at their score (reason closed), every entry is replayed again
// (moderation), a daily's season points are counted, and the competition is
// marked closed (docs/rules.md, "Competitions" and "Seasons").
//
// Thread safety: thread-safe. end_at_close() is called with the game
// locked; close() blocks on storage: call it on a pool thread, never a
// network thread.
#pragma once

#include <functional>
#include <memory>

#include "ops/metrics.hpp"
#include "play/game_loader.hpp"
#include "play/live_game.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class CompetitionCloser {
 public:
  using NowFn = std::function<std::int64_t()>;

  CompetitionCloser(storage::Database& db, Metrics& metrics, GameRegistry& games,
                    GameLoader& loader, NowFn now);

  // A game of a competition that has closed ends now (reason closed, at the
  // close's time), written without an answer. Called with the game locked.
  void end_at_close(const std::shared_ptr<LiveGame>& live);
  // The closing work of a competition past its close: every game still
  // playing on it ends at its score, every entry is replayed again and
  // flagged when it does not replay, and the competition is marked closed.
  void close(const storage::CompetitionRecord& competition);

 private:
  storage::Database& db_;
  Metrics& metrics_;
  GameRegistry& games_;
  GameLoader& loader_;
  NowFn now_;
};

}  // namespace tilecrush::server
