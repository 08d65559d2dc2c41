// Rendered leaderboard pages, each with the board revision it was read at,
// so that a repeat read of an unchanged board costs one revision lookup
// instead of a page read and a JSON rendering. A page kept at another
// revision is never served: the cache adds no staleness.
//
// Bounded by the bytes of the pages it keeps, each counted as its key, its
// body and kPageOverhead for the bookkeeping around them (least recently
// used first out), whatever keys the requests make up: at most max_bytes /
// kPageOverhead pages, however small.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tilecrush/storage/records.hpp"

namespace tilecrush::server {

class PageCache {
 public:
  // What a page costs besides its key and body: a list node, an index
  // node and the Page's own fields.
  static constexpr std::size_t kPageOverhead = 160;

  explicit PageCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // The body kept under `key` if it was rendered at `at` exactly.
  std::optional<std::string> find(const std::string& key, const storage::BoardRevision& at);
  // Keeps `body` under `key` (replacing what was there).
  void store(const std::string& key, const storage::BoardRevision& at, std::string body);

  // A key made of `parts`, each length-prefixed so that no part's
  // characters can make two requests' keys equal.
  static std::string key_of(std::initializer_list<std::string_view> parts);

  // What it holds now (the gauges of /metrics): pages, and their bytes as
  // counted against the budget.
  std::size_t pages() const;
  std::size_t bytes() const;

 private:
  struct Page {
    std::string key;
    storage::BoardRevision at;
    std::string body;
  };
  using Order = std::list<Page>;  // most recently used first

  void erase(Order::iterator page);
  static std::size_t cost(const std::string& key, const std::string& body) {
    return key.size() + body.size() + kPageOverhead;
  }

  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  Order order_;
  std::unordered_map<std::string_view, Order::iterator> index_;  // views of Page::key
  std::size_t bytes_ = 0;
};

}  // namespace tilecrush::server
