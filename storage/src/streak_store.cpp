// Daily streaks: streak_days holds, per player, mode and counted UTC day,
// the length of the run of consecutive counted days ending on it; streaks
// the longest run per player and mode. A day is counted when the first
// counted game of it finishes (game_finish_store.cpp's finish_game), so the work
// per game is constant: one insert that reads the day before's run, one
// probe of the day after, one upsert of the best. A day counted late (a
// game ended by its close after the player's next day was counted already)
// renumbers the run that follows it, one row per day of that run; so does a
// day taken back by a disqualification (uncount_streak_day).
#include <algorithm>
#include <tuple>
#include <utility>

#include "codec.hpp"
#include "row_columns.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// ?1 player, ?2 mode, ?3 day, ?4 the day before. Nothing when the day is
// counted already (a second game that day, or two nodes at once).
constexpr std::string_view kInsertDay = R"sql(
INSERT INTO streak_days (player_id, mode, day, run)
VALUES (?1, ?2, ?3, 1 + coalesce((SELECT run FROM streak_days
                                  WHERE player_id = ?1 AND mode = ?2 AND day = ?4), 0))
ON CONFLICT (player_id, mode, day) DO NOTHING
)sql";

constexpr std::string_view kSelectRun = R"sql(
SELECT run FROM streak_days WHERE player_id = ?1 AND mode = ?2 AND day = ?3
)sql";

constexpr std::string_view kUpdateRun = R"sql(
UPDATE streak_days SET run = ?4 WHERE player_id = ?1 AND mode = ?2 AND day = ?3
)sql";

// Only a longer run replaces the best.
constexpr std::string_view kUpsertBest = R"sql(
INSERT INTO streaks (player_id, mode, best) VALUES (?1, ?2, ?3)
ON CONFLICT (player_id, mode) DO UPDATE SET best = excluded.best
WHERE excluded.best > streaks.best
)sql";

constexpr std::string_view kSelectBests = R"sql(
SELECT mode, best FROM streaks WHERE player_id = ?1 ORDER BY mode
)sql";

// The latest counted day of one mode: a seek on the primary key.
constexpr std::string_view kSelectLastDay = R"sql(
SELECT day, run FROM streak_days WHERE player_id = ?1 AND mode = ?2
ORDER BY day DESC LIMIT 1
)sql";

// Whether a game still counts the day for the mode: a ranked, finished
// game of the player on one of that day's dailies of the mode, where the
// player is not disqualified. Walks the player's games (games_by_player):
// it runs only when a daily entry is disqualified.
constexpr std::string_view kDayStillCounted = R"sql(
SELECT 1 FROM games AS g JOIN competitions AS c ON c.id = g.competition_id
WHERE g.player_id = ?1 AND c.daily = 1 AND c.mode = ?2 AND c.opens_at / 86400000 = ?3
  AND g.ranked = 1 AND g.state = 'over'
  AND NOT EXISTS (SELECT 1 FROM entry_flags AS f
                  WHERE f.competition_id = g.competition_id AND f.player_id = g.player_id
                    AND f.flag = 'disqualified')
LIMIT 1
)sql";

constexpr std::string_view kDeleteDay = R"sql(
DELETE FROM streak_days WHERE player_id = ?1 AND mode = ?2 AND day = ?3
)sql";

constexpr std::string_view kLongestRun = R"sql(
SELECT max(run) FROM streak_days WHERE player_id = ?1 AND mode = ?2
)sql";

constexpr std::string_view kSetBest = R"sql(
UPDATE streaks SET best = ?3 WHERE player_id = ?1 AND mode = ?2
)sql";

constexpr std::string_view kDeleteBest = R"sql(
DELETE FROM streaks WHERE player_id = ?1 AND mode = ?2
)sql";

std::optional<std::int64_t> run_on(Connection& c, PlayerId player, std::string_view mode,
                                   std::int64_t day) {
  return c.first_row(kSelectRun, read_int, player, mode, day);
}

}  // namespace

void record_streak_day(Connection& c, PlayerId player, game::Mode mode, std::int64_t day) {
  const std::string_view mode_name = mode_text(mode);
  c.run(kInsertDay, player, mode_name, day, day - 1);
  if (c.changes() == 0) return;  // counted already
  std::int64_t run = run_on(c, player, mode_name, day).value_or(1);
  std::int64_t best = run;
  // Days counted already after this one now continue its run.
  for (std::int64_t next = day + 1;; ++next) {
    c.run(kUpdateRun, player, mode_name, next, run + 1);
    if (c.changes() == 0) break;
    run += 1;
    best = std::max(best, run);
  }
  c.run(kUpsertBest, player, mode_name, best);
}

void uncount_streak_day(Connection& c, PlayerId player, game::Mode mode, std::int64_t day) {
  const std::string_view mode_name = mode_text(mode);
  if (c.first_row(kDayStillCounted, read_int, player, mode_name, day)) {
    return;  // another daily of that day still counts it
  }
  c.run(kDeleteDay, player, mode_name, day);
  if (c.changes() == 0) return;  // never counted
  // The days after it start a run of their own.
  for (std::int64_t next = day + 1;; ++next) {
    c.run(kUpdateRun, player, mode_name, next, next - day);
    if (c.changes() == 0) break;
  }
  // max() of no rows: one row holding NULL.
  const std::optional<std::int64_t> longest =
      c.first_row(
           kLongestRun, [](const Statement& s) { return s.get_optional_int(0); }, player, mode_name)
          .value_or(std::nullopt);
  if (longest) {
    c.run(kSetBest, player, mode_name, *longest);
  } else {
    c.run(kDeleteBest, player, mode_name);
  }
}

std::vector<StreakRecord> select_player_streaks(Connection& c, PlayerId player) {
  std::vector<StreakRecord> streaks =
      c.rows(kSelectBests, read_columns<&StreakRecord::mode, &StreakRecord::best>, player);
  for (StreakRecord& s : streaks) {
    const auto last = c.first_row(
        kSelectLastDay,
        [](const Statement& row) { return std::pair(row.get_int(0), row.get_int(1)); }, player,
        mode_text(s.mode));
    if (last) std::tie(s.last_day, s.last_run) = *last;
  }
  return streaks;
}

}  // namespace tilecrush::storage::detail
