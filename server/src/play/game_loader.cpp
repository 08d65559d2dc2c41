#include "play/game_loader.hpp"

#include "play/competitions.hpp"

namespace tilecrush::server {

GameLoader::GameLoader(storage::Database& db, Competitions& competitions, GameRegistry& games,
                       net::thread_pool& pool, NowFn now)
    : db_(db), competitions_(competitions), games_(games), pool_(pool), now_(std::move(now)) {}

std::shared_ptr<LiveGame> GameLoader::load(const std::string& game_id) {
  // Writes of this copy run even if the last copy's were refused
  // (Database::reload_game): the marker is queued before the read.
  db_.reload_game(game_id);
  const std::optional<storage::GameRecord> record = db_.load_game(game_id);
  if (!record) return nullptr;
  game::ReplayResult replayed = game::replay(record->setup, record->moves);
  if (!replayed.game) return nullptr;
  auto live = std::make_shared<LiveGame>();
  live->id = record->id;
  live->player_id = record->player_id;
  live->player_name = record->player_name;
  live->clock.created_at = record->created_at;
  live->room_code = record->room_code;
  live->ranked = record->ranked;
  live->competition = record->competition;
  live->attempt = record->attempt;
  if (record->setup.board_key) live->commitment = game::commitment(*record->setup.board_key);
  if (record->competition) {
    const auto competition = competitions_.find(*record->competition);
    if (!competition) return nullptr;
    // Practice started on the board after its close is not ended by it.
    if (live->clock.created_at < competition->closes_at) live->closes_at = competition->closes_at;
  }
  live->clock.first_move_at = record->first_move_at;
  live->clock.finished_at = record->finished_at;
  live->last_used_ms = now_();
  live->game = std::move(replayed.game);
  if (record->state == storage::GameState::over && !live->game->over()) {
    // Ended by resignation or by its competition's close: the moves alone
    // do not end it.
    game::EventList ignored;
    if (record->over_reason == game::OverReason::closed) {
      live->game->close(ignored);
    } else {
      live->game->resign(ignored);
    }
  }
  const bool end_lost = record->state == storage::GameState::playing && live->game->over();
  if (end_lost) {
    // Its last move was stored but not its end (queued with the move, the
    // end's write went into a batch that failed, e.g. its session was
    // cut): stored now, at the last move's time when it is known.
    live->clock.finished_at = record->move_times.empty()
                                  ? live->last_used_ms
                                  : live->clock.created_at + record->move_times.back();
  }
  const LiveGame* made = live.get();
  auto inserted = games_.insert(std::move(live));
  // (Another thread's copy, when it won the insert, stores the end itself.)
  if (end_lost && inserted.get() == made) {
    const game::Game& g = *inserted->game;
    ++inserted->pending_writes;
    db_.finish_game(
        {inserted->id, g.score(), g.move_count(), g.over_reason(), *inserted->clock.finished_at,
         inserted->duration_ms(*inserted->clock.finished_at), true},
        [this, inserted](const storage::WriteResult& r) {
          --inserted->pending_writes;
          if (!r.ok()) games_.retire(inserted);
        });
  }
  return inserted;
}

void GameLoader::acquire_game(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                              std::function<void(std::shared_ptr<LiveGame>)> then) {
  acquire(conn, game_id, [then = std::move(then)](std::shared_ptr<LiveGame> live, bool) mutable {
    then(std::move(live));
  });
}

void GameLoader::acquire(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                         std::function<void(std::shared_ptr<LiveGame>, bool)> then) {
  if (auto live = games_.find(game_id); live && !live->retired) {
    return then(std::move(live), false);
  }
  net::post(pool_, [this, conn, game_id, then = std::move(then)]() mutable {
    std::shared_ptr<LiveGame> live;
    bool fault = false;
    try {
      live = load(game_id);
    } catch (const std::exception&) {
      fault = true;
    }
    net::post(conn->executor(), [live = std::move(live), fault, then = std::move(then)]() mutable {
      then(std::move(live), fault);
    });
  });
}

}  // namespace tilecrush::server
