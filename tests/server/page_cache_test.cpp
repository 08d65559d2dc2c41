// The rendered-page cache behind leaderboard pages: a page is served only at
// the revision it was read at, and the cache keeps to its byte budget.
#include "http/page_cache.hpp"

#include <gtest/gtest.h>

namespace tilecrush::server {
namespace {

TEST(PageCache, ServesAPageOnlyAtTheRevisionItWasReadAt) {
  PageCache cache(1 << 20);
  const std::string key = PageCache::key_of({"page", "", "same", "easy", "s", "20", "0"});
  EXPECT_FALSE(cache.find(key, {3, 7}).has_value());
  cache.store(key, {3, 7}, "body-7");
  EXPECT_EQ(cache.find(key, {3, 7}), "body-7");
  EXPECT_FALSE(cache.find(key, {3, 8}).has_value());  // a later revision
  EXPECT_FALSE(cache.find(key, {4, 7}).has_value());  // other entries, same revision
  cache.store(key, {3, 8}, "body-8");
  EXPECT_EQ(cache.find(key, {3, 8}), "body-8");
  EXPECT_FALSE(cache.find(key, {3, 7}).has_value());
}

TEST(PageCache, KeysOfDifferentPartsNeverCollide) {
  EXPECT_NE(PageCache::key_of({"a|b", "c"}), PageCache::key_of({"a", "b|c"}));
  EXPECT_NE(PageCache::key_of({"ab", ""}), PageCache::key_of({"a", "b"}));
  EXPECT_NE(PageCache::key_of({"1:a"}), PageCache::key_of({"1", "a"}));
}

TEST(PageCache, KeepsToItsBudgetDroppingTheLeastRecentlyUsed) {
  constexpr std::size_t kPage = 31 + PageCache::kPageOverhead;  // key "a", 30-byte body
  PageCache cache(3 * kPage + 10);
  const std::string body(30, 'x');
  cache.store("a", {1, 1}, body);
  cache.store("b", {1, 1}, body);
  cache.store("c", {1, 1}, body);
  EXPECT_EQ(cache.pages(), 3u);
  EXPECT_EQ(cache.bytes(), 3 * kPage);
  EXPECT_TRUE(cache.find("a", {1, 1}).has_value());  // a is now the most recent
  cache.store("d", {1, 1}, body);                    // 4 pages > budget: b goes
  EXPECT_EQ(cache.pages(), 3u);
  EXPECT_TRUE(cache.find("a", {1, 1}).has_value());
  EXPECT_FALSE(cache.find("b", {1, 1}).has_value());
  EXPECT_TRUE(cache.find("c", {1, 1}).has_value());
  EXPECT_TRUE(cache.find("d", {1, 1}).has_value());
  cache.store("huge", {1, 1}, std::string(4 * kPage, 'y'));  // larger than the budget: not kept
  EXPECT_FALSE(cache.find("huge", {1, 1}).has_value());
  EXPECT_TRUE(cache.find("d", {1, 1}).has_value());
}

// Made-up keys with empty bodies cannot hold more pages than the budget
// pays for: each costs its bookkeeping too.
TEST(PageCache, TinyPagesAreCountedWithTheirBookkeeping) {
  constexpr std::size_t kBudget = 64 * 1024;
  PageCache cache(kBudget);
  for (int i = 0; i < 10'000; ++i) cache.store(std::to_string(i), {1, 1}, "");
  EXPECT_LE(cache.bytes(), kBudget);
  EXPECT_LE(cache.pages(), kBudget / PageCache::kPageOverhead);
  EXPECT_GT(cache.pages(), kBudget / (PageCache::kPageOverhead + 8));
  EXPECT_TRUE(cache.find("9999", {1, 1}).has_value());
  EXPECT_FALSE(cache.find("0", {1, 1}).has_value());
}

}  // namespace
}  // namespace tilecrush::server
