// SQLite's migration steps up to schema version 6: the schema of rules
// version 1 (players, games, leaderboards, rooms, move lists), then
// competitions and board keys (rules version 2) and the leaderboard's
// revisions. PostgreSQL support starts there: its first step creates this
// whole schema at once (pg_migrations.cpp), and each statement of it that
// SQLite's steps also run is one constant here (a table's CREATE, an
// index), which both sides join into their steps, PostgreSQL's in its own
// spelling of the types (pg_migrations.cpp's postgres_spelling()).
// sqlite_migrations.cpp lists these steps with the later ones.
//
// Contract: a step's text is what databases in the field have run already;
// joined, it stays byte for byte what it was (schema_test.cpp pins every
// step's SHA-256 on both backends).
//
// Thread safety: constants.
#pragma once

#include <string_view>

#include "sql_join.hpp"

namespace tilecrush::storage::detail {

inline constexpr std::string_view kBlankLine = "\n";

// Times are milliseconds since the Unix epoch. Booleans are 0/1. Mode, move
// kind, state and over reason are stored by name so the file reads plainly
// and does not depend on enum order.
inline constexpr std::string_view kV1PlayersGamesMoves = R"sql(
CREATE TABLE players (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL COLLATE NOCASE UNIQUE,
  token_hash   TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  games_played INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE games (
  id            TEXT PRIMARY KEY,
  player_id     INTEGER NOT NULL REFERENCES players(id),
  mode          TEXT NOT NULL CHECK (mode IN ('same', 'match3', 'hidden')),
  preset        TEXT,
  width         INTEGER NOT NULL,
  height        INTEGER NOT NULL,
  colors        INTEGER NOT NULL,
  move_budget   INTEGER,
  refill        INTEGER NOT NULL,
  compress      INTEGER NOT NULL,
  board_width   INTEGER,
  board_height  INTEGER,
  board         BLOB,
  seed          TEXT NOT NULL,
  rules_version INTEGER NOT NULL,
  ranked        INTEGER NOT NULL,
  score         INTEGER NOT NULL DEFAULT 0,
  move_count    INTEGER NOT NULL DEFAULT 0,
  state         TEXT NOT NULL DEFAULT 'playing' CHECK (state IN ('playing', 'over')),
  over_reason   TEXT,
  created_at    INTEGER NOT NULL,
  first_move_at INTEGER,
  finished_at   INTEGER,
  duration_ms   INTEGER,
  room_code     TEXT,
  CHECK (ranked = 0 OR preset IS NOT NULL)
) STRICT;

CREATE INDEX games_by_player ON games (player_id, created_at);
CREATE INDEX games_playing ON games (created_at) WHERE state = 'playing';

CREATE TABLE moves (
  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,
  kind    TEXT NOT NULL CHECK (kind IN ('click', 'swap', 'peek', 'select', 'unselect')),
  ax      INTEGER NOT NULL,
  ay      INTEGER NOT NULL,
  bx      INTEGER,
  by      INTEGER,
  PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
)sql";

// A leaderboard entry's columns after its board's key (scope, when it has
// one): version 2's leaderboard, version 5's scoped one and PostgreSQL's.
inline constexpr std::string_view kLeaderboardEntryColumns = R"sql(  mode        TEXT NOT NULL,
  preset      TEXT NOT NULL,
  seed        TEXT NOT NULL,
  player_id   INTEGER NOT NULL REFERENCES players(id),
  score       INTEGER NOT NULL,
  tiebreak    INTEGER NOT NULL,
  move_count  INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  attempts    INTEGER NOT NULL,
  game_id     TEXT NOT NULL REFERENCES games(id),
  finished_at INTEGER NOT NULL,
)sql";

inline constexpr std::string_view kPlayerBestsTable = R"sql(CREATE TABLE player_bests (
  player_id   INTEGER NOT NULL REFERENCES players(id),
  mode        TEXT NOT NULL,
  preset      TEXT NOT NULL,
  seed        TEXT NOT NULL,
  score       INTEGER NOT NULL,
  game_id     TEXT NOT NULL REFERENCES games(id),
  achieved_at INTEGER NOT NULL,
  PRIMARY KEY (player_id, mode, preset)
) STRICT, WITHOUT ROWID;
)sql";

// tiebreak: move_count for same and match3, duration_ms for hidden, so one
// index serves every mode's order.
inline constexpr std::string_view kV2LeaderboardHead = R"sql(
CREATE TABLE leaderboard (
)sql";
inline constexpr std::string_view kV2LeaderboardRest =
    R"sql(  PRIMARY KEY (mode, preset, seed, player_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX leaderboard_order
  ON leaderboard (mode, preset, seed, score DESC, tiebreak, finished_at, player_id);

-- Entries per board, so that a page's total is one row, not a count.
CREATE TABLE leaderboard_boards (
  mode    TEXT NOT NULL,
  preset  TEXT NOT NULL,
  seed    TEXT NOT NULL,
  entries INTEGER NOT NULL,
  PRIMARY KEY (mode, preset, seed)
) STRICT, WITHOUT ROWID;

)sql";
inline constexpr std::string_view kV2Leaderboards =
    kJoined<kV2LeaderboardHead, kLeaderboardEntryColumns, kV2LeaderboardRest, kPlayerBestsTable>;

inline constexpr std::string_view kRoomsTable = R"sql(CREATE TABLE rooms (
  id             INTEGER PRIMARY KEY,
  code           TEXT NOT NULL,
  mode           TEXT NOT NULL,
  preset         TEXT,
  seed           TEXT NOT NULL,
  host_player_id INTEGER REFERENCES players(id),
  created_at     INTEGER NOT NULL,
  finished_at    INTEGER NOT NULL
) STRICT;
)sql";

inline constexpr std::string_view kRoomsByCode =
    R"sql(CREATE INDEX rooms_by_code ON rooms (code, finished_at);
)sql";

inline constexpr std::string_view kRoomResultsTable = R"sql(CREATE TABLE room_results (
  room_id    INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  player_id  INTEGER NOT NULL REFERENCES players(id),
  rank       INTEGER NOT NULL,
  score      INTEGER NOT NULL,
  move_count INTEGER NOT NULL,
  game_id    TEXT REFERENCES games(id),
  PRIMARY KEY (room_id, player_id)
) STRICT, WITHOUT ROWID;
)sql";

inline constexpr std::string_view kV3Rooms =
    kJoined<kBlankLine, kRoomsTable, kBlankLine, kRoomsByCode, kBlankLine, kRoomResultsTable>;

// A game's moves move into its own row (codec.hpp's encoding), so a move is
// one UPDATE of one row: a moves table keyed by game spreads the moves of a
// thousand live games over a thousand leaf pages, and every commit rewrote
// all of them into the WAL (~4x the writer's cost per move).
inline constexpr std::string_view kV4MoveList = R"sql(
ALTER TABLE games ADD COLUMN move_list TEXT NOT NULL DEFAULT '';

UPDATE games SET move_list = coalesce((
  SELECT group_concat(code, '') FROM (
    SELECT CASE kind WHEN 'click' THEN 'c' WHEN 'swap' THEN 'w' WHEN 'peek' THEN 'p'
                     WHEN 'select' THEN 's' ELSE 'u' END
           || char(48 + ax) || char(48 + ay)
           || CASE WHEN bx IS NULL THEN '..' ELSE char(48 + bx) || char(48 + by) END AS code
    FROM moves WHERE moves.game_id = games.id ORDER BY seq)), '');

DROP TABLE moves;
)sql";

inline constexpr std::string_view kBoardsTable = R"sql(CREATE TABLE boards (
  scope      TEXT NOT NULL,
  mode       TEXT NOT NULL,
  preset     TEXT NOT NULL,
  seed       TEXT NOT NULL,
  key        BLOB NOT NULL CHECK (length(key) = 32),
  commitment TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  closes_at  INTEGER,
  PRIMARY KEY (scope, mode, preset, seed)
) STRICT, WITHOUT ROWID;
)sql";

inline constexpr std::string_view kCompetitionsTable = R"sql(CREATE TABLE competitions (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  mode         TEXT NOT NULL,
  preset       TEXT NOT NULL,
  seed         TEXT NOT NULL,
  opens_at     INTEGER NOT NULL,
  closes_at    INTEGER NOT NULL,
  attempts     INTEGER,
  first_counts INTEGER NOT NULL,
  unlisted     INTEGER NOT NULL,
  daily        INTEGER NOT NULL,
  organiser_id INTEGER REFERENCES organisers(id),
  created_at   INTEGER NOT NULL,
  closed       INTEGER NOT NULL DEFAULT 0,
  CHECK (closes_at > opens_at)
) STRICT;
)sql";

inline constexpr std::string_view kCompetitionsIndexes =
    R"sql(CREATE INDEX competitions_by_close ON competitions (closes_at);
CREATE INDEX competitions_to_close ON competitions (closes_at) WHERE closed = 0;
)sql";

inline constexpr std::string_view kAttemptsTable = R"sql(CREATE TABLE attempts (
  competition_id TEXT NOT NULL REFERENCES competitions(id),
  player_id      INTEGER NOT NULL REFERENCES players(id),
  started        INTEGER NOT NULL,
  PRIMARY KEY (competition_id, player_id)
) STRICT, WITHOUT ROWID;
)sql";

inline constexpr std::string_view kEntryFlagsTable = R"sql(CREATE TABLE entry_flags (
  competition_id TEXT NOT NULL REFERENCES competitions(id),
  player_id      INTEGER NOT NULL REFERENCES players(id),
  flag           TEXT NOT NULL CHECK (flag IN ('disqualified', 'replay_failed')),
  game_id        TEXT NOT NULL,
  reason         TEXT NOT NULL,
  at             INTEGER NOT NULL,
  PRIMARY KEY (competition_id, player_id, flag)
) STRICT, WITHOUT ROWID;
)sql";

inline constexpr std::string_view kScopedLeaderboardOrder = R"sql(CREATE INDEX leaderboard_order
  ON leaderboard (scope, mode, preset, seed, score DESC, tiebreak, finished_at, player_id);
)sql";

inline constexpr std::string_view kV5Organisers = R"sql(CREATE TABLE organisers (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL COLLATE NOCASE UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
) STRICT;
)sql";
inline constexpr std::string_view kV5GamesAndLeaderboardHead = R"sql(
ALTER TABLE games ADD COLUMN keyed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN competition_id TEXT;
ALTER TABLE games ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_playing_in_competition ON games (competition_id)
  WHERE state = 'playing' AND competition_id IS NOT NULL;

CREATE TABLE leaderboard_scoped (
  scope       TEXT NOT NULL,
)sql";
inline constexpr std::string_view kV5LeaderboardMove =
    R"sql(  PRIMARY KEY (scope, mode, preset, seed, player_id)
) STRICT, WITHOUT ROWID;
INSERT INTO leaderboard_scoped
  SELECT 'v1', mode, preset, seed, player_id, score, tiebreak, move_count, duration_ms, attempts,
         game_id, finished_at
  FROM leaderboard;
DROP TABLE leaderboard;
ALTER TABLE leaderboard_scoped RENAME TO leaderboard;
)sql";
inline constexpr std::string_view kV5LeaderboardBoards = R"sql(
CREATE TABLE leaderboard_boards_scoped (
  scope   TEXT NOT NULL,
  mode    TEXT NOT NULL,
  preset  TEXT NOT NULL,
  seed    TEXT NOT NULL,
  entries INTEGER NOT NULL,
  PRIMARY KEY (scope, mode, preset, seed)
) STRICT, WITHOUT ROWID;
INSERT INTO leaderboard_boards_scoped SELECT 'v1', mode, preset, seed, entries FROM leaderboard_boards;
DROP TABLE leaderboard_boards;
ALTER TABLE leaderboard_boards_scoped RENAME TO leaderboard_boards;
)sql";
// Rules version 2 (docs/rules.md): boards with secret keys, competitions
// (the dailies among them), organisers, counted attempts and entry flags.
// Leaderboards gain a scope, because a seed is only a label now: the same
// label is a different board casually, in each competition, and under rules
// version 1, whose entries move to scope 'v1'.
inline constexpr std::string_view kV5Competitions =
    kJoined<kBlankLine, kBoardsTable, kBlankLine, kV5Organisers, kBlankLine, kCompetitionsTable,
            kBlankLine, kCompetitionsIndexes, kBlankLine, kAttemptsTable, kBlankLine,
            kEntryFlagsTable, kV5GamesAndLeaderboardHead, kLeaderboardEntryColumns,
            kV5LeaderboardMove, kScopedLeaderboardOrder, kV5LeaderboardBoards>;

inline constexpr std::string_view kLeaderboardChangesTable =
    R"sql(CREATE TABLE leaderboard_changes (
  scope           TEXT NOT NULL,
  mode            TEXT NOT NULL,
  preset          TEXT NOT NULL,
  seed            TEXT NOT NULL,
  revision        INTEGER NOT NULL,
  player_id       INTEGER NOT NULL,
  old_score       INTEGER,
  old_tiebreak    INTEGER,
  old_finished_at INTEGER,
  new_score       INTEGER,
  new_tiebreak    INTEGER,
  new_finished_at INTEGER,
  PRIMARY KEY (scope, mode, preset, seed, revision)
) STRICT, WITHOUT ROWID;
)sql";

// Rank caches (leaderboard_pages.cpp) follow a board through its revision
// and the log of changes of place: old and new (score, tiebreak,
// finished_at), NULL for none. The log keeps the last kChangeWindow
// revisions of each board.
inline constexpr std::string_view kV6Revision = R"sql(
ALTER TABLE leaderboard_boards ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

)sql";
inline constexpr std::string_view kV6LeaderboardRevisions =
    kJoined<kV6Revision, kLeaderboardChangesTable>;

}  // namespace tilecrush::storage::detail
