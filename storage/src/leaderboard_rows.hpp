// A board's rows read by SQL, in the caller's read transaction: its state,
// a page by the plain ordered scan of index leaderboard_order (O(offset),
// the reference the rank index is tested against), the rows of the keys a
// rank index gave (rank_sync.hpp), and the count of entries ahead of a key.
//
// Thread safety: none; on the caller's connection.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "connection.hpp"
#include "rank_index.hpp"
#include "tilecrush/storage/leaderboard_records.hpp"

namespace tilecrush::storage::detail {

// The board's entries and revision (both 0 for a board without entries).
BoardRevision read_board_state(Connection& c, const BoardKey& board);

// Reads a page by the plain ordered scan, inside the caller's transaction.
LeaderboardPage plain_page(Connection& c, const BoardKey& board, const BoardRevision& state,
                           std::int64_t limit, std::int64_t offset);

// The rows of `keys` (positions offset+1...), or nullopt when a row is not
// where the index says: the index is then wrong and must be reloaded.
std::optional<LeaderboardPage> page_of_keys(Connection& c, const BoardKey& board,
                                            const BoardRevision& state,
                                            const std::vector<RankKey>& keys, std::int64_t offset);

// How many entries of `board` rank ahead of `key`, by the plain count.
std::int64_t count_ahead_by_scan(Connection& c, const BoardKey& board, const RankKey& key);

}  // namespace tilecrush::storage::detail
