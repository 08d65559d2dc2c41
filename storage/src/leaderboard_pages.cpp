// Reading leaderboard pages: through a board's rank index when the cache
// holds it (O(log n) whatever the offset), else by the plain ordered scan
// of index leaderboard_order (O(offset)), which also serves as the reference
// the rank index is tested against.
#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codec.hpp"
#include "rank_cache.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kSelectBoardState =
    "SELECT entries, revision FROM leaderboard_boards WHERE scope = ?11 AND mode = ?1 AND "
    "preset = ?2 AND seed = ?3";

// The page's keys come from index leaderboard_order alone, in its own order
// (no sort), so the rows skipped by OFFSET cost one index entry each; only
// the page's rows are then looked up in leaderboard and players by primary
// key. The join may return them in any order: read_rows() sorts them.
constexpr std::string_view kSelectPage = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM (SELECT player_id FROM leaderboard
      WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
      ORDER BY score DESC, tiebreak ASC, finished_at ASC, player_id ASC
      LIMIT ?4 OFFSET ?5) AS page
CROSS JOIN leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3
     AND l.player_id = page.player_id
CROSS JOIN players AS p ON p.id = l.player_id
)sql";
// PostgreSQL: the same with plain joins (its CROSS JOIN takes no ON, and it
// orders joins itself: leaderboard_order for the page, then primary keys).
constexpr std::string_view kSelectPagePg = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM (SELECT player_id FROM leaderboard
      WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
      ORDER BY score DESC, tiebreak ASC, finished_at ASC, player_id ASC
      LIMIT ?4 OFFSET ?5) AS page
JOIN leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3
     AND l.player_id = page.player_id
JOIN players AS p ON p.id = l.player_id
)sql";

// One entry by primary key, for a page whose keys came from a rank index.
constexpr std::string_view kSelectEntry = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM leaderboard AS l CROSS JOIN players AS p ON p.id = l.player_id
WHERE l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3 AND l.player_id = ?4
)sql";

// PostgreSQL: a whole page's entries in one statement (?4 the players' ids
// as an array literal, "{7,3,12}"), so a page costs one round trip to the
// server rather than one per entry; the rows come in any order.
constexpr std::string_view kSelectEntriesPg = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM leaderboard AS l JOIN players AS p ON p.id = l.player_id
WHERE l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3
  AND l.player_id = ANY(?4::bigint[])
)sql";

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

// Entries ahead of (?4 score, ?5 tiebreak, ?6 finished_at, ?7 player_id).
// `score >= ?4` bounds the index range to the entries that can be ahead.
constexpr std::string_view kCountAhead = R"sql(
SELECT count(*) FROM leaderboard
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND score >= ?4
  AND (score > ?4 OR (score = ?4 AND (tiebreak < ?5 OR (tiebreak = ?5 AND
       (finished_at < ?6 OR (finished_at = ?6 AND player_id < ?7))))))
)sql";

// A whole board's keys in order, from index leaderboard_order alone.
constexpr std::string_view kSelectKeys = R"sql(
SELECT score, tiebreak, finished_at, player_id FROM leaderboard
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
ORDER BY score DESC, tiebreak ASC, finished_at ASC, player_id ASC
)sql";

// The changes after revision ?4 up to ?5, oldest first (primary key range).
constexpr std::string_view kSelectChanges = R"sql(
SELECT player_id, old_score, old_tiebreak, old_finished_at, new_score, new_tiebreak,
       new_finished_at
FROM leaderboard_changes
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND revision > ?4 AND revision <= ?5
ORDER BY revision
)sql";

LeaderboardEntry read_entry(const Statement& q, std::int64_t& tiebreak) {
  LeaderboardEntry e;
  e.player_id = q.get_int(0);
  e.player = q.get_text(1);
  e.score = q.get_int(2);
  e.move_count = q.get_int(3);
  e.duration_ms = q.get_int(4);
  e.attempts = q.get_int(5);
  e.game_id = q.get_text(6);
  e.finished_at = q.get_int(7);
  tiebreak = q.get_int(8);
  return e;
}

RankKey key_of(const LeaderboardEntry& e, std::int64_t tiebreak) {
  return {e.score, tiebreak, e.finished_at, e.player_id};
}

// Reads a page by the plain ordered scan, inside the caller's transaction.
LeaderboardPage plain_page(Connection& c, const BoardKey& board, const BoardRevision& state,
                           std::int64_t limit, std::int64_t offset) {
  LeaderboardPage page;
  page.total = state.entries;
  page.revision = state.revision;
  auto q = c.query(c.postgres() ? kSelectPagePg : kSelectPage);
  bind_board(*q, board);
  q->bind(4, limit);
  q->bind(5, offset);
  std::vector<std::pair<RankKey, LeaderboardEntry>> rows;
  while (q->step()) {
    std::int64_t tiebreak = 0;
    LeaderboardEntry e = read_entry(*q, tiebreak);
    rows.emplace_back(key_of(e, tiebreak), std::move(e));
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return ranks_before(a.first, b.first); });
  std::int64_t rank = offset;
  page.entries.reserve(rows.size());
  for (auto& row : rows) {
    row.second.rank = ++rank;
    page.entries.push_back(std::move(row.second));
  }
  return page;
}

// page_of_keys on PostgreSQL: the rows in one statement, put back in the
// order of `keys` (which holds each player once).
std::optional<LeaderboardPage> page_of_keys_pg(Connection& c, const BoardKey& board,
                                               LeaderboardPage page,
                                               const std::vector<RankKey>& keys,
                                               std::int64_t offset) {
  if (keys.empty()) return page;
  std::string ids = "{";
  for (const RankKey& key : keys) {
    if (ids.size() > 1) ids += ',';
    ids += std::to_string(key.player_id);
  }
  ids += '}';
  auto q = c.query(kSelectEntriesPg);
  bind_board(*q, board);
  q->bind(4, ids);
  std::vector<std::pair<LeaderboardEntry, std::int64_t>> rows;  // entry, tiebreak
  rows.reserve(keys.size());
  while (q->step()) {
    std::int64_t tiebreak = 0;
    LeaderboardEntry e = read_entry(*q, tiebreak);
    rows.emplace_back(std::move(e), tiebreak);
  }
  if (rows.size() != keys.size()) return std::nullopt;
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return ranks_before(key_of(a.first, a.second), key_of(b.first, b.second));
  });
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!(key_of(rows[i].first, rows[i].second) == keys[i])) return std::nullopt;
    rows[i].first.rank = offset + static_cast<std::int64_t>(i) + 1;
    page.entries.push_back(std::move(rows[i].first));
  }
  return page;
}

// The rows of `keys` (positions offset+1...), or nullopt when a row is not
// where the index says: the index is then wrong and must be reloaded.
std::optional<LeaderboardPage> page_of_keys(Connection& c, const BoardKey& board,
                                            const BoardRevision& state,
                                            const std::vector<RankKey>& keys, std::int64_t offset) {
  LeaderboardPage page;
  page.total = state.entries;
  page.revision = state.revision;
  page.entries.reserve(keys.size());
  if (c.postgres()) return page_of_keys_pg(c, board, std::move(page), keys, offset);
  auto q = c.query(kSelectEntry);
  for (const RankKey& key : keys) {
    q->reset();
    bind_board(*q, board);
    q->bind(4, key.player_id);
    if (!q->step()) return std::nullopt;
    std::int64_t tiebreak = 0;
    LeaderboardEntry e = read_entry(*q, tiebreak);
    if (!(key_of(e, tiebreak) == key)) return std::nullopt;
    e.rank = offset + static_cast<std::int64_t>(page.entries.size()) + 1;
    page.entries.push_back(std::move(e));
  }
  return page;
}

void load_keys(Connection& c, RankCache& cache, const BoardKey& board, RankIndex& index) {
  ++cache.counters().loads;
  std::vector<RankKey> keys;
  auto q = c.query(kSelectKeys);
  bind_board(*q, board);
  while (q->step()) keys.push_back({q->get_int(0), q->get_int(1), q->get_int(2), q->get_int(3)});
  index.assign_sorted(keys);
}

// Applies the logged changes after the index's revision; false when one
// does not fit (an old place missing), so the index must be reloaded.
bool apply_changes(Connection& c, RankCache& cache, const BoardKey& board, RankCache::Board& slot,
                   std::int64_t revision) {
  auto q = c.query(kSelectChanges);
  bind_board(*q, board);
  q->bind(4, slot.revision);
  q->bind(5, revision);
  while (q->step()) {
    const std::int64_t player = q->get_int(0);
    if (!q->is_null(1) &&
        !slot.index.erase({q->get_int(1), q->get_int(2), q->get_int(3), player})) {
      return false;
    }
    if (!q->is_null(4) &&
        !slot.index.insert({q->get_int(4), q->get_int(5), q->get_int(6), player})) {
      return false;
    }
    ++cache.counters().changes_applied;
  }
  return true;
}

enum class Sync : std::uint8_t {
  ok,              // the index holds exactly the transaction's revision
  snapshot_older,  // the index is newer than this transaction: start again
  unusable,        // no index for this board: read the plain way
  mismatch,        // the index disagreed with the rows: read the plain way
};

// Brings `slot` (its mutex held) to `state`, the revision the caller's read
// transaction sees: from the change log when it reaches back far enough,
// else by loading the board's keys again.
Sync sync_index(Connection& c, RankCache& cache, const BoardKey& board, RankCache::Board& slot,
                const BoardRevision& state) {
  if (slot.revision > state.revision) return Sync::snapshot_older;
  if (slot.revision == state.revision) return Sync::ok;
  const bool in_window = slot.revision >= 0 && state.revision - slot.revision <= kChangeWindow;
  if (!in_window || !apply_changes(c, cache, board, slot, state.revision) ||
      slot.index.size() != static_cast<std::size_t>(state.entries)) {
    load_keys(c, cache, board, slot.index);
  }
  slot.revision = state.revision;
  if (slot.index.size() != static_cast<std::size_t>(state.entries) ||
      !cache.note_size(board, slot.index.size())) {
    slot.revision = -1;
    slot.index.clear();
    return Sync::unusable;
  }
  return Sync::ok;
}

BoardRevision read_state(Connection& c, const BoardKey& board) {
  auto q = c.query(kSelectBoardState);
  bind_board(*q, board);
  if (!q->step()) return {};
  return {q->get_int(0), q->get_int(1)};
}

// Calls `use(index)` with the board's rank index at `state`, the revision of
// the caller's read transaction, under the index's mutex. unusable (and no
// call) when there is no cache, the board is empty (anybody can name one)
// or too large for the cache; mismatch when `use` found the index wrong.
// A board's index and its mutex, held by one reader.
struct Held {
  std::shared_ptr<RankCache::Board> slot;
  std::unique_lock<std::mutex> lock;  // declared after slot: released first
};

// The board's index, locked before the caller's read transaction starts:
// whatever revision it holds was committed before, so the transaction's
// snapshot cannot be older than it.
Held hold_before_snapshot(RankCache* cache, const BoardKey& board) {
  Held held;
  if (cache != nullptr) held.slot = cache->board(board);  // null when the cache is off
  if (held.slot) held.lock = std::unique_lock(held.slot->mutex);
  return held;
}

template <class F>
Sync with_index(Connection& c, RankCache* cache, const BoardKey& board, const BoardRevision& state,
                Held& held, F&& use) {
  if (cache == nullptr || state.entries == 0) return Sync::unusable;
  if (!held.slot) {
    held.slot = cache->board(board);
    if (!held.slot) return Sync::unusable;  // the cache is off
    held.lock = std::unique_lock(held.slot->mutex);
  }
  RankCache::Board& slot = *held.slot;
  Sync sync = sync_index(c, *cache, board, slot, state);
  if (sync == Sync::ok && !use(std::as_const(slot.index))) {
    slot.revision = -1;  // reloaded by the next reader
    ++cache->counters().mismatches;
    sync = Sync::mismatch;
  }
  held.lock.unlock();  // the rows are read without it
  return sync;
}

// Rows not where the index says: the index is dropped (a fresh load next).
void mismatch(RankCache& cache, const BoardKey& board) {
  ++cache.counters().mismatches;
  cache.forget(board);
}

// A transaction whose snapshot is older than the index is started again,
// with the index locked first (hold_before_snapshot), which cannot fail
// that way; a third try would read by the scan.
constexpr int kSnapshotTries = 3;

// How many entries of `board` rank ahead of `key`, by the plain count.
std::int64_t count_ahead_by_scan(Connection& c, const BoardKey& board, const RankKey& key) {
  auto q = c.query(kCountAhead);
  bind_board(*q, board);
  q->bind(4, key.score);
  q->bind(5, key.tiebreak);
  q->bind(6, key.finished_at);
  q->bind(7, key.player_id);
  return q->step() ? q->get_int(0) : 0;
}

// Runs `read(use_cache, held)` in a read transaction until it answers:
// nullopt from it means the snapshot was older than the index (try again,
// the index held first, the cache left out on the last try).
template <typename Read>
auto with_snapshot_retry(Connection& c, RankCache* cache, const BoardKey& board, Read read) {
  for (int attempt = 1;; ++attempt) {
    RankCache* const use_cache = attempt < kSnapshotTries ? cache : nullptr;
    Held held = attempt > 1 ? hold_before_snapshot(use_cache, board) : Held{};
    ReadTransaction snapshot(c);
    if (auto result = read(use_cache, held)) return std::move(*result);
  }
}

// After with_index: the page of `keys` (the first at 0-based `first`) when
// the index served it and the rows agree with it; nullopt (counted as a
// plain read) when the rows must be read by the scan.
std::optional<LeaderboardPage> indexed_page(Connection& c, RankCache* cache, Sync sync,
                                            const BoardKey& board, const BoardRevision& state,
                                            const std::vector<RankKey>& keys, std::int64_t first) {
  if (sync == Sync::ok) {
    if (auto page = page_of_keys(c, board, state, keys, first)) {
      ++cache->counters().indexed_reads;
      return page;
    }
    mismatch(*cache, board);
  }
  if (cache) ++cache->counters().plain_reads;
  return std::nullopt;
}

}  // namespace

LeaderboardPage select_leaderboard(Connection& c, RankCache* cache, const BoardKey& board,
                                   std::int64_t limit, std::int64_t offset) {
  limit = std::max<std::int64_t>(limit, 0);
  offset = std::max<std::int64_t>(offset, 0);
  return with_snapshot_retry(
      c, cache, board, [&](RankCache* use_cache, Held& held) -> std::optional<LeaderboardPage> {
        const BoardRevision state = read_state(c, board);
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
        const BoardRevision state = read_state(c, board);
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
  return read_state(c, board);
}

std::string explain_leaderboard(Connection& c) {
  return query_plan(c, c.postgres() ? kSelectPagePg : kSelectPage);
}

std::string explain_leaderboard_rank(Connection& c) {
  return query_plan(c, kCountAhead);
}

}  // namespace tilecrush::storage::detail

namespace tilecrush::storage::detail {

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
