// Seasons (docs/rules.md, "Seasons"): a closed daily's points, and the
// weekly and monthly standings they add up to.
//
// Counting a board is a fixed number of set-based statements, whatever its
// field: its points rows from its final leaderboard (one INSERT ... SELECT
// ranking it), then per period (its week and its month) the totals upserted
// from those rows, every place renumbered by one UPDATE over a window (only
// the rows whose place changed are written) and the period's player count
// and revision. The cost of a close is therefore O(players in the period)
// in two statements; every read is a range of index season_standings_order
// (O(log n + page)), at any offset, and around a player one primary-key
// read more. A board is counted once: its row in season_boards is inserted
// first, in the same transaction, and a second count finds it. Writers are
// one at a time on every backend (PostgreSQL: the write lock of
// PgConnection::begin_write), so two nodes closing a daily never interleave.
#include <algorithm>

#include "codec.hpp"
#include "stores.hpp"
#include "tilecrush/game/season_period.hpp"

namespace tilecrush::storage::detail {
namespace {

// ?1 competition, ?2 mode, ?3 week, ?4 month. Nothing when counted already.
constexpr std::string_view kInsertMarker = R"sql(
INSERT INTO season_boards (competition_id, mode, week, month) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (competition_id) DO NOTHING
)sql";

constexpr std::string_view kSelectMarker = R"sql(
SELECT mode, week, month FROM season_boards WHERE competition_id = ?1
)sql";

// The rule: rank r of a field of n (the final leaderboard's order, the
// disqualified gone) earns max(1, floor(100 * (n - r + 1) / n)). Board as
// bind_board() binds it (?11 the competition's id).
constexpr std::string_view kInsertPoints = R"sql(
INSERT INTO season_points (competition_id, player_id, rank, points)
SELECT CAST(?11 AS TEXT), player_id, r,
       CASE WHEN (100 * (n - r + 1)) / n < 1 THEN 1 ELSE (100 * (n - r + 1)) / n END
FROM (SELECT player_id,
             ROW_NUMBER() OVER (ORDER BY score DESC, tiebreak ASC, finished_at ASC,
                                         player_id ASC) AS r,
             count(*) OVER () AS n
      FROM leaderboard WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3) AS ranked
)sql";

constexpr std::string_view kDeletePoints = R"sql(
DELETE FROM season_points WHERE competition_id = ?1
)sql";

// ?1 period, ?2 mode, ?3 competition. `WHERE true`: SQLite's upsert after a
// SELECT needs a WHERE to parse.
constexpr std::string_view kAddTotals = R"sql(
INSERT INTO season_standings (period, mode, player_id, points, boards, position)
SELECT CAST(?1 AS TEXT), CAST(?2 AS TEXT), player_id, points, 1, 0
FROM season_points WHERE competition_id = ?3 AND true
ON CONFLICT (period, mode, player_id) DO UPDATE
SET points = season_standings.points + excluded.points, boards = season_standings.boards + 1
)sql";

constexpr std::string_view kSubtractTotals = R"sql(
UPDATE season_standings
SET points = season_standings.points - p.points, boards = season_standings.boards - 1
FROM season_points AS p
WHERE p.competition_id = ?3 AND season_standings.period = ?1 AND season_standings.mode = ?2
  AND season_standings.player_id = p.player_id
)sql";

constexpr std::string_view kDeleteEmpty = R"sql(
DELETE FROM season_standings WHERE period = ?1 AND mode = ?2 AND boards = 0
)sql";

// The standings' order: points, then fewer dailies (more points per daily),
// then the earlier registered player (lower id).
constexpr std::string_view kRenumber = R"sql(
UPDATE season_standings SET position = o.place
FROM (SELECT player_id,
             ROW_NUMBER() OVER (ORDER BY points DESC, boards ASC, player_id ASC) AS place
      FROM season_standings WHERE period = ?1 AND mode = ?2) AS o
WHERE season_standings.period = ?1 AND season_standings.mode = ?2
  AND season_standings.player_id = o.player_id AND season_standings.position <> o.place
)sql";

// ?1 period, ?2 mode, ?3 kind, ?4 first day.
constexpr std::string_view kUpsertPeriod = R"sql(
INSERT INTO season_periods (period, mode, kind, start_day, entries, revision)
VALUES (?1, ?2, ?3, ?4, (SELECT count(*) FROM season_standings WHERE period = ?1 AND mode = ?2), 1)
ON CONFLICT (period, mode) DO UPDATE
SET entries = excluded.entries, revision = season_periods.revision + 1
)sql";

constexpr std::string_view kSelectState = R"sql(
SELECT entries, revision FROM season_periods WHERE period = ?1 AND mode = ?2
)sql";

constexpr std::string_view kSelectRange = R"sql(
SELECT s.position, s.player_id, p.name, s.points, s.boards
FROM season_standings AS s JOIN players AS p ON p.id = s.player_id
WHERE s.period = ?1 AND s.mode = ?2 AND s.position >= ?3 AND s.position <= ?4
ORDER BY s.position
)sql";

constexpr std::string_view kSelectPlaceOf = R"sql(
SELECT s.position FROM players AS p
JOIN season_standings AS s ON s.period = ?1 AND s.mode = ?2 AND s.player_id = p.id
WHERE p.name = ?3
)sql";
// PostgreSQL: the name compared as players_name's index expression.
constexpr std::string_view kSelectPlaceOfPg = R"sql(
SELECT s.position FROM players AS p
JOIN season_standings AS s ON s.period = ?1 AND s.mode = ?2 AND s.player_id = p.id
WHERE lower(p.name COLLATE "C") = lower(?3::text COLLATE "C")
)sql";

constexpr std::string_view kSelectPeriods = R"sql(
SELECT period, kind, entries, revision FROM season_periods WHERE mode = ?1 AND entries > 0
ORDER BY start_day DESC, kind DESC LIMIT ?2
)sql";

struct Periods {
  game::SeasonPeriod week;
  game::SeasonPeriod month;
};

Periods periods_of(const CompetitionRecord& comp) {
  const std::int64_t day = comp.opens_at / 86'400'000;
  return {game::week_of_day(day), game::month_of_day(day)};
}

void run3(Connection& c, std::string_view sql, const std::string& period, std::string_view mode,
          std::string_view competition_id) {
  auto q = c.query(sql);
  q->bind(1, period);
  q->bind(2, mode);
  q->bind(3, competition_id);
  q->run();
}

void insert_points(Connection& c, const CompetitionRecord& comp) {
  auto q = c.query(kInsertPoints);
  bind_board(*q, BoardKey{comp.mode, comp.preset, comp.seed, comp.id});
  q->run();
}

// After the totals of `period` changed: empty rows out, places renumbered,
// the player count and revision moved on.
void settle(Connection& c, const game::SeasonPeriod& period, std::string_view mode) {
  const std::string name = period.name();
  for (const std::string_view sql : {kDeleteEmpty, kRenumber}) {
    auto q = c.query(sql);
    q->bind(1, name);
    q->bind(2, mode);
    q->run();
  }
  auto q = c.query(kUpsertPeriod);
  q->bind(1, name);
  q->bind(2, mode);
  q->bind(3, game::to_string(period.kind));
  q->bind(4, period.start_day);
  q->run();
}

SeasonPeriodRecord read_period(const Statement& q) {
  return {q.get_text(0), q.get_text(1) == "week", q.get_int(2), q.get_int(3)};
}

BoardRevision read_state(Connection& c, const SeasonKey& key) {
  auto q = c.query(kSelectState);
  q->bind(1, key.period);
  q->bind(2, mode_text(key.mode));
  if (!q->step()) return {};
  return {q->get_int(0), q->get_int(1)};
}

// Places first..last (1-based, inclusive), inside the caller's transaction.
SeasonPage read_range(Connection& c, const SeasonKey& key, const BoardRevision& state,
                      std::int64_t first, std::int64_t last) {
  SeasonPage page;
  page.total = state.entries;
  page.revision = state.revision;
  if (last < first) return page;
  auto q = c.query(kSelectRange);
  q->bind(1, key.period);
  q->bind(2, mode_text(key.mode));
  q->bind(3, first);
  q->bind(4, last);
  while (q->step()) {
    page.entries.push_back(
        {q->get_int(0), q->get_int(1), q->get_text(2), q->get_int(3), q->get_int(4)});
  }
  return page;
}

}  // namespace

WriteResult record_season_points(Connection& c, const std::string& competition_id) {
  // Totals are added and places renumbered: one daily's at a time, on any
  // node.
  c.lock_keys({season_lock()});
  const auto comp = select_competition(c, competition_id);
  if (!comp) return write_error(WriteStatus::not_found, "unknown competition " + competition_id);
  if (!comp->daily) return write_error(WriteStatus::invalid, "not a daily");
  const Periods periods = periods_of(*comp);
  const std::string_view mode = mode_text(comp->mode);
  {
    auto q = c.query(kInsertMarker);
    q->bind(1, competition_id);
    q->bind(2, mode);
    q->bind(3, periods.week.name());
    q->bind(4, periods.month.name());
    q->run();
    if (c.changes() == 0) return write_ok();  // counted already
  }
  insert_points(c, *comp);
  if (c.changes() == 0) return write_ok();  // nobody played it: no standings change
  for (const game::SeasonPeriod& period : {periods.week, periods.month}) {
    run3(c, kAddTotals, period.name(), mode, competition_id);
    settle(c, period, mode);
  }
  return write_ok();
}

void recount_season_points(Connection& c, const CompetitionRecord& comp) {
  {
    auto q = c.query(kSelectMarker);
    q->bind(1, comp.id);
    if (!q->step()) return;  // not counted (yet): its close counts it
  }
  const Periods periods = periods_of(comp);
  const std::string_view mode = mode_text(comp.mode);
  for (const game::SeasonPeriod& period : {periods.week, periods.month}) {
    run3(c, kSubtractTotals, period.name(), mode, comp.id);
  }
  {
    auto q = c.query(kDeletePoints);
    q->bind(1, comp.id);
    q->run();
  }
  insert_points(c, comp);
  for (const game::SeasonPeriod& period : {periods.week, periods.month}) {
    run3(c, kAddTotals, period.name(), mode, comp.id);
    settle(c, period, mode);
  }
}

SeasonPage select_season_page(Connection& c, const SeasonKey& key, std::int64_t limit,
                              std::int64_t offset) {
  limit = std::max<std::int64_t>(limit, 0);
  offset = std::max<std::int64_t>(offset, 0);
  ReadTransaction snapshot(c);
  const BoardRevision state = read_state(c, key);
  return read_range(c, key, state, offset + 1, offset + limit);
}

std::optional<SeasonPage> select_season_around(Connection& c, const SeasonKey& key,
                                               std::string_view player_name, std::int64_t radius) {
  radius = std::max<std::int64_t>(radius, 0);
  ReadTransaction snapshot(c);
  std::int64_t place = 0;
  {
    auto q = c.query(c.postgres() ? kSelectPlaceOfPg : kSelectPlaceOf);
    q->bind(1, key.period);
    q->bind(2, mode_text(key.mode));
    q->bind(3, player_name);
    if (!q->step()) return std::nullopt;
    place = q->get_int(0);
  }
  const BoardRevision state = read_state(c, key);
  return read_range(c, key, state, std::max<std::int64_t>(1, place - radius), place + radius);
}

BoardRevision select_season_revision(Connection& c, const SeasonKey& key) {
  return read_state(c, key);
}

std::vector<SeasonPeriodRecord> select_season_periods(Connection& c, game::Mode mode,
                                                      std::int64_t limit) {
  auto q = c.query(kSelectPeriods);
  q->bind(1, mode_text(mode));
  q->bind(2, std::max<std::int64_t>(limit, 0));
  std::vector<SeasonPeriodRecord> out;
  while (q->step()) out.push_back(read_period(*q));
  return out;
}

}  // namespace tilecrush::storage::detail
