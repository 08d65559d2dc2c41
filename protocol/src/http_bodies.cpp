#include "tilecrush/protocol/http_bodies.hpp"

#include "json_pieces.hpp"

namespace tilecrush::protocol {

using nlohmann::json;

using detail::or_null;

// Written member by member, each under its own name.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_ONLY_SERIALIZE(DailyBoard, mode, preset, seed, competition,
                                                  commitment, opens_at, closes_at, key)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_ONLY_SERIALIZE(LeaderboardEntry, rank, player, score, move_count,
                                                  duration_ms, attempts, game_id, finished_at)

json move_json(const game::Move& move) {
  json out = json::array({game::to_string(move.kind), move.a.x, move.a.y});
  if (move.kind == game::MoveKind::swap) {
    out.push_back(move.b.x);
    out.push_back(move.b.y);
  }
  return out;
}

json moves_json(const std::vector<game::Move>& moves) {
  json out = json::array();
  for (const game::Move& m : moves) out.push_back(move_json(m));
  return out;
}

json health_body(const Health& health) {
  return {{"status", "ok"}, {"version", health.version}, {"uptime_s", health.uptime_s}};
}

json daily_body(const DailyBoards& today, std::int64_t resets_in_s, const DailyBoards& tomorrow) {
  return {{"date", today.date},
          {"resets_in_s", resets_in_s},
          {"boards", today.boards},
          {"tomorrow", {{"date", tomorrow.date}, {"boards", tomorrow.boards}}}};
}

json daily_date_body(const DailyBoards& day) {
  return {{"date", day.date}, {"boards", day.boards}};
}

json leaderboard_body(const LeaderboardPage& page) {
  json body{{"mode", game::to_string(page.mode)},
            {"preset", page.preset},
            {"seed", page.seed},
            {"total", page.total},
            {"entries", page.entries}};
  if (page.competition) body["competition"] = *page.competition;
  return body;
}

json player_body(const PlayerProfile& player) {
  json bests = json::array();
  for (const PlayerBest& b : player.bests) {
    bests.push_back({{"mode", game::to_string(b.mode)},
                     {"preset", b.preset},
                     {"seed", or_null(b.seed)},
                     {"score", b.score},
                     {"game_id", or_null(b.game_id)},
                     {"competition", or_null(b.competition)},
                     {"moves_published_at", or_null(b.moves_published_at)}});
  }
  json streaks = json::array();
  for (const PlayerStreak& s : player.streaks) {
    streaks.push_back({{"mode", game::to_string(s.mode)},
                       {"current", s.current},
                       {"best", s.best},
                       {"last_day", s.last_day}});
  }
  return {{"name", player.name},
          {"created_at", player.created_at},
          {"games_played", player.games_played},
          {"bests", std::move(bests)},
          {"streaks", std::move(streaks)}};
}

json finished_game_body(const FinishedGame& finished) {
  json body{{"game_id", finished.game_id},
            {"player", finished.player},
            {"mode", game::to_string(finished.mode)},
            {"preset", finished.preset.empty() ? json(nullptr) : json(finished.preset)},
            {"seed", finished.seed},
            {"ranked", finished.ranked},
            {"rules_version", finished.rules_version},
            {"competition", or_null(finished.competition)},
            {"moves_published_at", or_null(finished.moves_published_at)},
            {"moves", finished.moves ? moves_json(*finished.moves) : json(nullptr)},
            {"score", finished.score},
            {"duration_ms", finished.duration_ms},
            {"finished_at", finished.finished_at}};
  if (const auto& start = finished.practice) {
    body["width"] = start->width;
    body["height"] = start->height;
    body["colors"] = start->colors;
    body["moves_left"] = or_null(start->moves_left);
    body["board"] = detail::board_rows(start->cells, start->width, start->height);
  }
  return body;
}

json verify_body(bool valid, std::optional<std::int64_t> score) {
  return {{"valid", valid}, {"score", or_null(score)}};
}

}  // namespace tilecrush::protocol
