// The migration steps whose SQL text is the same on SQLite and PostgreSQL,
// byte for byte: both migration lists (sqlite_migrations.cpp,
// pg_migrations.cpp) name these constants, so that the two cannot drift.
//
// Contract: the text of a step is what databases in the field have run
// already; it never changes (a change of schema is a new step).
//
// Thread safety: constants.
#pragma once

#include <string_view>

namespace tilecrush::storage::detail {

// A player's history (history_store.cpp): their finished games newest
// finish first, paged by keyset on (finished_at, id), and the days of a
// month they finished games on. games_by_player orders by start, and a
// game can end long after it began (a competition's until its close), so
// neither read could be bounded with it.
inline constexpr std::string_view kGamesFinishedByPlayer = R"sql(
CREATE INDEX IF NOT EXISTS games_finished_by_player ON games (player_id, finished_at, id) WHERE state = 'over';
)sql";

// Each move's time offset from the game's start (codec.hpp's encoding),
// beside the move list in the game's row, so that a move stays one UPDATE of
// one row. NULL for the games stored before: their moves have no offsets
// (and appending to NULL keeps it NULL, so a game begun before the upgrade
// never gets a partial list). Adding a nullable column rewrites nothing.
inline constexpr std::string_view kMoveTimes = R"sql(
ALTER TABLE games ADD COLUMN move_times TEXT;
)sql";

// The archive (archive_store.cpp): listed competitions by (closes_at, id),
// latest first, keyset-paged; one index per filter (none, mode, kind, both)
// so that every page walks its rows in order and reads no others.
inline constexpr std::string_view kArchiveIndexes = R"sql(
CREATE INDEX IF NOT EXISTS competitions_archive ON competitions (closes_at, id) WHERE unlisted = 0;
CREATE INDEX IF NOT EXISTS competitions_archive_by_mode ON competitions (mode, closes_at, id)
  WHERE unlisted = 0;
CREATE INDEX IF NOT EXISTS competitions_archive_by_kind ON competitions (daily, closes_at, id)
  WHERE unlisted = 0;
CREATE INDEX IF NOT EXISTS competitions_archive_by_mode_kind ON competitions (mode, daily, closes_at, id)
  WHERE unlisted = 0;
)sql";

}  // namespace tilecrush::storage::detail
