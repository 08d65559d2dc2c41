// An order-statistic list of leaderboard keys: rank of a key, key at a rank
// and insert/erase, each in O(log n + B) for blocks of at most 2B keys.
//
// Keys sit in sorted blocks (contiguous, 32 bytes a key, so a million keys
// take about 40 MiB); a Fenwick tree over the block sizes turns a block
// index into the number of keys before it and back. A block that grows past
// 2B splits in two and an empty one goes away; both rebuild the Fenwick
// tree, O(n / B), which happens once per B inserts at most.
//
// Thread safety: none; RankCache guards each board's index with a mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilecrush::storage::detail {

// A leaderboard entry's place in the documented order: higher score, then
// lower tiebreak, then earlier finish, then lower player id (which makes
// every key distinct).
struct RankKey {
  std::int64_t score = 0;
  std::int64_t tiebreak = 0;
  std::int64_t finished_at = 0;
  std::int64_t player_id = 0;

  friend bool operator==(const RankKey&, const RankKey&) = default;
};

// True when `a` ranks above `b`.
inline bool ranks_before(const RankKey& a, const RankKey& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.tiebreak != b.tiebreak) return a.tiebreak < b.tiebreak;
  if (a.finished_at != b.finished_at) return a.finished_at < b.finished_at;
  return a.player_id < b.player_id;
}

class RankIndex {
 public:
  static constexpr std::size_t kBlock = 512;

  // Replaces the contents with `keys`, which must be in rank order.
  void assign_sorted(const std::vector<RankKey>& keys);
  void clear();

  // False when the key is there already (nothing changes).
  bool insert(const RankKey& key);
  // False when the key is not there.
  bool erase(const RankKey& key);

  // Keys that rank above `key` (its 0-based position when present).
  std::size_t count_before(const RankKey& key) const;
  bool contains(const RankKey& key) const;
  // Appends the keys at positions [first, first + count) (clipped to size).
  void copy_range(std::size_t first, std::size_t count, std::vector<RankKey>& out) const;

  std::size_t size() const { return size_; }

 private:
  // The first block whose last key does not rank above `key` (blocks_.size()
  // when every key ranks above it).
  std::size_t block_of(const RankKey& key) const;
  // Keys in blocks [0, block).
  std::size_t keys_before_block(std::size_t block) const;
  // The block holding position `pos` (< size_), and pos's offset in it.
  std::size_t block_at(std::size_t pos, std::size_t& offset) const;
  void fenwick_add(std::size_t block, std::ptrdiff_t delta);
  void rebuild_fenwick();

  std::vector<std::vector<RankKey>> blocks_;
  std::vector<std::size_t> fenwick_;  // 1-based over blocks_' sizes
  std::size_t size_ = 0;
};

}  // namespace tilecrush::storage::detail
