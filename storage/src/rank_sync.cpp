#include "rank_sync.hpp"

#include <string_view>

#include "leaderboard_rows.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

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

// Rows not where the index says: the index is dropped (a fresh load next).
void mismatch(RankCache& cache, const BoardKey& board) {
  ++cache.counters().mismatches;
  cache.forget(board);
}

}  // namespace

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

Held hold_before_snapshot(RankCache* cache, const BoardKey& board) {
  Held held;
  if (cache != nullptr) held.slot = cache->board(board);  // null when the cache is off
  if (held.slot) held.lock = std::unique_lock(held.slot->mutex);
  return held;
}

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

}  // namespace tilecrush::storage::detail
