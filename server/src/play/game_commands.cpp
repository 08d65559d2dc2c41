#include "play/game_commands.hpp"

#include <algorithm>

#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;

// A write of a game refused as a conflict: the stored game is not the one
// this node holds (another node moved it on, or ended it). The copy here
// is retired, so the next request loads the stored one.
void fail_write(Answer& answer, const storage::WriteResult& r, std::string_view what) {
  if (r.status == storage::WriteStatus::conflict) {
    return answer.fail(ErrorCode::stale,
                       "the game changed on another connection or node: resume it to see it");
  }
  answer.fail(ErrorCode::internal, what);
}

// A move or undo that names the moves its sender saw (`move_count`) when
// the game holds another number: it was made on a board that is no longer
// there (the game moved on in another tab or device). Refused unapplied,
// so that it never lands on a board the player did not see.
bool refused_as_stale(Request& req, const game::Game& g, std::optional<std::int64_t> seen) {
  if (!seen || *seen == g.move_count()) return false;
  req.fail(ErrorCode::stale, "the game has moved on since your view of it: resume it to see it");
  return true;
}

}  // namespace

GameCommands::GameCommands(storage::Database& db, Metrics& metrics, GameRegistry& games,
                           GameLoader& loader, CompetitionCloser& closer,
                           const GameObservers& observers, NowFn now)
    : db_(db),
      metrics_(metrics),
      games_(games),
      loader_(loader),
      closer_(closer),
      observers_(observers),
      now_(std::move(now)),
      shared_db_(db.settings().backend == "postgresql") {}

void GameCommands::retire(const std::shared_ptr<LiveGame>& live) {
  games_.retire(live);
}

storage::WriteCallback GameCommands::answer_when_written(const RequestPtr& req,
                                                         const std::shared_ptr<LiveGame>& live,
                                                         std::string text, std::string_view what) {
  ++live->pending_writes;
  return [this, live, answer = req->defer(), text = std::move(text),
          what](const storage::WriteResult& r) mutable {
    --live->pending_writes;
    if (r.ok()) return answer->send_text(std::move(text));
    {
      // A conflict retires the copy under the game's mutex: a request holding
      // it queues its write before this returns, so before the marker of any
      // reload (Database::reload_game), and the writer refuses that write too.
      std::unique_lock lock(live->mutex, std::defer_lock);
      if (r.status == storage::WriteStatus::conflict) lock.lock();
      retire(live);
    }
    fail_write(*answer, r, what);
  };
}

void GameCommands::with_own_game(
    const RequestPtr& req, const std::string& game_id,
    std::function<void(const std::shared_ptr<LiveGame>&, std::unique_lock<std::mutex>&)> body) {
  loader_.acquire(
      req->conn(), game_id,
      [this, req, game_id, body = std::move(body)](std::shared_ptr<LiveGame> live,
                                                   bool fault) mutable {
        // A storage fault is not a missing game: the player may try again.
        if (fault) return req->fail(ErrorCode::internal, "could not load the game");
        if (!live) return req->fail(ErrorCode::not_found, "no such game");
        if (live->player_id != *req->state().player_id) {
          return req->fail(ErrorCode::unauthorized, "not your game");
        }
        std::unique_lock lock(live->mutex);
        if (live->retired) {
          // Evicted or rolled back meanwhile: look it up again (reloads).
          lock.unlock();
          return with_own_game(req, game_id, std::move(body));
        }
        live->last_used_ms = now_();
        if (live->closes_at && live->last_used_ms >= *live->closes_at && !live->game->over()) {
          // Its competition has closed: the game ends at its score, and the
          // request below sees a finished game (a move is then not_allowed).
          closer_.end_at_close(live);
        }
        body(live, lock);
      });
}

void GameCommands::handle(const RequestPtr& req, const protocol::Resume& cmd) {
  if (shared_db_) {
    // Another node on the database may have moved the game on since this
    // one loaded it: a copy with nothing left to write is dropped, so that
    // resume reads the database. A room's games stay with the room's node.
    if (auto live = games_.find(cmd.game_id)) {
      std::lock_guard lock(live->mutex);
      if (!live->retired && live->pending_writes == 0 && !live->room_code) retire(live);
    }
  }
  with_own_game(req, cmd.game_id,
                [this, req](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
                  LiveGame& live = *self;
                  req->answer(protocol::game_reply(
                      req->id(), protocol::game_view(*live.game, live.view_meta(now_()))));
                  observers_.resumed(req->conn(), live);
                });
}

void GameCommands::handle(const RequestPtr& req, const protocol::MoveCommand& cmd) {
  with_own_game(
      req, cmd.game_id,
      [this, req, cmd](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
        LiveGame& live = *self;
        if (refused_as_stale(*req, *live.game, cmd.seen)) return;
        game::EventList events;
        const game::Outcome outcome = live.game->apply(cmd.move, events);
        if (!outcome.ok()) return req->fail(protocol::error_code(outcome.status), outcome.reason);
        metrics_.move_accepted();
        const std::int64_t now = now_();
        if (live.game->mode() == game::Mode::hidden && !live.clock.first_move_at)
          live.clock.first_move_at = now;
        if (live.game->over()) live.clock.finished_at = now;
        std::string text = protocol::events_reply_text(req->id(), live.id, *live.game, events);
        persist_move(req, self, cmd.move, std::move(text));
        observers_.progress(live, events);
      });
}

void GameCommands::persist_move(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                                const game::Move& move, std::string text) {
  const game::Game& g = *live->game;
  storage::WriteCallback on_write =
      answer_when_written(req, live, std::move(text), "could not save the move");
  // The move's offset from the game's start, for replays at its pace.
  const std::int64_t at_ms = std::max<std::int64_t>(0, now_() - live->clock.created_at);
  if (!g.over()) {
    return db_.append_move(live->id, g.move_count() - 1, move, g.score(), g.move_count(),
                           live->clock.first_move_at, at_ms, std::move(on_write));
  }
  metrics_.game_finished();
  // The move and the end in one storage operation: both stored or neither.
  db_.append_final_move(
      move, live->clock.first_move_at, at_ms,
      {live->id, g.score(), g.move_count(), g.over_reason(), *live->clock.finished_at,
       live->duration_ms(*live->clock.finished_at), true},
      std::move(on_write));
}

void GameCommands::persist_finish(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                                  std::string text) {
  const game::Game& g = *live->game;
  metrics_.game_finished();
  db_.finish_game({live->id, g.score(), g.move_count(), g.over_reason(), *live->clock.finished_at,
                   live->duration_ms(*live->clock.finished_at), true},
                  answer_when_written(req, live, std::move(text), "could not save the game's end"));
}

void GameCommands::handle(const RequestPtr& req, const protocol::Preview& cmd) {
  with_own_game(req, cmd.game_id,
                [req, cmd](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
                  LiveGame& live = *self;
                  game::Preview preview;
                  const game::Outcome outcome = live.game->preview(cmd.point, preview);
                  if (!outcome.ok())
                    return req->fail(protocol::error_code(outcome.status), outcome.reason);
                  req->answer(protocol::preview_reply(req->id(), live.id, preview));
                });
}

void GameCommands::handle(const RequestPtr& req, const protocol::HintRequest& cmd) {
  with_own_game(req, cmd.game_id,
                [req](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
                  LiveGame& live = *self;
                  game::Hint hint;
                  const game::Outcome outcome = live.game->hint(hint);
                  if (!outcome.ok()) {
                    return req->fail(protocol::error_code(outcome.status), outcome.reason);
                  }
                  req->answer(protocol::hint_reply(req->id(), live.id, hint));
                });
}

void GameCommands::handle(const RequestPtr& req, const protocol::Undo& cmd) {
  with_own_game(
      req, cmd.game_id,
      [this, req, seen = cmd.seen](const std::shared_ptr<LiveGame>& self,
                                   std::unique_lock<std::mutex>&) {
        LiveGame& live = *self;
        if (refused_as_stale(*req, *live.game, seen)) return;
        const game::Outcome outcome = live.game->undo();
        if (!outcome.ok()) return req->fail(protocol::error_code(outcome.status), outcome.reason);
        const game::Game& g = *live.game;
        std::string text = protocol::dump(
            protocol::game_reply(req->id(), protocol::game_view(g, live.view_meta(now_()))));
        db_.undo_move(live.id, g.move_count(), g.score(), g.move_count(),
                      answer_when_written(req, self, std::move(text), "could not save the undo"));
        observers_.progress(live, {});
      });
}

void GameCommands::handle(const RequestPtr& req, const protocol::Resign& cmd) {
  with_own_game(req, cmd.game_id,
                [this, req](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
                  LiveGame& live = *self;
                  game::EventList events;
                  const game::Outcome outcome = live.game->resign(events);
                  if (!outcome.ok())
                    return req->fail(protocol::error_code(outcome.status), outcome.reason);
                  live.clock.finished_at = now_();
                  std::string text =
                      protocol::events_reply_text(req->id(), live.id, *live.game, events);
                  persist_finish(req, self, std::move(text));
                  observers_.progress(live, events);
                });
}

}  // namespace tilecrush::server
