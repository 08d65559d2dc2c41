// Reading leaderboard pages: through a board's rank index when the cache
// holds it (O(log n) whatever the offset; rank_sync.hpp), else by the plain
// ordered scan of index leaderboard_order (O(offset); leaderboard_rows.hpp),
// which also serves as the reference the rank index is tested against.
#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "leaderboard_rows.hpp"
#include "rank_cache.hpp"
#include "rank_sync.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kSelectEntryOf = R"sql(
SELECT l.score, l.tiebreak, l.finished_at, l.player_id
FROM players AS p CROSS JOIN leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3 AND l.player_id = p.id
WHERE p.name = ?4
)sql";
// PostgreSQL: the name compared as players_name's index expression.
constexpr std::string_view kSelectEntryOfPg = R"sql(
SELECT l.score, l.tiebreak, l.finished_at, l.player_id
FROM players AS p JOIN leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3 AND l.player_id = p.id
WHERE lower(p.name COLLATE "C") = lower(?4::text COLLATE "C")
)sql";

}  // namespace

LeaderboardPage select_leaderboard(Connection& c, RankCache* cache, const BoardKey& board,
                                   std::int64_t limit, std::int64_t offset) {
  limit = std::max<std::int64_t>(limit, 0);
  offset = std::max<std::int64_t>(offset, 0);
  return with_snapshot_retry(
      c, cache, board, [&](RankCache* use_cache, Held& held) -> std::optional<LeaderboardPage> {
        const BoardRevision state = read_board_state(c, board);
        std::vector<RankKey> keys;
        const Sync sync = with_index(c, use_cache, board, state, held, [&](const RankIndex& index) {
          index.copy_range(static_cast<std::size_t>(offset), static_cast<std::size_t>(limit), keys);
          return true;
        });
        if (sync == Sync::snapshot_older) return std::nullopt;
        if (auto page = indexed_page(c, cache, sync, board, state, keys, offset)) return page;
        return plain_page(c, board, state, limit, offset);
      });
}

std::optional<LeaderboardPage> select_leaderboard_around(Connection& c, RankCache* cache,
                                                         const BoardKey& board,
                                                         std::string_view player_name,
                                                         std::int64_t radius) {
  radius = std::max<std::int64_t>(radius, 0);
  // The outer optional: answered (else read again); the inner: the player
  // has an entry.
  return with_snapshot_retry(
      c, cache, board,
      [&](RankCache* use_cache, Held& held) -> std::optional<std::optional<LeaderboardPage>> {
        const BoardRevision state = read_board_state(c, board);
        RankKey key;
        {
          auto entry = c.query(c.postgres() ? kSelectEntryOfPg : kSelectEntryOf);
          bind_board(*entry, board);
          entry->bind(4, player_name);
          if (!entry->step()) {
            return std::optional<std::optional<LeaderboardPage>>(std::in_place, std::nullopt);
          }
          key = {entry->get_int(0), entry->get_int(1), entry->get_int(2), entry->get_int(3)};
        }
        std::int64_t rank = 0;   // 1-based
        std::int64_t first = 0;  // 0-based position of the page's first entry
        std::vector<RankKey> keys;
        auto page_around = [&](std::int64_t ahead) {
          rank = ahead + 1;
          first = std::max<std::int64_t>(0, rank - 1 - radius);
        };
        const Sync sync = with_index(c, use_cache, board, state, held, [&](const RankIndex& index) {
          if (!index.contains(key)) return false;
          page_around(static_cast<std::int64_t>(index.count_before(key)));
          index.copy_range(static_cast<std::size_t>(first),
                           static_cast<std::size_t>(rank + radius - first), keys);
          return true;
        });
        if (sync == Sync::snapshot_older) return std::nullopt;
        if (auto page = indexed_page(c, cache, sync, board, state, keys, first)) {
          return std::optional<std::optional<LeaderboardPage>>(std::in_place, std::move(page));
        }
        page_around(count_ahead_by_scan(c, board, key));
        return plain_page(c, board, state, rank + radius - first, first);
      });
}

BoardRevision select_board_revision(Connection& c, const BoardKey& board) {
  return read_board_state(c, board);
}

// History rows (history_store.cpp): one place on a board, in the caller's
// read transaction, whose board state is `state`.
std::int64_t count_ranked_before(Connection& c, RankCache* cache, const BoardKey& board,
                                 const BoardRevision& state, const RankKey& key) {
  Held held;
  std::int64_t ahead = 0;
  const Sync sync = with_index(c, cache, board, state, held, [&](const RankIndex& index) {
    ahead = static_cast<std::int64_t>(index.count_before(key));
    return true;
  });
  if (sync == Sync::ok) {
    ++cache->counters().indexed_reads;
    return ahead;
  }
  if (cache) ++cache->counters().plain_reads;
  return count_ahead_by_scan(c, board, key);
}

}  // namespace tilecrush::storage::detail
