// JSON (and CSV) bodies of the competitions API (docs/protocol.md,
// "Competitions"), built from plain structs the server fills in: a
// Competition, the listing, a competition's results and a
// disqualification. A competition's leaderboard pages are
// leaderboard_body() pages (http_bodies.hpp) with their `competition` set.
//
// As in http_bodies.hpp, the structs hold what is shown, already decided
// (times written as ISO 8601 UTC text, the key only from the close, moves
// only once public); these functions only lay them out.
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::protocol {

// A Competition as shown at the time of the answer. Its members are written
// under their own names (a member's name is its JSON field's: renaming one
// changes the wire format), but `first_counts`, written as `counts`.
struct CompetitionView {
  std::string id{};
  std::string name{};
  game::Mode mode = game::Mode::same;
  std::string preset{};
  std::string seed{};
  bool daily = false;
  std::string opens_at{};
  std::string closes_at{};
  std::string state{};  // "upcoming", "open" or "closed"
  std::int64_t opens_in_s = 0;
  std::int64_t closes_in_s = 0;
  std::optional<int> attempts{};  // per player; nullopt: unlimited
  bool first_counts = false;      // `counts`: "first", else "best"
  bool unlisted = false;
  std::optional<std::string> organiser{};  // name; nullopt: the operator's (dailies)
  std::string commitment{};
  std::optional<std::string> key{};  // hex, from closes_at on
};

// The Competition: {id, name, mode, preset, seed, daily, opens_at,
// closes_at, state, opens_in_s, closes_in_s, attempts, counts, unlisted,
// organiser, rules_version, commitment, key}; rules_version is the rules
// every competition's games are dealt with (game::kRulesVersion).
nlohmann::json competition_json(const CompetitionView& competition);
// /api/competitions/{id}?player=: the Competition, plus attempts_used and
// attempts_left (what the competition's attempts leave of attempts_used,
// at least 0; null when unlimited) when `attempts_used` is given.
nlohmann::json competition_body(const CompetitionView& competition,
                                std::optional<std::int64_t> attempts_used = std::nullopt);
// GET /api/competitions: {competitions: [Competition]}.
nlohmann::json competitions_body(const std::vector<CompetitionView>& competitions);
// GET /api/organiser/competitions: {organiser (the name; null for the
// operator), total (all of theirs), competitions: [Competition]}.
nlohmann::json organiser_competitions_body(const std::optional<std::string>& organiser,
                                           std::int64_t total,
                                           const std::vector<CompetitionView>& competitions);

// One line of a competition's results: a leaderboard entry, or a
// disqualified one (no rank, with the reason given).
struct ResultEntry {
  std::optional<std::int64_t> rank{};  // nullopt: disqualified
  std::string player{};                // name
  // What the ranking orders by (rules.md): the score, then move_count or
  // duration_ms, then the finish of the entry's game (ISO 8601 UTC), then
  // the player's id (ids grow with registration).
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t duration_ms = 0;
  std::string finished_at{};
  std::int64_t player_id = 0;
  std::string game_id{};
  std::optional<std::vector<game::Move>> moves{};  // nullopt until the close
  std::vector<std::string> flags{};                // the player's, in this competition
  std::optional<std::string> reason{};             // a disqualified entry's
  std::int64_t attempts_used = 0;                  // attempts started there (counted ones)
};

// /api/competitions/{id}/results: {competition: Competition, entries:
// [{rank, player, score, move_count, duration_ms, game_id, moves, flags,
// finished_at, player_id, attempts_used, reason (null unless
// disqualified)}]}.
nlohmann::json results_body(const CompetitionView& competition,
                            const std::vector<ResultEntry>& entries);
// ?format=csv: the header line
// rank,player,score,move_count,duration_ms,game_id,moves,flags,finished_at,player_id,attempts_used,reason
// then one line per entry; rank empty when disqualified, player, game_id,
// moves (the JSON array, empty while null), flags (joined with ';'),
// finished_at and reason (empty unless disqualified) quoted.
std::string results_csv(const std::vector<ResultEntry>& entries);

// POST /api/competitions/{id}/disqualify: {competition, player,
// disqualified: true, reason}.
nlohmann::json disqualified_body(std::string_view competition, std::string_view player,
                                 std::string_view reason);

}  // namespace tilecrush::protocol
