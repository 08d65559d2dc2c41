#include "http_api.hpp"

#include <nlohmann/json.hpp>

#include "clock.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;

HttpAnswer ok_json(const json& body) { return {200, protocol::dump(body)}; }

HttpAnswer error_answer(int status, ErrorCode code, std::string_view message) {
  return {static_cast<unsigned>(status), protocol::http_error_body(code, message)};
}

HttpAnswer error_answer(const protocol::HttpError& e) {
  return {static_cast<unsigned>(e.status), protocol::http_error_body(e)};
}

json entry_json(const storage::LeaderboardEntry& e) {
  return {{"rank", e.rank},       {"player", e.player},
          {"score", e.score},     {"move_count", e.move_count},
          {"duration_ms", e.duration_ms}, {"attempts", e.attempts},
          {"game_id", e.game_id}, {"finished_at", iso_time(e.finished_at)}};
}

json page_json(const storage::BoardKey& board, const storage::LeaderboardPage& page) {
  json entries = json::array();
  for (const auto& e : page.entries) entries.push_back(entry_json(e));
  return {{"mode", game::to_string(board.mode)}, {"preset", board.preset}, {"seed", board.seed},
          {"total", page.total}, {"entries", std::move(entries)}};
}

json move_json(const game::Move& m) {
  json out = json::array({game::to_string(m.kind), m.a.x, m.a.y});
  if (m.kind == game::MoveKind::swap) {
    out.push_back(m.b.x);
    out.push_back(m.b.y);
  }
  return out;
}

json board_json(const std::vector<int>& cells, int width) {
  json rows = json::array();
  for (std::size_t i = 0; i < cells.size(); i += static_cast<std::size_t>(width)) {
    rows.push_back(std::vector<int>(cells.begin() + static_cast<std::ptrdiff_t>(i),
                                    cells.begin() + static_cast<std::ptrdiff_t>(i) + width));
  }
  return rows;
}

// mode, preset (which must exist) and seed: the board a leaderboard is for.
std::optional<storage::BoardKey> board_key(const protocol::RequestTarget& target,
                                           protocol::HttpError& error) {
  auto mode = protocol::string_param(target, "mode", true);
  auto preset = protocol::string_param(target, "preset", true);
  auto seed = protocol::string_param(target, "seed", true);
  for (auto* p : {&mode, &preset, &seed}) {
    if (!p->ok()) {
      error = *p->error;
      return std::nullopt;
    }
  }
  const auto parsed_mode = game::parse_mode(*mode.value);
  if (!parsed_mode) {
    error = {400, ErrorCode::bad_request, "unknown mode"};
    return std::nullopt;
  }
  if (!game::find_preset(*parsed_mode, *preset.value)) {
    error = {400, ErrorCode::bad_request, "unknown preset for this mode"};
    return std::nullopt;
  }
  return storage::BoardKey{*parsed_mode, *preset.value, *seed.value};
}

}  // namespace

HttpApi::HttpApi(storage::Database& db, Metrics& metrics, NowFn now, std::string version)
    : db_(db), metrics_(metrics), now_(std::move(now)), version_(std::move(version)),
      started_at_(now_()), pool_(std::make_unique<net::thread_pool>(2)) {}

HttpApi::~HttpApi() { stop(); }

void HttpApi::stop() {
  if (pool_) pool_->join();
}

void HttpApi::handle(std::string target, std::function<void(HttpAnswer)> done) {
  net::post(*pool_, [this, target = std::move(target), done = std::move(done)]() {
    done(answer(target));
  });
}

HttpAnswer HttpApi::answer(const std::string& raw_target) {
  protocol::TargetResult parsed = protocol::parse_target(raw_target);
  if (!parsed.ok()) return error_answer(*parsed.error);
  const protocol::RequestTarget& target = parsed.target;
  const auto& seg = target.segments;
  try {
    if (seg.size() == 1 && seg[0] == "metrics") {
      return {200, metrics_.render(), "text/plain; version=0.0.4; charset=utf-8"};
    }
    if (seg.size() == 2 && seg[1] == "health") return health();
    if (seg.size() == 2 && seg[1] == "daily") return daily();
    if (seg.size() == 2 && seg[1] == "leaderboard") return leaderboard(target);
    if (seg.size() == 3 && seg[1] == "leaderboard" && seg[2] == "around") {
      return leaderboard_around(target);
    }
    if (seg.size() == 3 && seg[1] == "players" && !seg[2].empty()) return player(seg[2]);
    if (seg.size() == 3 && seg[1] == "games" && !seg[2].empty()) return finished_game(seg[2], false);
    if (seg.size() == 4 && seg[1] == "games" && seg[3] == "verify") {
      return finished_game(seg[2], true);
    }
  } catch (const std::exception&) {
    return error_answer(500, ErrorCode::internal, "storage unavailable");
  }
  return error_answer(404, ErrorCode::not_found, "no such API path");
}

HttpAnswer HttpApi::health() const {
  return ok_json({{"status", "ok"},
                  {"version", version_},
                  {"uptime_s", (now_() - started_at_) / 1000}});
}

HttpAnswer HttpApi::daily() const {
  const std::int64_t now = now_();
  const std::string date = utc_date(now);
  json boards = json::array();
  for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
    for (const game::Preset& p : game::presets(mode)) {
      boards.push_back({{"mode", game::to_string(mode)}, {"preset", p.name}, {"seed", date}});
    }
  }
  return ok_json({{"date", date},
                  {"resets_in_s", seconds_to_next_utc_day(now)},
                  {"boards", std::move(boards)}});
}

HttpAnswer HttpApi::leaderboard(const protocol::RequestTarget& target) {
  protocol::HttpError error;
  const auto board = board_key(target, error);
  if (!board) return error_answer(error);
  const auto limit = protocol::int_param(target, "limit", 20, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const auto offset = protocol::int_param(target, "offset", 0, 0, INT64_MAX / 2);
  if (!offset.ok()) return error_answer(*offset.error);
  return ok_json(page_json(*board, db_.leaderboard(*board, limit.value, offset.value)));
}

HttpAnswer HttpApi::leaderboard_around(const protocol::RequestTarget& target) {
  protocol::HttpError error;
  const auto board = board_key(target, error);
  if (!board) return error_answer(error);
  const auto player = protocol::string_param(target, "player", true, 32);
  if (!player.ok()) return error_answer(*player.error);
  const auto radius = protocol::int_param(target, "radius", 5, 0, 50);
  if (!radius.ok()) return error_answer(*radius.error);
  const auto page = db_.leaderboard_around(*board, *player.value, radius.value);
  if (!page) return error_answer(404, ErrorCode::not_found, "player not on this leaderboard");
  return ok_json(page_json(*board, *page));
}

HttpAnswer HttpApi::player(const std::string& name) {
  const auto record = db_.find_player_by_name(name);
  if (!record) return error_answer(404, ErrorCode::not_found, "no such player");
  json bests = json::array();
  for (const auto& b : db_.player_bests(record->id)) {
    bests.push_back({{"mode", game::to_string(b.mode)}, {"preset", b.preset}, {"seed", b.seed},
                     {"score", b.score}, {"game_id", b.game_id}});
  }
  return ok_json({{"name", record->name},
                  {"created_at", iso_time(record->created_at)},
                  {"games_played", record->games_played},
                  {"bests", std::move(bests)}});
}

HttpAnswer HttpApi::finished_game(const std::string& game_id, bool verify) {
  const auto record = db_.load_game(game_id);
  if (!record || record->state != storage::GameState::over) {
    return error_answer(404, ErrorCode::not_found, "no finished game with this id");
  }
  const game::ReplayResult replayed = game::replay(record->setup, record->moves);
  if (verify) {
    const bool valid = replayed.game && replayed.game->score() == record->score &&
                       replayed.game->move_count() == record->move_count;
    return ok_json({{"valid", valid},
                    {"score", replayed.game ? json(replayed.game->score()) : json(nullptr)}});
  }
  const game::GameSetup& setup = record->setup;
  json moves = json::array();
  for (const auto& m : record->moves) moves.push_back(move_json(m));
  json body = {{"game_id", record->id},
               {"player", record->player_name},
               {"mode", game::to_string(setup.mode)},
               {"preset", setup.preset.empty() ? json(nullptr) : json(setup.preset)},
               {"seed", setup.seed},
               {"ranked", record->ranked},
               {"rules_version", record->rules_version},
               {"moves", std::move(moves)},
               {"score", record->score},
               {"duration_ms", record->duration_ms.value_or(0)},
               {"finished_at", iso_time(record->finished_at.value_or(record->created_at))}};
  if (!record->ranked) {
    // Practice games carry what is needed to deal their board again.
    const game::CreateResult start = game::create_game(setup);
    if (start.game) {
      body["width"] = start.game->width();
      body["height"] = start.game->height();
      body["colors"] = start.game->colors();
      body["moves_left"] = replayed.game && replayed.game->moves_left()
                               ? json(*replayed.game->moves_left())
                               : json(nullptr);
      // The board play started from; hidden colours stay hidden unless the
      // player supplied the board.
      std::vector<int> cells =
          setup.board || setup.mode != game::Mode::hidden
              ? std::vector<int>(start.game->board().cells().begin(), start.game->board().cells().end())
              : start.game->visible_board();
      body["board"] = board_json(cells, start.game->width());
    }
  }
  return ok_json(body);
}

}  // namespace tilecrush::server
