// A board's rank index (rank_cache.hpp) brought to the revision a read
// transaction sees, for the readers of leaderboard_pages.cpp: from the
// change log when it reaches back far enough, else by loading the board's
// keys again; and the read transaction started again when its snapshot is
// older than the index.
//
// Thread safety: an index is used under its Board's mutex (Held); the rest
// runs on the caller's connection.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "connection.hpp"
#include "rank_cache.hpp"
#include "rank_index.hpp"
#include "tilecrush/storage/leaderboard_records.hpp"

namespace tilecrush::storage::detail {

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
                const BoardRevision& state);

// A board's index and its mutex, held by one reader.
struct Held {
  std::shared_ptr<RankCache::Board> slot;
  std::unique_lock<std::mutex> lock;  // declared after slot: released first
};

// The board's index, locked before the caller's read transaction starts:
// whatever revision it holds was committed before, so the transaction's
// snapshot cannot be older than it.
Held hold_before_snapshot(RankCache* cache, const BoardKey& board);

// Calls `use(index)` with the board's rank index at `state`, the revision of
// the caller's read transaction, under the index's mutex. unusable (and no
// call) when there is no cache, the board is empty (anybody can name one)
// or too large for the cache; mismatch when `use` found the index wrong.
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

// A transaction whose snapshot is older than the index is started again,
// with the index locked first (hold_before_snapshot), which cannot fail
// that way; a third try would read by the scan.
inline constexpr int kSnapshotTries = 3;

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
                                            const std::vector<RankKey>& keys, std::int64_t first);

}  // namespace tilecrush::storage::detail
