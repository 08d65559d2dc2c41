// The rank indexes of the boards read lately, each at a known board
// revision, within a budget of keys held in memory.
//
// A board's index is a copy of its leaderboard order as of one committed
// revision (leaderboard_boards.revision). A reader compares it with the
// revision its own read transaction sees and brings it forward from
// leaderboard_changes (or reloads it) before using it, so what it answers is
// exactly its snapshot: no staleness, on one node or several sharing one
// database (leaderboard_store.cpp).
//
// Thread safety: board() and note_size() may be called from any thread.
// Each Board's fields are guarded by its own mutex. Lock order: a Board's
// mutex, then the cache's; never the other way round.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "rank_index.hpp"
#include "tilecrush/storage/leaderboard_records.hpp"

namespace tilecrush::storage::detail {

class RankCache {
 public:
  struct Board {
    std::mutex mutex;
    RankIndex index;
    // The revision the index holds; -1 while it holds nothing valid.
    std::int64_t revision = -1;
  };

  // Boards with a slot at most: anybody can make a board (a game on a seed
  // of their own), and a slot costs a few hundred bytes besides its keys,
  // so the slots are bounded by count as well as by keys; past it the
  // least recently used goes.
  static constexpr std::size_t kMaxBoards = 4096;

  // `max_keys` 0 turns the cache off.
  explicit RankCache(std::size_t max_keys) : max_keys_(max_keys) {}

  // The board's slot (empty, revision -1, when new); null when the cache is
  // off. A slot stays valid while held, even once evicted.
  std::shared_ptr<Board> board(const BoardKey& key);
  // Records the slot's size after a load or an update (call with the
  // Board's mutex held) and evicts the boards least recently used while the
  // total is over budget. False when the board alone is over budget: it is
  // dropped, and the caller must not keep it.
  bool note_size(const BoardKey& key, std::size_t keys);

  // Drops the board's slot (a holder may finish with it): the next reader
  // starts from a fresh load.
  void forget(const BoardKey& key);

  std::size_t max_keys() const { return max_keys_; }

  // Counters, incremented by the readers (leaderboard_pages.cpp).
  struct Counters {
    std::atomic<std::uint64_t> indexed_reads{0};
    std::atomic<std::uint64_t> plain_reads{0};
    std::atomic<std::uint64_t> loads{0};
    std::atomic<std::uint64_t> changes_applied{0};
    std::atomic<std::uint64_t> mismatches{0};
  };
  Counters& counters() { return counters_; }
  RankCacheMetrics metrics() const;

 private:
  using Name = std::tuple<std::string, int, std::string, std::string>;
  static Name name_of(const BoardKey& key);
  // Drops the least recently used board other than `keep` (mutex_ held).
  void evict_oldest(const Name& keep);

  struct Entry {
    std::shared_ptr<Board> board;
    std::size_t keys = 0;
    std::uint64_t used = 0;
  };

  const std::size_t max_keys_;
  Counters counters_;
  mutable std::mutex mutex_;
  std::map<Name, Entry> boards_;
  std::size_t total_keys_ = 0;
  std::uint64_t clock_ = 0;
};

}  // namespace tilecrush::storage::detail
