#include "http/page_cache.hpp"

#include <utility>

namespace tilecrush::server {

std::optional<std::string> PageCache::find(const std::string& key,
                                           const storage::BoardRevision& at) {
  std::lock_guard lock(mutex_);
  const auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  const Page& page = *it->second;
  if (page.at.revision != at.revision || page.at.entries != at.entries) return std::nullopt;
  order_.splice(order_.begin(), order_, it->second);
  return page.body;
}

void PageCache::store(const std::string& key, const storage::BoardRevision& at, std::string body) {
  const std::size_t size = cost(key, body);
  if (size > max_bytes_) return;
  std::lock_guard lock(mutex_);
  if (const auto it = index_.find(key); it != index_.end()) erase(it->second);
  order_.push_front(Page{key, at, std::move(body)});
  index_.emplace(order_.front().key, order_.begin());
  bytes_ += size;
  while (bytes_ > max_bytes_) erase(std::prev(order_.end()));
}

std::size_t PageCache::pages() const {
  std::lock_guard lock(mutex_);
  return order_.size();
}

std::size_t PageCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

void PageCache::erase(Order::iterator page) {
  bytes_ -= cost(page->key, page->body);
  index_.erase(page->key);
  order_.erase(page);
}

std::string PageCache::key_of(std::initializer_list<std::string_view> parts) {
  std::string key;
  for (const std::string_view part : parts) {
    key += std::to_string(part.size());
    key += ':';
    key += part;
  }
  return key;
}

}  // namespace tilecrush::server
