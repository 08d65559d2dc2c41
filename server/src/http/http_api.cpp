#include "http/http_api.hpp"

#include "http/api_json.hpp"
#include "ops/clock.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/protocol/http_bodies.hpp"
#include "tilecrush/protocol/openapi.hpp"
#include "tilecrush/protocol/replay_body.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;
using namespace api;

// Rendered leaderboard pages kept: a top page is about 3.5 KB.
constexpr std::size_t kPageCacheBytes = 16 << 20;

}  // namespace

HttpApi::HttpApi(storage::Database& db, Metrics& metrics, NowFn now, std::string version,
                 Competitions& competitions, const std::string& operator_token)
    : db_(db),
      metrics_(metrics),
      now_(std::move(now)),
      version_(std::move(version)),
      etag_version_(etag_safe(version_)),
      pages_(std::make_unique<PageCache>(kPageCacheBytes)),
      started_at_(now_()),
      competitions_(competitions),
      operator_token_hash_(operator_token.empty() ? std::string()
                                                  : storage::hash_token(operator_token)),
      pool_(std::make_unique<net::thread_pool>(2)) {}

HttpApi::~HttpApi() {
  stop();
}

void HttpApi::stop() {
  if (pool_) pool_->join();
}

void HttpApi::handle(ApiRequest request, std::function<void(HttpAnswer)> done) {
  net::post(*pool_, [this, request = std::move(request), done = std::move(done)]() {
    done(answer(request));
  });
}

HttpAnswer HttpApi::answer(const ApiRequest& request) {
  protocol::TargetResult parsed = protocol::parse_target(request.target);
  if (!parsed.ok()) return error_answer(*parsed.error);
  const protocol::RequestTarget& target = parsed.target;
  const auto& seg = target.segments;
  try {
    if (seg.size() >= 2 && seg[0] == "api" && seg[1] == "competitions") {
      return competitions_route(request, target);
    }
    if (request.method != "GET") {
      return error_answer(405, ErrorCode::bad_request, "only GET here");
    }
    if (seg.size() == 1 && seg[0] == "metrics") {
      return {200, metrics_.render(), "text/plain; version=0.0.4; charset=utf-8"};
    }
    if (seg.size() == 3 && seg[1] == "organiser" && seg[2] == "competitions") {
      return organiser_competitions(request, target);
    }
    if (seg.size() == 2 && seg[1] == "health") return health();
    if (seg.size() == 2 && seg[1] == "openapi.json") {
      return {200, std::string(protocol::openapi_document()), "application/json"};
    }
    if (seg.size() == 2 && seg[1] == "daily") return daily(target);
    if (seg.size() == 2 && seg[1] == "archive") return archive(target);
    if (seg.size() == 2 && seg[1] == "leaderboard") return leaderboard(request, target);
    if (seg.size() == 3 && seg[1] == "leaderboard" && seg[2] == "around") {
      return leaderboard_around(request, target);
    }
    if (seg.size() >= 2 && seg[1] == "seasons") return seasons_route(request, target);
    if (seg.size() == 3 && seg[1] == "players" && !seg[2].empty()) return player(seg[2]);
    if (seg.size() == 4 && seg[1] == "players" && !seg[2].empty() && seg[3] == "games") {
      return player_games(request, seg[2], target);
    }
    if (seg.size() == 4 && seg[1] == "players" && !seg[2].empty() && seg[3] == "calendar") {
      return player_calendar(request, seg[2], target);
    }
    if (seg.size() == 3 && seg[1] == "games" && !seg[2].empty())
      return finished_game(seg[2], false, request.authorization);
    if (seg.size() == 4 && seg[1] == "games" && seg[3] == "verify") {
      return finished_game(seg[2], true, {});
    }
    if (seg.size() == 4 && seg[1] == "games" && seg[3] == "replay") {
      return game_replay(seg[2], request.authorization);
    }
  } catch (const std::exception&) {
    return error_answer(500, ErrorCode::internal, "storage unavailable");
  }
  return error_answer(404, ErrorCode::not_found, "no such API path");
}

HttpAnswer HttpApi::health() const {
  return ok_json(protocol::health_body({version_, (now_() - started_at_) / 1000}));
}

// Today's daily boards and tomorrow's, with their commitments (published
// before they open), or with ?date= one day's, with their keys once closed.
HttpAnswer HttpApi::daily(const protocol::RequestTarget& target) {
  const std::int64_t now = now_();
  if (!competitions_.ensure_dailies(now)) {
    return error_answer(500, ErrorCode::internal, "storage unavailable");
  }
  auto boards_of = [&](const std::string& date) {
    protocol::DailyBoards day{date, {}};
    for (const auto& c : competitions_.dailies_of(date)) {
      day.boards.push_back({c.mode, c.preset, c.seed, c.id, c.commitment, iso_time(c.opens_at),
                            iso_time(c.closes_at), published_key(c, now)});
    }
    return day;
  };
  const auto date = protocol::string_param(target, "date", false, 10);
  if (!date.ok()) return error_answer(*date.error);
  if (date.value) {
    const auto start = parse_iso_time(*date.value + "T00:00:00Z");
    if (!start) return error_answer(400, ErrorCode::bad_request, "date must be YYYY-MM-DD");
    const protocol::DailyBoards day = boards_of(*date.value);
    if (day.boards.empty()) {
      return error_answer(404, ErrorCode::not_found, "no daily boards that day");
    }
    return ok_json(protocol::daily_date_body(day));
  }
  const std::string today = utc_date(now);
  const std::string tomorrow = utc_date(Competitions::day_start(now) + 86'400'000);
  return ok_json(
      protocol::daily_body(boards_of(today), seconds_to_next_utc_day(now), boards_of(tomorrow)));
}

HttpAnswer HttpApi::player(const std::string& name) {
  const auto record = db_.find_player_by_name(name);
  if (!record) return error_answer(404, ErrorCode::not_found, "no such player");
  protocol::PlayerProfile profile{
      record->name, iso_time(record->created_at), record->games_played, {}};
  for (const auto& b : db_.player_bests(record->id)) {
    // An unlisted competition's id (its board's seed label too) is shown
    // only to who has its link: neither the seed nor the game (whose record
    // names the competition) of a best made there.
    if (b.unlisted) {
      profile.bests.push_back({b.mode, b.preset, std::nullopt, b.score, std::nullopt});
      continue;
    }
    profile.bests.push_back(
        {b.mode, b.preset, b.seed, b.score, b.game_id, b.competition,
         b.competition && b.closes_at ? std::optional(iso_time(*b.closes_at)) : std::nullopt});
  }
  const std::int64_t today = now_() / 86'400'000;
  for (const auto& s : db_.player_streaks(record->id)) {
    profile.streaks.push_back(
        {s.mode, storage::current_streak(s, today), s.best, utc_date(s.last_day * 86'400'000)});
  }
  return ok_json(protocol::player_body(profile));
}

HttpApi::MovesSecrecy HttpApi::moves_secrecy(const storage::GameRecord& record) {
  // A competition game's moves, in every mode, are a solution of its board
  // (a Same Game's too: entering them ties its score): published at the
  // competition's close (docs/rules.md, "When commitments and keys are
  // published"). The moves of a hidden or match-3 game on a casual keyed
  // board would teach its secrets (colours, refills), and a casual board
  // never closes.
  MovesSecrecy out;
  const game::GameSetup& setup = record.setup;
  if (record.competition) {
    out.secret = true;  // also when the competition cannot be read
    if (const auto c = competitions_.find(*record.competition)) {
      out.revealed_at = c->closes_at;
      out.secret = now_() < c->closes_at;
    }
    return out;
  }
  out.secret = setup.board_key && setup.mode != game::Mode::same;
  return out;
}

HttpAnswer HttpApi::game_replay(const std::string& game_id, std::string_view authorization) {
  const auto record = db_.load_game(game_id);
  if (!record || record->state != storage::GameState::over) {
    return error_answer(404, ErrorCode::not_found, "no finished game with this id");
  }
  // A replay shows every move: it exists exactly when the moves are public,
  // or to the game's own player.
  if (moves_secrecy(*record).secret &&
      (authorization.empty() || !is_player_token(authorization, record->player_id))) {
    return error_answer(403, ErrorCode::not_allowed, "this game's moves are not published yet");
  }
  protocol::ReplayInput input{
      .player = record->player_name,
      .setup = record->setup,
      .moves = record->moves,
      .move_times = record->move_times,
      .over_reason = record->over_reason,
      .score = record->score,
      .meta = {.game_id = record->id,
               .elapsed_ms = 0,
               .ranked = record->ranked,
               .competition = record->competition,
               .attempt = record->attempt,
               .commitment = record->setup.board_key
                                 ? std::optional(game::commitment(*record->setup.board_key))
                                 : std::nullopt}};
  auto body = protocol::replay_body(input);
  if (!body) return error_answer(500, ErrorCode::internal, "the game cannot be dealt again");
  return ok_json(*body);
}

bool HttpApi::is_player_token(std::string_view authorization, storage::PlayerId player) {
  constexpr std::string_view kBearer = "Bearer ";
  if (!authorization.starts_with(kBearer) || authorization.size() == kBearer.size() ||
      authorization.size() > 256) {
    return false;
  }
  const auto record = db_.find_player_by_id(player);
  if (!record) return false;
  const std::string presented = storage::hash_token(authorization.substr(kBearer.size()));
  // Every token is compared, a match or not: the time taken does not say
  // which one matched.
  bool owned = storage::same_hash(presented, record->token_hash);
  for (const std::string& device : db_.device_token_hashes(player)) {
    owned = storage::same_hash(presented, device) || owned;
  }
  return owned;
}

HttpAnswer HttpApi::finished_game(const std::string& game_id, bool verify,
                                  std::string_view authorization) {
  const auto record = db_.load_game(game_id);
  if (!record || record->state != storage::GameState::over) {
    return error_answer(404, ErrorCode::not_found, "no finished game with this id");
  }
  const game::ReplayResult replayed = game::replay(record->setup, record->moves);
  if (verify) {
    const bool valid = replayed.game && replayed.game->score() == record->score &&
                       replayed.game->move_count() == record->move_count;
    return ok_json(protocol::verify_body(
        valid, replayed.game ? std::optional(replayed.game->score()) : std::nullopt));
  }
  const game::GameSetup& setup = record->setup;
  auto [secret, revealed_at] = moves_secrecy(*record);
  // Only a token that is the game's player's gives the moves early; any
  // other header gets the public answer.
  if (secret && !authorization.empty() && is_player_token(authorization, record->player_id)) {
    secret = false;
  }
  protocol::FinishedGame body{
      .game_id = record->id,
      .player = record->player_name,
      .mode = setup.mode,
      .preset = setup.preset,
      .seed = setup.seed,
      .ranked = record->ranked,
      .rules_version = setup.rules_version,
      .competition = record->competition,
      .moves_published_at = revealed_at ? std::optional(iso_time(*revealed_at)) : std::nullopt,
      .moves = secret ? std::nullopt : std::optional(record->moves),
      .score = record->score,
      .duration_ms = record->duration_ms.value_or(0),
      .finished_at = iso_time(record->finished_at.value_or(record->created_at))};
  if (!record->ranked && !setup.board_key) {
    // Practice games carry what is needed to deal their board again (not a
    // keyed board's practice game: its board is the competition's).
    const game::CreateResult start = game::create_game(setup);
    if (start.game) {
      // The board play started from; hidden colours stay hidden unless the
      // player supplied the board.
      std::vector<int> cells = setup.board || setup.mode != game::Mode::hidden
                                   ? std::vector<int>(start.game->board().cells().begin(),
                                                      start.game->board().cells().end())
                                   : start.game->visible_board();
      body.practice = protocol::PracticeStart{
          start.game->width(), start.game->height(), start.game->colors(),
          replayed.game ? replayed.game->moves_left() : std::nullopt, std::move(cells)};
    }
  }
  return ok_json(protocol::finished_game_body(body));
}

}  // namespace tilecrush::server
