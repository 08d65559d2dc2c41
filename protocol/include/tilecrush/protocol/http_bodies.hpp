// JSON bodies of the HTTP API's answers (docs/protocol.md, "HTTP API"),
// built from plain structs the server fills in from its records: health,
// the daily boards, leaderboard pages, players and finished games. The
// competitions' bodies are in competition_bodies.hpp, error bodies
// (http_error_body) in http_query.hpp.
//
// The structs hold what a body shows, already decided: times as the text
// the server's clock writes (ISO 8601 UTC with milliseconds,
// "2026-11-22T07:31:38.123Z"), a key only once it may be published, moves
// only once they may be shown. These functions only lay them out; what is
// null on the wire is an empty std::optional (or, for a custom game's
// preset, an empty string, as in GameView).
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::protocol {

// A move as published: ["click", x, y], ["swap", x1, y1, x2, y2],
// ["peek", x, y], ["select", x, y], ["unselect", x, y].
nlohmann::json move_json(const game::Move& move);
// [move, ...] in order.
nlohmann::json moves_json(const std::vector<game::Move>& moves);

// /api/health: {status: "ok", version, uptime_s}.
struct Health {
  std::string version{};
  std::int64_t uptime_s = 0;
};
nlohmann::json health_body(const Health& health);

// One daily competition's board, as /api/daily lists it.
// Its members are written under their own names: a member's name is its
// JSON field's (renaming one changes the wire format).
struct DailyBoard {
  game::Mode mode = game::Mode::same;
  std::string preset{};
  std::string seed{};
  std::string competition{};  // the daily's id
  std::string commitment{};
  std::string opens_at{};
  std::string closes_at{};
  std::optional<std::string> key{};  // hex, from closes_at on
};

// The daily boards of one UTC date (YYYY-MM-DD), in the order of rules.md.
struct DailyBoards {
  std::string date{};
  std::vector<DailyBoard> boards{};
};

// /api/daily: {date, resets_in_s, boards: [Board], tomorrow: {date,
// boards}}, Board = {mode, preset, seed, competition, commitment, opens_at,
// closes_at, key}.
nlohmann::json daily_body(const DailyBoards& today, std::int64_t resets_in_s,
                          const DailyBoards& tomorrow);
// /api/daily?date=: {date, boards}.
nlohmann::json daily_date_body(const DailyBoards& day);

// Its members are written under their own names: a member's name is its
// JSON field's (renaming one changes the wire format).
struct LeaderboardEntry {
  std::int64_t rank = 0;
  std::string player{};  // name
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t duration_ms = 0;
  std::int64_t attempts = 0;
  std::string game_id{};
  std::string finished_at{};
};

// A page of one board's leaderboard: the board (its label), the board's
// number of entries and the page's entries in rank order.
struct LeaderboardPage {
  game::Mode mode = game::Mode::same;
  std::string preset{};
  std::string seed{};
  // A competition's board: its id, shown as `competition`; a casual or a
  // rules-version-1 board's page has no such key.
  std::optional<std::string> competition{};
  std::int64_t total = 0;
  std::vector<LeaderboardEntry> entries{};
};

// {mode, preset, seed, total, entries: [{rank, player, score, move_count,
// duration_ms, attempts, game_id, finished_at}]}, plus competition when
// the page has one.
nlohmann::json leaderboard_body(const LeaderboardPage& page);

// A player's best on one (mode, preset). A best made in an unlisted
// competition shows neither its seed (the competition's id) nor its game
// (whose record names the competition): both nullopt, and no competition.
struct PlayerBest {
  game::Mode mode = game::Mode::same;
  std::string preset{};
  std::optional<std::string> seed{};
  std::int64_t score = 0;
  std::optional<std::string> game_id{};
  std::optional<std::string> competition{};         // the competition's id, if listed
  std::optional<std::string> moves_published_at{};  // a competition board's close
};

// A player's daily streak in one mode (rules.md, "Streaks").
struct PlayerStreak {
  game::Mode mode = game::Mode::same;
  std::int64_t current = 0;
  std::int64_t best = 0;
  std::string last_day{};  // YYYY-MM-DD
};

struct PlayerProfile {
  std::string name{};
  std::string created_at{};
  std::int64_t games_played = 0;
  std::vector<PlayerBest> bests{};
  std::vector<PlayerStreak> streaks{};
};

// /api/players/{name}: {name, created_at, games_played, bests: [{mode,
// preset, seed, score, game_id, competition, moves_published_at}],
// streaks: [{mode, current, best, last_day}]}.
nlohmann::json player_body(const PlayerProfile& player);

// What a practice game carries to deal its board again.
struct PracticeStart {
  int width = 0;
  int height = 0;
  int colors = 0;
  std::optional<int> moves_left{};  // what was left at the end; nullopt: no limit
  std::vector<int> cells{};         // the starting board, row by row, width * height
};

struct FinishedGame {
  std::string game_id{};
  std::string player{};  // name
  game::Mode mode = game::Mode::same;
  std::string preset{};  // empty: custom parameters (null on the wire)
  std::string seed{};
  bool ranked = false;
  int rules_version = game::kRulesVersion;
  std::optional<std::string> competition{};
  std::optional<std::string> moves_published_at{};
  std::optional<std::vector<game::Move>> moves{};  // nullopt: not published (yet)
  std::int64_t score = 0;
  std::int64_t duration_ms = 0;
  std::string finished_at{};
  std::optional<PracticeStart> practice{};  // a practice game's (see protocol.md)
};

// /api/games/{game_id}: {game_id, player, mode, preset, seed, ranked,
// rules_version, competition, moves_published_at, moves, score,
// duration_ms, finished_at}, plus width, height, colors, moves_left and
// board (rows top first) when `practice` is given.
nlohmann::json finished_game_body(const FinishedGame& finished);

// /api/games/{game_id}/verify: {valid, score}; score nullopt (null) when a
// move was refused.
nlohmann::json verify_body(bool valid, std::optional<std::int64_t> score);

}  // namespace tilecrush::protocol
