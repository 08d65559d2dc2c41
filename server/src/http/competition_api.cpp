// The competitions API (docs/protocol.md, "Competitions"): listings, one
// competition with its commitment (and its key once closed), its
// leaderboard, its results export, and what organisers do: create one,
// disqualify an entry.
#include <algorithm>
#include <limits>

#include "http/api_json.hpp"
#include "http/http_api.hpp"
#include "ops/clock.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/protocol/competition_bodies.hpp"
#include "tilecrush/protocol/names.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

constexpr std::int64_t kMaxWindowMs = 366LL * 86'400'000;
constexpr std::int64_t kOpeningSlackMs = 60'000;

// 1..max code points, no control characters.
bool valid_text(const std::string& text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return false;
    if ((c & 0xc0) != 0x80) ++chars;
  }
  return chars >= 1 && chars <= max_chars;
}

}  // namespace

HttpApi::Caller HttpApi::caller_of(const ApiRequest& request) {
  Caller caller;
  constexpr std::string_view kBearer = "Bearer ";
  const std::string_view auth = request.authorization;
  if (!auth.starts_with(kBearer) || auth.size() == kBearer.size() || auth.size() > 256) {
    return caller;
  }
  const std::string hash = storage::hash_token(auth.substr(kBearer.size()));
  if (!operator_token_hash_.empty() && storage::same_hash(hash, operator_token_hash_)) {
    caller.is_operator = true;
    return caller;
  }
  caller.organiser = db_.find_organiser_by_token_hash(hash);
  return caller;
}

std::optional<std::string> HttpApi::published_key(const storage::CompetitionRecord& c,
                                                  std::int64_t now) {
  if (now < c.closes_at) return std::nullopt;
  const auto key = competitions_.key_of(c);
  return key ? std::optional(game::to_hex(*key)) : std::nullopt;
}

protocol::CompetitionView HttpApi::competition_view(const storage::CompetitionRecord& c,
                                                    std::int64_t now) {
  return competition_view(c, now, published_key(c, now));
}

protocol::CompetitionView HttpApi::competition_view(const storage::CompetitionRecord& c,
                                                    std::int64_t now,
                                                    std::optional<std::string> key) {
  // Seconds to a time, rounded up: 0 once it has passed.
  auto seconds_to = [now](std::int64_t at) { return now < at ? (at - now + 999) / 1000 : 0; };
  return {.id = c.id,
          .name = c.name,
          .mode = c.mode,
          .preset = c.preset,
          .seed = c.seed,
          .daily = c.daily,
          .opens_at = iso_time(c.opens_at),
          .closes_at = iso_time(c.closes_at),
          .state = std::string(Competitions::state_at(c, now)),
          .opens_in_s = seconds_to(c.opens_at),
          .closes_in_s = seconds_to(c.closes_at),
          .attempts = c.attempts,
          .first_counts = c.first_counts,
          .unlisted = c.unlisted,
          .organiser = c.organiser_id ? std::optional(c.organiser_name) : std::nullopt,
          .commitment = c.commitment,
          .key = now >= c.closes_at ? std::move(key) : std::nullopt};
}

HttpAnswer HttpApi::competitions_route(const ApiRequest& request,
                                       const protocol::RequestTarget& target) {
  const auto& seg = target.segments;
  const bool post = request.method == "POST";
  if (seg.size() == 2) return post ? create_competition(request) : list_competitions(target);
  if (seg[2].empty() || seg.size() > 5) {
    return error_answer(404, ErrorCode::not_found, "no such API path");
  }
  if (competitions_.ensure_dailies(now_()) == false) {
    return error_answer(500, ErrorCode::internal, "storage unavailable");
  }
  const auto competition = competitions_.find(seg[2]);
  if (!competition) return error_answer(404, ErrorCode::not_found, "no such competition");
  if (seg.size() == 4 && seg[3] == "disqualify") {
    if (!post) return error_answer(405, ErrorCode::bad_request, "disqualify is a POST");
    return disqualify(*competition, request);
  }
  if (post) return error_answer(405, ErrorCode::bad_request, "only GET here");
  if (seg.size() == 3) return one_competition(*competition, target);
  if (seg.size() == 4 && seg[3] == "leaderboard") {
    return competition_leaderboard(*competition, request, target, false);
  }
  if (seg.size() == 5 && seg[3] == "leaderboard" && seg[4] == "around") {
    return competition_leaderboard(*competition, request, target, true);
  }
  if (seg.size() == 4 && seg[3] == "results") return competition_results(*competition, target);
  return error_answer(404, ErrorCode::not_found, "no such API path");
}

HttpAnswer HttpApi::list_competitions(const protocol::RequestTarget& target) {
  const auto state = protocol::string_param(target, "state", false, 16);
  if (!state.ok()) return error_answer(*state.error);
  const auto limit = protocol::int_param(target, "limit", 50, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const std::int64_t now = now_();
  if (!competitions_.ensure_dailies(now)) {
    return error_answer(500, ErrorCode::internal, "storage unavailable");
  }
  std::vector<storage::CompetitionState> states;
  if (!state.value) {
    states = {storage::CompetitionState::open, storage::CompetitionState::upcoming,
              storage::CompetitionState::closed};
  } else if (*state.value == "open") {
    states = {storage::CompetitionState::open};
  } else if (*state.value == "upcoming") {
    states = {storage::CompetitionState::upcoming};
  } else if (*state.value == "closed") {
    states = {storage::CompetitionState::closed};
  } else {
    return error_answer(400, ErrorCode::bad_request, "state must be open, upcoming or closed");
  }
  std::vector<protocol::CompetitionView> list;
  for (const auto s : states) {
    for (const auto& c : db_.competitions(s, now, limit.value))
      list.push_back(competition_view(c, now));
  }
  return ok_json(protocol::competitions_body(list));
}

HttpAnswer HttpApi::organiser_competitions(const ApiRequest& request,
                                           const protocol::RequestTarget& target) {
  const Caller caller = caller_of(request);
  if (!caller.known()) {
    return error_answer(401, ErrorCode::unauthorized, "an organiser token is required");
  }
  const auto limit = protocol::int_param(target, "limit", 50, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const auto offset = protocol::int_param(target, "offset", 0, 0, INT64_MAX / 2);
  if (!offset.ok()) return error_answer(*offset.error);
  // The operator's own: those it created (no organiser), dailies left out.
  const std::optional<storage::OrganiserId> who =
      caller.organiser ? std::optional(caller.organiser->id) : std::nullopt;
  const auto page = db_.competitions_of(who, limit.value, offset.value);
  const std::int64_t now = now_();
  std::vector<protocol::CompetitionView> list;
  list.reserve(page.competitions.size());
  for (const auto& c : page.competitions) list.push_back(competition_view(c, now));
  return ok_json(protocol::organiser_competitions_body(
      caller.organiser ? std::optional(caller.organiser->name) : std::nullopt, page.total, list));
}

HttpAnswer HttpApi::create_competition(const ApiRequest& request) {
  const Caller caller = caller_of(request);
  if (!caller.known()) {
    return error_answer(401, ErrorCode::unauthorized, "an organiser token is required");
  }
  const json body = json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return error_answer(400, ErrorCode::bad_request, "the body must be a JSON object");
  }
  auto text_field = [&](const char* name) -> const std::string* {
    const auto it = body.find(name);
    return it != body.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
  };
  storage::CompetitionRecord c;
  const std::string* name = text_field("name");
  if (!name || !valid_text(*name, 64)) {
    return error_answer(400, ErrorCode::bad_request,
                        "name must be 1-64 characters, no control characters");
  }
  if (const auto problem = protocol::name_problem(*name); problem != protocol::NameProblem::none) {
    return error_answer(400, ErrorCode::bad_request,
                        std::string(protocol::name_problem_message(problem)));
  }
  c.name = *name;
  const std::string* mode = text_field("mode");
  const auto parsed_mode = mode ? game::parse_mode(*mode) : std::nullopt;
  if (!parsed_mode)
    return error_answer(400, ErrorCode::bad_request, "mode must be same, match3 or hidden");
  c.mode = *parsed_mode;
  const std::string* preset = text_field("preset");
  if (!preset || !game::find_preset(c.mode, *preset)) {
    return error_answer(400, ErrorCode::bad_request, "unknown preset for this mode");
  }
  c.preset = *preset;
  const std::string* opens = text_field("opens_at");
  const std::string* closes = text_field("closes_at");
  std::optional<std::int64_t> opens_at;
  std::optional<std::int64_t> closes_at;
  if (opens) opens_at = parse_iso_time(*opens);
  if (closes) closes_at = parse_iso_time(*closes);
  if (!opens_at || !closes_at) {
    return error_answer(400, ErrorCode::bad_request,
                        "opens_at and closes_at must be UTC times like 2026-11-24T18:00:00Z");
  }
  const std::int64_t now = now_();
  if (*opens_at < now - kOpeningSlackMs) {
    return error_answer(400, ErrorCode::bad_request, "opens_at is in the past");
  }
  if (*closes_at <= *opens_at || *closes_at - *opens_at > kMaxWindowMs) {
    return error_answer(400, ErrorCode::bad_request,
                        "closes_at must be after opens_at, at most 366 days later");
  }
  c.opens_at = *opens_at;
  c.closes_at = *closes_at;
  if (const auto it = body.find("attempts"); it != body.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 100) {
      return error_answer(400, ErrorCode::bad_request,
                          "attempts must be 1..100, or null for unlimited");
    }
    c.attempts = static_cast<int>(it->get<std::int64_t>());
  }
  if (const auto it = body.find("counts"); it != body.end() && !it->is_null()) {
    if (!it->is_string() || (*it != "best" && *it != "first")) {
      return error_answer(400, ErrorCode::bad_request, "counts must be best or first");
    }
    c.first_counts = *it == "first";
  }
  if (const auto it = body.find("unlisted"); it != body.end() && !it->is_null()) {
    if (!it->is_boolean())
      return error_answer(400, ErrorCode::bad_request, "unlisted must be true or false");
    c.unlisted = it->get<bool>();
  }
  if (caller.organiser) c.organiser_id = caller.organiser->id;
  std::string error;
  auto created = competitions_.create(std::move(c), &error);
  if (!created) return error_answer(500, ErrorCode::internal, "could not save the competition");
  if (caller.organiser) created->organiser_name = caller.organiser->name;
  return ok_json(protocol::competition_json(competition_view(*created, now)), 201);
}

HttpAnswer HttpApi::one_competition(const storage::CompetitionRecord& c,
                                    const protocol::RequestTarget& target) {
  const auto player = protocol::string_param(target, "player", false, 32);
  if (!player.ok()) return error_answer(*player.error);
  const protocol::CompetitionView view = competition_view(c, now_());
  std::optional<std::int64_t> used;
  if (player.value) {
    used = 0;
    if (const auto p = db_.find_player_by_name(*player.value))
      used = db_.attempts_started(c.id, p->id);
  }
  return ok_json(protocol::competition_body(view, used));
}

HttpAnswer HttpApi::competition_leaderboard(const storage::CompetitionRecord& c,
                                            const ApiRequest& request,
                                            const protocol::RequestTarget& target, bool around) {
  const storage::BoardKey board{c.mode, c.preset, c.seed, c.id};
  // Closed once the closing work is done: games running at the close have
  // ended by then.
  if (around) {
    const auto player = protocol::string_param(target, "player", true, 32);
    if (!player.ok()) return error_answer(*player.error);
    const auto radius = protocol::int_param(target, "radius", 5, 0, 50);
    if (!radius.ok()) return error_answer(*radius.error);
    const PageRequest what{board, c.closed, false,
                           PageCache::key_of({"competition-around", c.id, *player.value,
                                              std::to_string(radius.value)}),
                           c.id};
    return board_page(request, what,
                      [&] { return db_.leaderboard_around(board, *player.value, radius.value); });
  }
  const auto limit = protocol::int_param(target, "limit", 20, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const auto offset = protocol::int_param(target, "offset", 0, 0, INT64_MAX / 2);
  if (!offset.ok()) return error_answer(*offset.error);
  const PageRequest what{board, c.closed, true,
                         PageCache::key_of({"competition-page", c.id, std::to_string(limit.value),
                                            std::to_string(offset.value)}),
                         c.id};
  return board_page(request, what, [&] {
    return std::optional(db_.leaderboard(board, limit.value, offset.value));
  });
}

HttpAnswer HttpApi::competition_results(const storage::CompetitionRecord& c,
                                        const protocol::RequestTarget& target) {
  const auto format = protocol::string_param(target, "format", false, 8);
  if (!format.ok()) return error_answer(*format.error);
  const bool csv = format.value && *format.value == "csv";
  if (format.value && !csv && *format.value != "json") {
    return error_answer(400, ErrorCode::bad_request, "format must be json or csv");
  }
  const std::int64_t now = now_();
  // Moves only once the board's key is public: before that they would
  // teach its secrets.
  const bool closed = now >= c.closes_at;
  const storage::BoardKey board{c.mode, c.preset, c.seed, c.id};
  const auto page = db_.leaderboard(board, std::numeric_limits<std::int32_t>::max(), 0);
  const auto flags = db_.entry_flags(c.id);
  auto flags_of = [&](storage::PlayerId player) {
    std::vector<std::string> out;
    for (const auto& f : flags) {
      if (f.player_id == player) out.push_back(f.flag);
    }
    return out;
  };
  // Attempts started, per player (ordered by player id).
  const auto attempts = db_.attempts_started_in(c.id);
  auto attempts_of = [&](storage::PlayerId player) -> std::int64_t {
    const auto it = std::lower_bound(attempts.begin(), attempts.end(),
                                     std::pair<storage::PlayerId, std::int64_t>{player, 0});
    return it != attempts.end() && it->first == player ? it->second : 0;
  };
  auto moves_of = [&](const std::string& game_id) -> std::optional<std::vector<game::Move>> {
    if (!closed) return std::nullopt;
    auto record = db_.load_game(game_id);
    if (!record) return std::nullopt;
    return std::move(record->moves);
  };
  std::vector<protocol::ResultEntry> entries;
  for (const auto& e : page.entries) {
    entries.push_back({.rank = e.rank,
                       .player = e.player,
                       .score = e.score,
                       .move_count = e.move_count,
                       .duration_ms = e.duration_ms,
                       .finished_at = iso_time(e.finished_at),
                       .player_id = e.player_id,
                       .game_id = e.game_id,
                       .moves = moves_of(e.game_id),
                       .flags = flags_of(e.player_id),
                       .reason = std::nullopt,
                       .attempts_used = attempts_of(e.player_id)});
  }
  for (const auto& f : flags) {
    if (f.flag != "disqualified") continue;
    auto record = db_.load_game(f.game_id);
    if (!record) continue;
    entries.push_back({.rank = std::nullopt,
                       .player = f.player,
                       .score = record->score,
                       .move_count = record->move_count,
                       .duration_ms = record->duration_ms.value_or(0),
                       .finished_at = iso_time(record->finished_at.value_or(record->created_at)),
                       .player_id = f.player_id,
                       .game_id = f.game_id,
                       .moves = closed ? std::optional(std::move(record->moves)) : std::nullopt,
                       .flags = flags_of(f.player_id),
                       .reason = f.reason,
                       .attempts_used = attempts_of(f.player_id)});
  }
  if (!csv) return ok_json(protocol::results_body(competition_view(c, now), entries));
  return {200, protocol::results_csv(entries), "text/csv; charset=utf-8"};
}

HttpAnswer HttpApi::disqualify(const storage::CompetitionRecord& c, const ApiRequest& request) {
  const Caller caller = caller_of(request);
  if (!caller.known()) {
    return error_answer(401, ErrorCode::unauthorized, "an organiser token is required");
  }
  if (!caller.is_operator && (!c.organiser_id || *c.organiser_id != caller.organiser->id)) {
    return error_answer(403, ErrorCode::unauthorized, "not your competition");
  }
  const json body = json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return error_answer(400, ErrorCode::bad_request, "the body must be a JSON object");
  }
  const auto player_it = body.find("player");
  const auto reason_it = body.find("reason");
  if (player_it == body.end() || !player_it->is_string() ||
      !valid_text(player_it->get<std::string>(), 32)) {
    return error_answer(400, ErrorCode::bad_request, "player must be a player's name");
  }
  if (reason_it == body.end() || !reason_it->is_string() ||
      !valid_text(reason_it->get<std::string>(), 200)) {
    return error_answer(400, ErrorCode::bad_request, "reason must be 1-200 characters");
  }
  const auto player = db_.find_player_by_name(player_it->get<std::string>());
  if (!player) return error_answer(404, ErrorCode::not_found, "no such player");
  const auto r = wait_for_write([&](storage::WriteCallback done) {
    db_.disqualify(c.id, player->id, reason_it->get<std::string>(), now_(), std::move(done));
  });
  if (r.status == storage::WriteStatus::not_found) {
    return error_answer(404, ErrorCode::not_found, "that player has no entry here");
  }
  if (!r.ok()) return error_answer(500, ErrorCode::internal, "could not save the disqualification");
  return ok_json(protocol::disqualified_body(c.id, player->name, reason_it->get<std::string>()));
}

}  // namespace tilecrush::server
