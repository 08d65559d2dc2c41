#include "rank_cache.hpp"

#include <utility>

namespace tilecrush::storage::detail {

RankCache::Name RankCache::name_of(const BoardKey& key) {
  return {key.scope, static_cast<int>(key.mode), key.preset, key.seed};
}

std::shared_ptr<RankCache::Board> RankCache::board(const BoardKey& key) {
  if (max_keys_ == 0) return nullptr;
  std::lock_guard lock(mutex_);
  Name name = name_of(key);
  Entry& entry = boards_[name];
  if (!entry.board) {
    entry.board = std::make_shared<Board>();
    if (boards_.size() > kMaxBoards) evict_oldest(name);
  }
  entry.used = ++clock_;
  return entry.board;
}

void RankCache::evict_oldest(const Name& keep) {
  auto oldest = boards_.end();
  for (auto i = boards_.begin(); i != boards_.end(); ++i) {
    if (i->first == keep) continue;
    if (oldest == boards_.end() || i->second.used < oldest->second.used) oldest = i;
  }
  if (oldest == boards_.end()) return;
  total_keys_ -= oldest->second.keys;
  boards_.erase(oldest);
}

RankCacheMetrics RankCache::metrics() const {
  RankCacheMetrics m{counters_.indexed_reads.load(), counters_.plain_reads.load(),
                     counters_.loads.load(), counters_.changes_applied.load(),
                     counters_.mismatches.load()};
  std::lock_guard lock(mutex_);
  m.boards = boards_.size();
  m.keys = total_keys_;
  return m;
}

void RankCache::forget(const BoardKey& key) {
  std::lock_guard lock(mutex_);
  const auto it = boards_.find(name_of(key));
  if (it == boards_.end()) return;
  total_keys_ -= it->second.keys;
  boards_.erase(it);
}

bool RankCache::note_size(const BoardKey& key, std::size_t keys) {
  std::lock_guard lock(mutex_);
  const auto it = boards_.find(name_of(key));
  if (it == boards_.end()) return keys <= max_keys_;  // evicted meanwhile
  total_keys_ = total_keys_ - it->second.keys + keys;
  it->second.keys = keys;
  it->second.used = ++clock_;
  if (keys > max_keys_) {
    total_keys_ -= keys;
    boards_.erase(it);
    return false;
  }
  while (total_keys_ > max_keys_) {
    auto oldest = boards_.begin();
    for (auto i = boards_.begin(); i != boards_.end(); ++i) {
      if (i->second.used < oldest->second.used) oldest = i;
    }
    if (oldest == it) break;  // only this board is left over budget
    total_keys_ -= oldest->second.keys;
    boards_.erase(oldest);
  }
  return true;
}

}  // namespace tilecrush::storage::detail
