// The game requests of GameService: new_game, resume, moves, preview, hint,
// undo, resign.
#include <algorithm>

#include "ops/clock.hpp"
#include "play/competitions.hpp"
#include "play/game_service.hpp"
#include "play/ids.hpp"
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

}  // namespace

std::shared_ptr<LiveGame> GameService::load_game(const std::string& game_id) {
  const std::optional<storage::GameRecord> record = db_.load_game(game_id);
  if (!record) return nullptr;
  game::ReplayResult replayed = game::replay(record->setup, record->moves);
  if (!replayed.game) return nullptr;
  auto live = std::make_shared<LiveGame>();
  live->id = record->id;
  live->player_id = record->player_id;
  live->player_name = record->player_name;
  live->created_at = record->created_at;
  live->room_code = record->room_code;
  live->ranked = record->ranked;
  live->competition = record->competition;
  live->attempt = record->attempt;
  if (record->setup.board_key) live->commitment = game::commitment(*record->setup.board_key);
  if (record->competition) {
    const auto competition = competitions_.find(*record->competition);
    if (!competition) return nullptr;
    // Practice started on the board after its close is not ended by it.
    if (live->created_at < competition->closes_at) live->closes_at = competition->closes_at;
  }
  live->first_move_at = record->first_move_at;
  live->finished_at = record->finished_at;
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
    live->finished_at = record->move_times.empty() ? live->last_used_ms
                                                   : live->created_at + record->move_times.back();
  }
  const LiveGame* made = live.get();
  auto inserted = games_.insert(std::move(live));
  // (Another thread's copy, when it won the insert, stores the end itself.)
  if (end_lost && inserted.get() == made) {
    const game::Game& g = *inserted->game;
    ++inserted->pending_writes;
    db_.finish_game({inserted->id, g.score(), g.move_count(), g.over_reason(),
                     *inserted->finished_at, inserted->duration_ms(*inserted->finished_at), true},
                    [this, inserted](const storage::WriteResult& r) {
                      --inserted->pending_writes;
                      if (!r.ok()) retire(inserted);
                    });
  }
  return inserted;
}

void GameService::acquire_game(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                               std::function<void(std::shared_ptr<LiveGame>)> then) {
  acquire(conn, game_id, [then = std::move(then)](std::shared_ptr<LiveGame> live, bool) mutable {
    then(std::move(live));
  });
}

void GameService::acquire(const std::shared_ptr<Connection>& conn, const std::string& game_id,
                          std::function<void(std::shared_ptr<LiveGame>, bool)> then) {
  if (auto live = games_.find(game_id); live && !live->retired) {
    return then(std::move(live), false);
  }
  net::post(*db_pool_, [this, conn, game_id, then = std::move(then)]() mutable {
    std::shared_ptr<LiveGame> live;
    bool fault = false;
    try {
      live = load_game(game_id);
    } catch (const std::exception&) {
      fault = true;
    }
    net::post(conn->executor(), [live = std::move(live), fault, then = std::move(then)]() mutable {
      then(std::move(live), fault);
    });
  });
}

void GameService::with_own_game(
    const RequestPtr& req, const std::string& game_id,
    std::function<void(const std::shared_ptr<LiveGame>&, std::unique_lock<std::mutex>&)> body) {
  acquire(req->conn(), game_id,
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
              end_at_close(live);
            }
            body(live, lock);
          });
}

void GameService::handle(const RequestPtr& req, const protocol::Resume& cmd) {
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
                  for (GameObserver* o : observers_) o->on_resume(req->conn(), live);
                });
}

void GameService::handle(const RequestPtr& req, const protocol::MoveCommand& cmd) {
  with_own_game(
      req, cmd.game_id,
      [this, req, cmd](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
        LiveGame& live = *self;
        game::EventList events;
        const game::Outcome outcome = live.game->apply(cmd.move, events);
        if (!outcome.ok()) return req->fail(protocol::error_code(outcome.status), outcome.reason);
        metrics_.move_accepted();
        const std::int64_t now = now_();
        if (live.game->mode() == game::Mode::hidden && !live.first_move_at)
          live.first_move_at = now;
        if (live.game->over()) live.finished_at = now;
        std::string text = protocol::events_reply_text(req->id(), live.id, *live.game, events);
        persist_move(req, self, cmd.move, std::move(text));
        notify_progress(live, events);
      });
}

void GameService::persist_move(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                               const game::Move& move, std::string text) {
  const game::Game& g = *live->game;
  auto on_write = [this, live, answer = req->defer(),
                   text = std::move(text)](const storage::WriteResult& r) mutable {
    --live->pending_writes;
    if (r.ok()) return answer->send_text(std::move(text));
    retire(live);
    fail_write(*answer, r, "could not save the move");
  };
  ++live->pending_writes;
  // The move's offset from the game's start, for replays at its pace.
  const std::int64_t at_ms = std::max<std::int64_t>(0, now_() - live->created_at);
  if (!g.over()) {
    return db_.append_move(live->id, g.move_count() - 1, move, g.score(), g.move_count(),
                           live->first_move_at, at_ms, std::move(on_write));
  }
  metrics_.game_finished();
  // The move and the end in one storage operation: both stored or neither.
  db_.append_final_move(move, live->first_move_at, at_ms,
                        {live->id, g.score(), g.move_count(), g.over_reason(), *live->finished_at,
                         live->duration_ms(*live->finished_at), true},
                        std::move(on_write));
}

void GameService::persist_finish(const RequestPtr& req, const std::shared_ptr<LiveGame>& live,
                                 std::string text) {
  const game::Game& g = *live->game;
  metrics_.game_finished();
  ++live->pending_writes;
  db_.finish_game({live->id, g.score(), g.move_count(), g.over_reason(), *live->finished_at,
                   live->duration_ms(*live->finished_at), true},
                  [this, answer = req->defer(), live,
                   text = std::move(text)](const storage::WriteResult& r) mutable {
                    --live->pending_writes;
                    if (r.ok()) return answer->send_text(std::move(text));
                    retire(live);
                    fail_write(*answer, r, "could not save the game's end");
                  });
}

void GameService::handle(const RequestPtr& req, const protocol::Preview& cmd) {
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

void GameService::handle(const RequestPtr& req, const protocol::HintRequest& cmd) {
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

void GameService::handle(const RequestPtr& req, const protocol::Undo& cmd) {
  with_own_game(req, cmd.game_id,
                [this, req](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
                  LiveGame& live = *self;
                  const game::Outcome outcome = live.game->undo();
                  if (!outcome.ok())
                    return req->fail(protocol::error_code(outcome.status), outcome.reason);
                  const game::Game& g = *live.game;
                  std::string text = protocol::dump(protocol::game_reply(
                      req->id(), protocol::game_view(g, live.view_meta(now_()))));
                  ++live.pending_writes;
                  db_.undo_move(live.id, g.move_count(), g.score(), g.move_count(),
                                [this, answer = req->defer(), self,
                                 text = std::move(text)](const storage::WriteResult& r) mutable {
                                  --self->pending_writes;
                                  if (r.ok()) return answer->send_text(std::move(text));
                                  retire(self);
                                  fail_write(*answer, r, "could not save the undo");
                                });
                  notify_progress(live, {});
                });
}

void GameService::handle(const RequestPtr& req, const protocol::Resign& cmd) {
  with_own_game(req, cmd.game_id,
                [this, req](const std::shared_ptr<LiveGame>& self, std::unique_lock<std::mutex>&) {
                  LiveGame& live = *self;
                  game::EventList events;
                  const game::Outcome outcome = live.game->resign(events);
                  if (!outcome.ok())
                    return req->fail(protocol::error_code(outcome.status), outcome.reason);
                  live.finished_at = now_();
                  std::string text =
                      protocol::events_reply_text(req->id(), live.id, *live.game, events);
                  persist_finish(req, self, std::move(text));
                  notify_progress(live, events);
                });
}

}  // namespace tilecrush::server
