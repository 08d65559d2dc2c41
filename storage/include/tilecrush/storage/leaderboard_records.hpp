// The values of leaderboards: a board, its entries and pages, its revision,
// and how reads went through the rank cache.
//
// Every time is in milliseconds since the Unix epoch (UTC), given by the
// caller: storage never reads the clock for data it keeps.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/player_records.hpp"

namespace tilecrush::storage {

// One board with its own leaderboard. The seed is only a label: boards of
// one label in different scopes are different boards.
struct BoardKey {
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  // "" casual boards of the current rules (a key per label), kScopeV1 the
  // boards of rules version 1 games (no key), else a competition's id.
  std::string scope;
};

inline constexpr std::string_view kScopeV1 = "v1";

struct LeaderboardEntry {
  std::int64_t rank = 0;  // 1-based position in the board's full order
  PlayerId player_id = 0;
  std::string player;  // name
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t duration_ms = 0;
  std::int64_t attempts = 0;  // counted games on this board, best or not
  std::string game_id;        // the game that set this entry
  std::int64_t finished_at = 0;
};

// Order: score descending, then fewer moves (same, match3) or shorter
// duration (hidden), then the earlier finish, then the lower player id.
struct LeaderboardPage {
  std::int64_t total = 0;  // entries on the whole board
  // The board's revision the page was read at (see BoardRevision).
  std::int64_t revision = 0;
  std::vector<LeaderboardEntry> entries;
};

// A board's number of entries and its revision: 0 for a board without
// entries, then + 1 with every change to any of its entries (a new entry, a
// better result, one more attempt, an entry removed), committed in order. Two
// reads of a board at the same revision read the same entries.
struct BoardRevision {
  std::int64_t entries = 0;
  std::int64_t revision = 0;
};

// How leaderboard reads went, since the Database opened.
struct RankCacheMetrics {
  std::uint64_t indexed_reads = 0;    // pages and around-me served through a rank index
  std::uint64_t plain_reads = 0;      // by the ordered scan: no cache, an empty or too large board
  std::uint64_t loads = 0;            // a board's places loaded whole
  std::uint64_t changes_applied = 0;  // changes of place followed from the log
  // An index found disagreeing with the rows, dropped, and the read done by
  // the scan: never expected; a test asserts none.
  std::uint64_t mismatches = 0;
  // Held now: boards with a slot (at most 4096) and their keys (at most
  // Options::rank_cache_keys).
  std::uint64_t boards = 0;
  std::uint64_t keys = 0;
};

}  // namespace tilecrush::storage
