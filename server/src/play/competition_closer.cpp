#include "play/competition_closer.hpp"

#include <limits>

namespace tilecrush::server {

CompetitionCloser::CompetitionCloser(storage::Database& db, Metrics& metrics, GameRegistry& games,
                                     GameLoader& loader, NowFn now)
    : db_(db), metrics_(metrics), games_(games), loader_(loader), now_(std::move(now)) {}

void CompetitionCloser::end_at_close(const std::shared_ptr<LiveGame>& live) {
  game::EventList events;
  if (!live->game->close(events).ok()) return;
  // It ended when the competition closed, whenever this runs.
  live->clock.finished_at = *live->closes_at;
  const game::Game& g = *live->game;
  metrics_.game_finished();
  ++live->pending_writes;
  db_.finish_game({live->id, g.score(), g.move_count(), g.over_reason(), *live->clock.finished_at,
                   live->duration_ms(*live->clock.finished_at), true},
                  [this, live](const storage::WriteResult& r) {
                    --live->pending_writes;
                    if (r.ok()) return;
                    games_.retire(live);
                  });
}

void CompetitionCloser::close(const storage::CompetitionRecord& competition) {
  for (const std::string& id : db_.playing_games_in(competition.id)) {
    for (int tries = 0; tries < 2; ++tries) {
      auto live = games_.find(id);
      if (!live || live->retired) {
        try {
          live = loader_.load(id);
        } catch (const std::exception&) {
          live = nullptr;  // a fault: this game is not ended by this pass
        }
      }
      if (!live) break;
      std::unique_lock lock(live->mutex);
      if (live->retired) continue;  // evicted meanwhile: load it again
      // Practice on the closed board (started once the close had passed,
      // before this closing work ran) plays on.
      if (live->clock.created_at >= competition.closes_at) break;
      if (!live->closes_at) live->closes_at = competition.closes_at;
      if (!live->game->over()) end_at_close(live);
      break;
    }
  }
  db_.flush();

  // Moderation: each entry's game must replay to the entry's result.
  const storage::BoardKey board{competition.mode, competition.preset, competition.seed,
                                competition.id};
  const auto page = db_.leaderboard(board, std::numeric_limits<std::int32_t>::max(), 0);
  for (const storage::LeaderboardEntry& e : page.entries) {
    const auto record = db_.load_game(e.game_id);
    std::string why;
    if (!record) {
      why = "the entry's game is missing";
    } else {
      const game::ReplayResult replayed = game::replay(record->setup, record->moves);
      if (!replayed.game) {
        why = "the moves do not replay: " + replayed.error;
      } else if (replayed.game->score() != e.score || replayed.game->move_count() != e.move_count) {
        why = "the replay scores " + std::to_string(replayed.game->score()) + " in " +
              std::to_string(replayed.game->move_count()) + " moves";
      }
    }
    if (!why.empty()) {
      db_.flag_entry({competition.id, e.player_id, {}, "replay_failed", e.game_id, why, now_()});
    }
  }
  // A daily's points go to its week's and month's standings (docs/rules.md,
  // "Seasons"), before it is marked closed: a close run again after a
  // restart counts it again, which counts nothing twice.
  if (competition.daily) db_.record_season_points(competition.id);
  db_.mark_competition_closed(competition.id);
  db_.flush();
}

}  // namespace tilecrush::server
