// The SQLite schema's migrations, step by step (migrator.hpp applies them):
// the steps to version 6 in sqlite_steps_to_v6.hpp, the later ones here.
// PostgreSQL runs each later step too, in its spelling of the types
// (pg_migrations.cpp's postgres_spelling()).
#include <array>
#include <string_view>

#include "migrations.hpp"
#include "sqlite_steps_to_v6.hpp"
#include "tilecrush/storage/options.hpp"

namespace tilecrush::storage::detail {
namespace {

// Open rooms (lobby or playing), so that a restarted server gets them back:
// one row per room keyed by its code, its players by seat (joining order).
// Kept to SQL that PostgreSQL shares once spelled for it (no WITHOUT ROWID,
// no rowid use): the same statements run there.
constexpr std::string_view kV7OpenRooms = R"sql(
CREATE TABLE open_rooms (
  code              TEXT NOT NULL PRIMARY KEY,
  mode              TEXT NOT NULL,
  preset            TEXT NOT NULL,
  seed              TEXT NOT NULL,
  creator_player_id INTEGER NOT NULL REFERENCES players(id),
  host_player_id    INTEGER NOT NULL REFERENCES players(id),
  phase             TEXT NOT NULL,
  created_at        INTEGER NOT NULL,
  last_activity     INTEGER NOT NULL,
  epoch             INTEGER NOT NULL DEFAULT 0,
  owner             TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE open_room_players (
  room_code  TEXT NOT NULL REFERENCES open_rooms(code),
  seat       INTEGER NOT NULL,
  player_id  INTEGER NOT NULL REFERENCES players(id),
  game_id    TEXT REFERENCES games(id),
  has_left   INTEGER NOT NULL,
  score      INTEGER NOT NULL,
  move_count INTEGER NOT NULL,
  PRIMARY KEY (room_code, seat),
  UNIQUE (room_code, player_id)
) STRICT;
)sql";

// Recovery codes (docs/protocol.md, "Recovery codes"): a name survives its
// browser. A player's recovery code is kept only as hex(SHA-256) of its
// canonical spelling (NULL: none asked for yet); a recovery adds a device
// token (the token of players.token_hash stays valid: it is the first
// device's), at most a few per player, the oldest dropped first, in the
// order of `id`. Failed tries are kept per player over the rate limit's
// window, each one a row, so that the limit slides exactly.
constexpr std::string_view kV8RecoveryCodes = R"sql(
ALTER TABLE players ADD COLUMN recovery_hash TEXT;

CREATE TABLE device_tokens (
  id         INTEGER PRIMARY KEY,
  player_id  INTEGER NOT NULL REFERENCES players(id),
  token_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX device_tokens_by_player ON device_tokens (player_id, id);

CREATE TABLE recovery_failures (
  player_id INTEGER NOT NULL REFERENCES players(id),
  at        INTEGER NOT NULL
) STRICT;
CREATE INDEX recovery_failures_by_player ON recovery_failures (player_id, at);
)sql";

// Daily streaks (rules.md, "Streaks"): one row per player, mode and UTC day
// with a counted daily game, holding the length of the run of consecutive
// days that ends there; and each player's longest run per mode. Filled from
// the games already finished. PostgreSQL runs the same text in its
// spelling of the types (pg_migrations.cpp).
constexpr std::string_view kV9Streaks = R"sql(
CREATE TABLE streak_days (
  player_id INTEGER NOT NULL REFERENCES players(id),
  mode      TEXT NOT NULL,
  day       INTEGER NOT NULL,
  run       INTEGER NOT NULL,
  PRIMARY KEY (player_id, mode, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE streaks (
  player_id INTEGER NOT NULL REFERENCES players(id),
  mode      TEXT NOT NULL,
  best      INTEGER NOT NULL,
  PRIMARY KEY (player_id, mode)
) STRICT, WITHOUT ROWID;

-- The backfill: the days of one run share day - (their rank among the player's days).
INSERT INTO streak_days (player_id, mode, day, run)
SELECT player_id, mode, day,
       ROW_NUMBER() OVER (PARTITION BY player_id, mode, day - rn ORDER BY day)
FROM (SELECT player_id, mode, day,
             ROW_NUMBER() OVER (PARTITION BY player_id, mode ORDER BY day) AS rn
      FROM (SELECT DISTINCT g.player_id AS player_id, c.mode AS mode,
                   c.opens_at / 86400000 AS day
            FROM games AS g JOIN competitions AS c ON c.id = g.competition_id
            WHERE c.daily = 1 AND g.ranked = 1 AND g.state = 'over'
              AND NOT EXISTS (SELECT 1 FROM entry_flags AS f
                              WHERE f.competition_id = g.competition_id
                                AND f.player_id = g.player_id AND f.flag = 'disqualified')) AS d) AS x;
INSERT INTO streaks (player_id, mode, best)
SELECT player_id, mode, max(run) FROM streak_days GROUP BY player_id, mode;
)sql";

// A player's history (history_store.cpp): their finished games newest
// finish first, paged by keyset on (finished_at, id), and the days of a
// month they finished games on. games_by_player orders by start, and a
// game can end long after it began (a competition's until its close), so
// neither read could be bounded with it.
constexpr std::string_view kGamesFinishedByPlayer = R"sql(
CREATE INDEX IF NOT EXISTS games_finished_by_player ON games (player_id, finished_at, id) WHERE state = 'over';
)sql";

// Each move's time offset from the game's start (codec.hpp's encoding),
// beside the move list in the game's row, so that a move stays one UPDATE of
// one row. NULL for the games stored before: their moves have no offsets
// (and appending to NULL keeps it NULL, so a game begun before the upgrade
// never gets a partial list). Adding a nullable column rewrites nothing.
constexpr std::string_view kMoveTimes = R"sql(
ALTER TABLE games ADD COLUMN move_times TEXT;
)sql";

// Seasons (rules.md, "Seasons"): the points of each counted daily board per
// player (so that a board can be counted again after a disqualification),
// the board's marker (counted once, whichever node or restart closes it),
// each period's standings per mode and player with their place kept in
// `position` (renumbered by the write that changes them, so a page is a
// range of the index, never a sort), and per period and mode the number of
// players and a revision for ETags. Starts empty: dailies closed before
// the upgrade are not counted. PostgreSQL runs the same text in its
// spelling of the types (pg_migrations.cpp).
constexpr std::string_view kSeasons = R"sql(
CREATE TABLE season_boards (
  competition_id TEXT NOT NULL PRIMARY KEY REFERENCES competitions(id),
  mode           TEXT NOT NULL,
  week           TEXT NOT NULL,
  month          TEXT NOT NULL
) STRICT;

CREATE TABLE season_points (
  competition_id TEXT NOT NULL REFERENCES competitions(id),
  player_id      INTEGER NOT NULL REFERENCES players(id),
  rank           INTEGER NOT NULL,
  points         INTEGER NOT NULL,
  PRIMARY KEY (competition_id, player_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE season_standings (
  period    TEXT NOT NULL,
  mode      TEXT NOT NULL,
  player_id INTEGER NOT NULL REFERENCES players(id),
  points    INTEGER NOT NULL,
  boards    INTEGER NOT NULL,
  position  INTEGER NOT NULL,
  PRIMARY KEY (period, mode, player_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX season_standings_order ON season_standings (period, mode, position);

CREATE TABLE season_periods (
  period    TEXT NOT NULL,
  mode      TEXT NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('week', 'month')),
  start_day INTEGER NOT NULL,
  entries   INTEGER NOT NULL,
  revision  INTEGER NOT NULL,
  PRIMARY KEY (period, mode)
) STRICT, WITHOUT ROWID;
CREATE INDEX season_periods_by_mode ON season_periods (mode, start_day);
)sql";

// The archive (archive_store.cpp): listed competitions by (closes_at, id),
// latest first, keyset-paged; one index per filter (none, mode, kind, both)
// so that every page walks its rows in order and reads no others.
constexpr std::string_view kArchiveIndexes = R"sql(
CREATE INDEX IF NOT EXISTS competitions_archive ON competitions (closes_at, id) WHERE unlisted = 0;
CREATE INDEX IF NOT EXISTS competitions_archive_by_mode ON competitions (mode, closes_at, id)
  WHERE unlisted = 0;
CREATE INDEX IF NOT EXISTS competitions_archive_by_kind ON competitions (daily, closes_at, id)
  WHERE unlisted = 0;
CREATE INDEX IF NOT EXISTS competitions_archive_by_mode_kind ON competitions (mode, daily, closes_at, id)
  WHERE unlisted = 0;
)sql";

constexpr std::array<std::string_view, kSchemaVersion> kMigrations = {
    kV1PlayersGamesMoves, kV2Leaderboards,         kV3Rooms,     kV4MoveList,
    kV5Competitions,      kV6LeaderboardRevisions, kV7OpenRooms, kV8RecoveryCodes,
    kV9Streaks,           kGamesFinishedByPlayer,  kMoveTimes,   kSeasons,
    kArchiveIndexes,
};

}  // namespace

std::span<const std::string_view> sqlite_migrations() {
  return kMigrations;
}

}  // namespace tilecrush::storage::detail
