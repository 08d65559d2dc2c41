#include "rank_index.hpp"

#include <algorithm>
#include <bit>

namespace tilecrush::storage::detail {

void RankIndex::assign_sorted(const std::vector<RankKey>& keys) {
  blocks_.clear();
  // Blocks start at B keys: room to grow to 2B before the first split.
  for (std::size_t i = 0; i < keys.size(); i += kBlock) {
    const std::size_t end = std::min(keys.size(), i + kBlock);
    blocks_.emplace_back(keys.begin() + static_cast<std::ptrdiff_t>(i),
                         keys.begin() + static_cast<std::ptrdiff_t>(end));
  }
  size_ = keys.size();
  rebuild_fenwick();
}

void RankIndex::clear() {
  blocks_.clear();
  fenwick_.clear();
  size_ = 0;
}

std::size_t RankIndex::block_of(const RankKey& key) const {
  const auto it = std::partition_point(
      blocks_.begin(), blocks_.end(),
      [&](const std::vector<RankKey>& block) { return ranks_before(block.back(), key); });
  return static_cast<std::size_t>(it - blocks_.begin());
}

bool RankIndex::insert(const RankKey& key) {
  if (blocks_.empty()) {
    blocks_.push_back({key});
    size_ = 1;
    rebuild_fenwick();
    return true;
  }
  std::size_t b = block_of(key);
  if (b == blocks_.size()) b = blocks_.size() - 1;  // after every key: the last block
  auto& block = blocks_[b];
  const auto at = std::lower_bound(block.begin(), block.end(), key, ranks_before);
  if (at != block.end() && *at == key) return false;
  block.insert(at, key);
  ++size_;
  if (block.size() > 2 * kBlock) {
    std::vector<RankKey> upper(block.begin() + static_cast<std::ptrdiff_t>(kBlock), block.end());
    block.resize(kBlock);
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(b) + 1, std::move(upper));
    rebuild_fenwick();
  } else {
    fenwick_add(b, 1);
  }
  return true;
}

bool RankIndex::erase(const RankKey& key) {
  const std::size_t b = block_of(key);
  if (b == blocks_.size()) return false;
  auto& block = blocks_[b];
  const auto at = std::lower_bound(block.begin(), block.end(), key, ranks_before);
  if (at == block.end() || !(*at == key)) return false;
  block.erase(at);
  --size_;
  if (block.empty()) {
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(b));
    rebuild_fenwick();
  } else {
    fenwick_add(b, -1);
  }
  return true;
}

std::size_t RankIndex::count_before(const RankKey& key) const {
  const std::size_t b = block_of(key);
  if (b == blocks_.size()) return size_;
  const auto& block = blocks_[b];
  const auto at = std::lower_bound(block.begin(), block.end(), key, ranks_before);
  return keys_before_block(b) + static_cast<std::size_t>(at - block.begin());
}

bool RankIndex::contains(const RankKey& key) const {
  const std::size_t b = block_of(key);
  if (b == blocks_.size()) return false;
  return std::binary_search(blocks_[b].begin(), blocks_[b].end(), key, ranks_before);
}

void RankIndex::copy_range(std::size_t first, std::size_t count, std::vector<RankKey>& out) const {
  if (first >= size_) return;
  count = std::min(count, size_ - first);
  std::size_t offset = 0;
  for (std::size_t b = block_at(first, offset); count > 0 && b < blocks_.size(); ++b, offset = 0) {
    const auto& block = blocks_[b];
    const std::size_t n = std::min(count, block.size() - offset);
    out.insert(out.end(), block.begin() + static_cast<std::ptrdiff_t>(offset),
               block.begin() + static_cast<std::ptrdiff_t>(offset + n));
    count -= n;
  }
}

std::size_t RankIndex::keys_before_block(std::size_t block) const {
  std::size_t sum = 0;
  for (std::size_t i = block; i > 0; i &= i - 1) sum += fenwick_[i];
  return sum;
}

std::size_t RankIndex::block_at(std::size_t pos, std::size_t& offset) const {
  // Descend the Fenwick tree: the largest prefix of blocks holding <= pos keys.
  std::size_t block = 0;
  std::size_t step = std::bit_floor(blocks_.size());
  for (; step > 0; step >>= 1) {
    const std::size_t next = block + step;
    if (next <= blocks_.size() && fenwick_[next] <= pos) {
      block = next;
      pos -= fenwick_[next];
    }
  }
  offset = pos;
  return block;
}

void RankIndex::fenwick_add(std::size_t block, std::ptrdiff_t delta) {
  for (std::size_t i = block + 1; i < fenwick_.size(); i += i & (~i + 1)) {
    fenwick_[i] = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(fenwick_[i]) + delta);
  }
}

void RankIndex::rebuild_fenwick() {
  fenwick_.assign(blocks_.size() + 1, 0);
  for (std::size_t i = 1; i <= blocks_.size(); ++i) {
    fenwick_[i] += blocks_[i - 1].size();
    const std::size_t parent = i + (i & (~i + 1));
    if (parent <= blocks_.size()) fenwick_[parent] += fenwick_[i];
  }
}

}  // namespace tilecrush::storage::detail
