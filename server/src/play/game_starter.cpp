#include "play/game_starter.hpp"

#include "ops/clock.hpp"
#include "play/board_keys.hpp"
#include "play/competitions.hpp"
#include "play/ids.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;

// Joins the create and (for a board with no move at all) the finish write.
struct CreateJoin {
  explicit CreateJoin(int n) : remaining(n) {}
  std::atomic<int> remaining;
  std::atomic<bool> failed{false};
  storage::WriteResult created;
};

}  // namespace

GameStarter::GameStarter(storage::Database& db, Metrics& metrics, BoardKeys& keys,
                         Competitions& competitions, GameRegistry& games, net::thread_pool& pool,
                         NowFn now)
    : db_(db),
      metrics_(metrics),
      keys_(keys),
      competitions_(competitions),
      games_(games),
      pool_(pool),
      now_(std::move(now)) {}

std::shared_ptr<LiveGame> GameStarter::make_game(const game::GameSetup& setup,
                                                 std::int64_t player_id,
                                                 const std::string& player_name,
                                                 std::optional<std::string> room_code,
                                                 std::string* error) {
  game::GameSetup dealt = setup;
  // A ranked-shaped casual board (rooms, or a caller that did not look the
  // key up) gets its key here.
  if (dealt.ranked() && !dealt.board_key && dealt.rules_version >= 2) {
    try {
      dealt.board_key = keys_.casual_key({dealt.mode, dealt.preset, dealt.seed, ""}, false);
    } catch (const std::exception&) {
      // The random source failed: no key, the game is refused below.
    }
    if (!dealt.board_key) {
      if (error) *error = "the board's key could not be read";
      return nullptr;
    }
  }
  game::CreateResult created = game::create_game(dealt);
  if (!created.game) {
    if (error) *error = created.error;
    return nullptr;
  }
  auto live = std::make_shared<LiveGame>();
  live->id = random_game_id();
  live->player_id = player_id;
  live->player_name = player_name;
  live->clock.created_at = now_();
  live->last_used_ms = live->clock.created_at;
  live->room_code = std::move(room_code);
  live->ranked = dealt.ranked();
  if (dealt.board_key) live->commitment = game::commitment(*dealt.board_key);
  live->game = std::move(created.game);
  return live;
}

void GameStarter::register_game(const std::shared_ptr<LiveGame>& live,
                                std::function<void(const storage::WriteResult&)> committed,
                                std::optional<storage::GameRecord::AttemptRule> rule) {
  storage::GameRecord record;
  record.id = live->id;
  record.player_id = live->player_id;
  record.setup = live->game->setup();
  record.ranked = live->ranked;
  record.created_at = live->clock.created_at;
  record.room_code = live->room_code;
  record.competition = live->competition;
  record.attempt_rule = rule;

  metrics_.game_created();
  // A custom board with no move at all ends at once: its end is written in
  // the same batch, and `committed` runs only after both writes.
  const bool over_at_start = live->game->over();
  if (over_at_start) live->clock.finished_at = live->clock.created_at;
  const int writes = over_at_start ? 2 : 1;
  auto join = std::make_shared<CreateJoin>(writes);
  auto on_write = [this, live, join,
                   committed = std::move(committed)](const storage::WriteResult& r) {
    --live->pending_writes;
    if (!r.ok() && !join->failed.exchange(true)) {
      games_.retire(live);
      join->created = r;
    }
    if (--join->remaining > 0) return;
    if (committed) committed(join->failed ? join->created : storage::WriteResult{});
  };
  // The attempt number comes back with the create's result.
  auto on_create = [live, rule, on_write](const storage::WriteResult& r) {
    if (r.ok() && rule) {
      live->attempt = r.id;
      live->ranked = live->ranked && storage::attempt_ranked(*rule, r.id);
    }
    on_write(r);
  };
  live->pending_writes = writes;
  games_.insert(live);
  db_.create_game(std::move(record), on_create);
  if (over_at_start) {
    db_.finish_game({live->id, live->game->score(), 0, live->game->over_reason(),
                     live->clock.created_at, 0, true},
                    on_write);
  }
}

void GameStarter::handle(const RequestPtr& req, const protocol::NewGame& cmd) {
  game::GameSetup setup = cmd.setup;
  const bool server_seed = !cmd.daily && !cmd.competition && setup.seed.empty();
  if (server_seed) setup.seed = random_seed();
  const bool needs_read =
      cmd.daily || cmd.competition ||
      (setup.ranked() && !keys_.cached({setup.mode, setup.preset, setup.seed, ""}) && !server_seed);
  if (!needs_read) return start_game(req, cmd, std::move(setup), server_seed);
  // Competitions and keys not cached yet are read from storage off the
  // network threads; the connection reads its next message afterwards.
  net::post(pool_, [this, req, cmd, setup = std::move(setup)]() mutable {
    start_game(req, cmd, std::move(setup), false);
  });
}

void GameStarter::start_game(const RequestPtr& req, const protocol::NewGame& cmd,
                             game::GameSetup setup, bool server_seed) {
  std::optional<storage::CompetitionRecord> competition;
  // A closed competition's board is anyone's unranked practice: no attempt
  // is counted and no close ends it.
  bool closed_board = false;
  if (cmd.daily || cmd.competition) {
    const std::int64_t now = now_();
    std::string id;
    if (cmd.daily) {
      if (!competitions_.ensure_dailies(now)) {
        return req->fail(ErrorCode::internal, "the daily boards could not be prepared");
      }
      id = Competitions::daily_id(utc_date(now), setup.mode, setup.preset);
    } else {
      id = *cmd.competition;
    }
    try {
      competition = competitions_.find(id);
    } catch (const std::exception&) {
      return req->fail(ErrorCode::internal, "storage unavailable");
    }
    if (!competition) return req->fail(ErrorCode::not_found, "no such competition");
    if (now < competition->opens_at) {
      return req->fail(ErrorCode::not_allowed, "the competition has not opened yet");
    }
    closed_board = now >= competition->closes_at;
    setup = game::GameSetup{};
    setup.mode = competition->mode;
    setup.preset = competition->preset;
    setup.seed = competition->seed;
    try {
      setup.board_key = competitions_.key_of(*competition);
    } catch (const std::exception&) {
    }
    if (!setup.board_key)
      return req->fail(ErrorCode::internal, "the board's key could not be read");
  } else if (setup.ranked()) {
    try {
      setup.board_key = keys_.casual_key({setup.mode, setup.preset, setup.seed, ""}, server_seed);
    } catch (const std::exception&) {
    }
    if (!setup.board_key)
      return req->fail(ErrorCode::internal, "the board's key could not be made");
  }
  std::string error;
  auto live =
      make_game(setup, *req->state().player_id, req->state().player_name, std::nullopt, &error);
  if (!live) return req->fail(ErrorCode::bad_request, error);
  std::optional<storage::GameRecord::AttemptRule> rule;
  if (competition) {
    live->competition = competition->id;
    if (closed_board) {
      live->ranked = false;
    } else {
      live->closes_at = competition->closes_at;
      rule = Competitions::attempt_rule(*competition);
    }
  }
  // A game that counts no attempt is answered with the view it has now (a
  // new game's clock has not started, and nothing can move it before the
  // answer names it): built here, on the network thread, rather than on the
  // storage writer's once the commit is in. An attempt's view says its
  // number, which comes with the commit.
  const auto answer_text = [this, id = req->id(), live] {
    return protocol::dump(
        protocol::game_reply(id, protocol::game_view(*live->game, live->view_meta(now_()))));
  };
  std::string ready = rule ? std::string() : answer_text();
  register_game(
      live,
      // The connection reads on meanwhile; the answer waits for the commit.
      [answer = req->defer(), live, answer_text,
       ready = std::move(ready)](const storage::WriteResult& r) mutable {
        if (r.status == storage::WriteStatus::conflict && live->competition) {
          return answer->fail(ErrorCode::not_allowed, "no attempts left in this competition");
        }
        if (!r.ok()) return answer->fail(ErrorCode::internal, "could not save the game");
        answer->send_text(ready.empty() ? answer_text() : std::move(ready));
      },
      rule);
}

}  // namespace tilecrush::server
