// Ranks from the rank cache against the plain ordered scan and against an
// order computed here from the documented rules, over random boards with
// ties of every kind; and the order-statistic list on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "rank_cache.hpp"
#include "rank_index.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using detail::RankIndex;
using detail::RankKey;
using detail::ranks_before;

struct Before {
  bool operator()(const RankKey& a, const RankKey& b) const { return ranks_before(a, b); }
};

TEST(RankIndex, AgreesWithAnOrderedSetThroughInsertsAndErases) {
  std::mt19937_64 rng(7);
  RankIndex index;
  std::set<RankKey, Before> model;
  // Few distinct values: every kind of tie; enough keys to split blocks
  // and to empty some again.
  auto random_key = [&] {
    return RankKey{static_cast<std::int64_t>(rng() % 40), static_cast<std::int64_t>(rng() % 5),
                   static_cast<std::int64_t>(rng() % 3), static_cast<std::int64_t>(rng() % 4000)};
  };
  for (int step = 0; step < 60'000; ++step) {
    const RankKey key = random_key();
    // Grow for the first half, then shrink.
    if (rng() % 100 < (step < 30'000 ? 80u : 20u)) {
      EXPECT_EQ(index.insert(key), model.insert(key).second);
    } else {
      EXPECT_EQ(index.erase(key), model.erase(key) == 1);
    }
    ASSERT_EQ(index.size(), model.size());
    if (step % 997 == 0) {
      const std::vector<RankKey> all(model.begin(), model.end());
      std::vector<RankKey> copied;
      index.copy_range(0, all.size() + 5, copied);
      ASSERT_EQ(copied, all) << "step " << step;
      for (int probe = 0; probe < 50; ++probe) {
        const RankKey k = random_key();
        const auto at = model.lower_bound(k);
        EXPECT_EQ(index.count_before(k),
                  static_cast<std::size_t>(std::distance(model.begin(), at)));
        EXPECT_EQ(index.contains(k), model.count(k) == 1);
        const std::size_t first = all.empty() ? 0 : rng() % all.size();
        std::vector<RankKey> window;
        index.copy_range(first, 7, window);
        const std::size_t end = std::min(all.size(), first + 7);
        EXPECT_EQ(window, std::vector<RankKey>(all.begin() + static_cast<std::ptrdiff_t>(first),
                                               all.begin() + static_cast<std::ptrdiff_t>(end)));
      }
    }
  }
  RankIndex loaded;
  loaded.assign_sorted(std::vector<RankKey>(model.begin(), model.end()));
  EXPECT_EQ(loaded.size(), model.size());
  for (int probe = 0; probe < 200; ++probe) {
    const RankKey k = random_key();
    EXPECT_EQ(loaded.count_before(k), index.count_before(k));
  }
}

// One board played at random by `players` players, read through three
// handles on one file: the writer's own (rank cache on), a second handle as
// another node would have (rank cache on, following the writer's commits)
// and a plain one (rank cache off: the ordered scan).
class RankedReads : public ::testing::Test {
 protected:
  RankedReads() : writer_(options_for(dir_.file())), node_(second(true)), plain_(second(false)) {}

  // A rank index never disagreed with the rows (the fallback on the scan
  // would hide it otherwise), and the plain handle never used one.
  void TearDown() override {
    for (Database* db : {&writer_, &node_}) EXPECT_EQ(db->rank_cache_metrics().mismatches, 0u);
    EXPECT_EQ(plain_.rank_cache_metrics().indexed_reads, 0u);
  }

  // Every read of the cached handles went through a rank index.
  void expect_indexed() {
    for (Database* db : {&writer_, &node_}) {
      const RankCacheMetrics m = db->rank_cache_metrics();
      EXPECT_GT(m.indexed_reads, 0u);
      EXPECT_EQ(m.plain_reads, 0u);
    }
  }

  Options second(bool cached) {
    Options o = options_for(dir_.file());
    o.read_only = true;
    o.readers = 1;
    if (!cached) o.rank_cache_keys = 0;
    return o;
  }

  // Best of per player, by the rules: higher score, fewer moves, earlier
  // finish.
  // Players "<prefix>0" .. "<prefix>n-1", registered on the writer.
  std::vector<PlayerId> register_players(const char* prefix, int n) {
    std::vector<PlayerId> ids;
    for (int i = 0; i < n; ++i) {
      const std::string name = numbered(prefix, static_cast<std::uint64_t>(i));
      ids.push_back(make_player(writer_, name));
      names_[ids.back()] = name;
    }
    return ids;
  }

  void play(PlayerId player, std::int64_t score, std::int64_t moves, std::int64_t finished_at) {
    const auto r = play_ranked(writer_, numbered("g", ++games_), player, board_, score, moves, 1000,
                               finished_at);
    ASSERT_TRUE(r.ok()) << r.message;
    const RankKey key{score, moves, finished_at, player};
    auto [it, added] = best_.emplace(player, key);
    if (!added && ranks_before(key, it->second)) it->second = key;
  }

  std::vector<RankKey> model_order() const {
    std::vector<RankKey> order;
    for (const auto& [player, key] : best_) order.push_back(key);
    std::sort(order.begin(), order.end(), ranks_before);
    return order;
  }

  static std::vector<RankKey> keys_of(const LeaderboardPage& page) {
    std::vector<RankKey> keys;
    for (const auto& e : page.entries) {
      keys.push_back({e.score, e.move_count, e.finished_at, e.player_id});
    }
    return keys;
  }

  // Every page and every player's neighbourhood, through all three handles.
  void expect_all_agree() {
    const std::vector<RankKey> order = model_order();
    const auto total = static_cast<std::int64_t>(order.size());
    for (std::int64_t offset = 0; offset <= total; offset += 7) {
      const auto end = std::min<std::int64_t>(total, offset + 7);
      const std::vector<RankKey> expected(order.begin() + offset, order.begin() + end);
      for (Database* db : {&writer_, &node_, &plain_}) {
        const LeaderboardPage page = db->leaderboard(board_, 7, offset);
        ASSERT_EQ(page.total, total);
        ASSERT_EQ(keys_of(page), expected) << "offset " << offset;
        for (std::size_t i = 0; i < page.entries.size(); ++i) {
          ASSERT_EQ(page.entries[i].rank, offset + static_cast<std::int64_t>(i) + 1);
        }
      }
    }
    for (std::int64_t rank = 1; rank <= total; ++rank) {
      const RankKey& key = order[static_cast<std::size_t>(rank - 1)];
      const std::int64_t first = std::max<std::int64_t>(1, rank - 3);
      const std::int64_t last = std::min<std::int64_t>(total, rank + 3);
      const std::vector<RankKey> expected(order.begin() + first - 1, order.begin() + last);
      for (Database* db : {&writer_, &node_, &plain_}) {
        const auto page = db->leaderboard_around(board_, names_.at(key.player_id), 3);
        ASSERT_TRUE(page.has_value());
        ASSERT_EQ(keys_of(*page), expected) << "rank " << rank;
        ASSERT_EQ(page->entries.front().rank, first);
      }
    }
  }

  TempDir dir_;
  Database writer_;
  Database node_;
  Database plain_;
  const BoardKey board_{game::Mode::same, "easy", "ranks", ""};
  std::map<PlayerId, RankKey> best_;
  std::map<PlayerId, std::string> names_;
  int games_ = 0;
};

TEST_F(RankedReads, EveryHandleAgreesWithTheRulesOrderThroughImprovementsAndTies) {
  std::mt19937_64 rng(11);
  const std::vector<PlayerId> players = register_players("p", 60);
  for (int round = 0; round < 8; ++round) {
    for (int game = 0; game < 40; ++game) {
      // Three scores, two move counts, two finishing times: the same score;
      // the same score and tiebreak; all three equal (the player id decides).
      const PlayerId p = players[rng() % players.size()];
      play(p, 100 + 10 * static_cast<std::int64_t>(rng() % 3),
           20 + static_cast<std::int64_t>(rng() % 2), 5000 + static_cast<std::int64_t>(rng() % 2));
    }
    expect_all_agree();
  }
  // The second handle followed the writer's changes from the log, after
  // one load.
  const RankCacheMetrics node = node_.rank_cache_metrics();
  EXPECT_EQ(node.loads, 1u);
  EXPECT_GT(node.changes_applied, 0u);
  expect_indexed();
}

TEST_F(RankedReads, TheNextReadAfterAFinishSeesTheNewRank) {
  const std::vector<PlayerId> players = register_players("q", 30);
  for (int i = 0; i < 30; ++i) play(players[static_cast<std::size_t>(i)], 100 + i, 10, 1000);
  ASSERT_EQ(node_.leaderboard_around(board_, "q0", 0)->entries.front().rank, 30);
  std::int64_t revision = writer_.leaderboard_revision(board_).revision;
  // Each improvement climbs to the top: the very next read of every handle
  // has it there, and the revision has moved on.
  for (int i = 0; i < 30; ++i) {
    play(players[static_cast<std::size_t>(i)], 1000 + i, 10, 2000);
    for (Database* db : {&writer_, &node_, &plain_}) {
      const auto page =
          db->leaderboard_around(board_, numbered("q", static_cast<std::uint64_t>(i)), 0);
      ASSERT_TRUE(page.has_value());
      EXPECT_EQ(page->entries.front().rank, 1) << "after " << i;
      EXPECT_GT(page->revision, revision);
    }
    revision = writer_.leaderboard_revision(board_).revision;
  }
  // A worse result counts an attempt: a new revision, the same order.
  play(players[0], 1, 99, 3000);
  const LeaderboardPage page = node_.leaderboard(board_, 100, 0);
  EXPECT_EQ(page.revision, revision + 1);
  EXPECT_EQ(keys_of(page), model_order());
  EXPECT_EQ(writer_.leaderboard_revision(board_).entries, 30);
  expect_indexed();
}

TEST_F(RankedReads, AnEmptyOrUnknownBoardIsReadWithoutAnIndex) {
  const BoardKey nowhere{game::Mode::same, "easy", "nobody-played-this", ""};
  const LeaderboardPage page = node_.leaderboard(nowhere, 20, 0);
  EXPECT_EQ(page.total, 0);
  EXPECT_EQ(page.revision, 0);
  EXPECT_TRUE(page.entries.empty());
  EXPECT_FALSE(node_.leaderboard_around(nowhere, "anyone", 5).has_value());
  EXPECT_EQ(node_.rank_cache_metrics().indexed_reads, 0u);
  EXPECT_EQ(node_.rank_cache_metrics().plain_reads, 1u);  // around-me of nobody reads nothing
}

TEST_F(RankedReads, PagesReadWhileGamesFinishAreEachOneConsistentSnapshot) {
  const std::vector<PlayerId> players = register_players("c", 40);
  std::atomic<bool> done{false};
  std::atomic<int> pages{0};
  // Two readers per handle: every page they see is in the rules' order, its
  // ranks follow on from its offset, and its total never goes down.
  auto reader = [&](Database* db, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::int64_t last_total = 0;
    std::int64_t last_revision = 0;
    while (!done.load()) {
      const std::int64_t offset = static_cast<std::int64_t>(rng() % 45);
      const LeaderboardPage page = db->leaderboard(board_, 10, offset);
      EXPECT_GE(page.total, last_total);
      EXPECT_GE(page.revision, last_revision);
      last_total = page.total;
      last_revision = page.revision;
      const std::vector<RankKey> keys = keys_of(page);
      EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end(), ranks_before));
      for (std::size_t i = 0; i < page.entries.size(); ++i) {
        EXPECT_EQ(page.entries[i].rank, offset + static_cast<std::int64_t>(i) + 1);
      }
      EXPECT_EQ(static_cast<std::int64_t>(page.entries.size()),
                std::clamp<std::int64_t>(page.total - offset, 0, 10));
      const auto around = db->leaderboard_around(
          board_, numbered("c", static_cast<std::uint64_t>(rng() % players.size())), 2);
      if (around) {
        const std::vector<RankKey> near = keys_of(*around);
        EXPECT_TRUE(std::is_sorted(near.begin(), near.end(), ranks_before));
      }
      ++pages;
    }
  };
  play(players[0], 100, 20, 5000);  // not empty: every read has an index to use
  std::vector<std::thread> readers;
  for (std::uint64_t i = 0; i < 2; ++i) {
    readers.emplace_back(reader, &writer_, i);
    readers.emplace_back(reader, &node_, 10 + i);
  }
  std::mt19937_64 rng(5);
  for (int game = 0; game < 300; ++game) {
    play(players[rng() % players.size()], 100 + 10 * static_cast<std::int64_t>(rng() % 4),
         20 + static_cast<std::int64_t>(rng() % 3), 5000 + static_cast<std::int64_t>(rng() % 3));
  }
  done = true;
  for (auto& t : readers) t.join();
  EXPECT_GT(pages.load(), 0);
  expect_all_agree();
  expect_indexed();
}

// Players "<player_prefix>0" .. n-1 each finish one ranked game on `board`
// ("<game_prefix>i"), player i scoring 10 * i.
void each_plays_once(Database& db, const BoardKey& board, int n, const char* player_prefix,
                     const char* game_prefix) {
  for (int i = 0; i < n; ++i) {
    const auto index = static_cast<std::uint64_t>(i);
    const PlayerId p = make_player(db, numbered(player_prefix, index));
    ASSERT_TRUE(play_ranked(db, numbered(game_prefix, index), p, board, 10 * i, 5, 1000, 100).ok());
  }
}

TEST(RankCacheBudget, ABoardOverTheBudgetIsReadByThePlainScan) {
  TempDir dir;
  Options options = options_for(dir.file());
  options.rank_cache_keys = 5;
  Database db(options);
  const BoardKey board{game::Mode::same, "easy", "budget", ""};
  ASSERT_NO_FATAL_FAILURE(each_plays_once(db, board, 8, "b", "g"));
  const LeaderboardPage page = db.leaderboard(board, 3, 2);
  ASSERT_EQ(page.entries.size(), 3u);
  EXPECT_EQ(page.entries[0].score, 50);
  EXPECT_EQ(page.entries[0].rank, 3);
  EXPECT_EQ(db.leaderboard_around(board, "b0", 1)->entries.front().rank, 7);
}

// Anybody can make a board (a game on a seed of their own): reading the
// leaderboards of more boards than the cache holds slots for, one game
// each, leaves at most kMaxBoards slots, while a board read among them
// still is read through its index, with its keys counted.
TEST(RankCacheBudget, ManySmallBoardsHoldAtMostTheCapOfSlots) {
  TempDir dir;
  Database db(options_for(dir.file()));
  constexpr std::size_t kCap = detail::RankCache::kMaxBoards;
  const PlayerId player = make_player(db, "maker");
  auto board = [](std::size_t i) {
    return BoardKey{game::Mode::same, "easy", numbered("own-", i), ""};
  };
  for (std::size_t i = 0; i < kCap + 300; ++i) {
    ASSERT_TRUE(play_ranked(db, numbered("g", i), player, board(i), 10, 5, 1000, 100).ok());
  }
  const BoardKey played{game::Mode::same, "easy", "played", ""};
  ASSERT_NO_FATAL_FAILURE(each_plays_once(db, played, 3, "p", "h"));
  db.flush();
  std::uint64_t most = 0;
  for (std::size_t i = 0; i < kCap + 300; ++i) {
    ASSERT_EQ(db.leaderboard(board(i), 5, 0).total, 1);
    if (i % 512 == 0) {
      ASSERT_EQ(db.leaderboard(played, 5, 0).total, 3);
    }
    most = std::max(most, db.rank_cache_metrics().boards);
  }
  EXPECT_EQ(most, kCap);
  EXPECT_EQ(db.leaderboard(played, 5, 0).entries.front().score, 20);
  const RankCacheMetrics m = db.rank_cache_metrics();
  EXPECT_EQ(m.boards, kCap);
  EXPECT_EQ(m.keys, kCap - 1 + 3);  // one key each, and the played board's three
  EXPECT_GT(m.indexed_reads, kCap);
  EXPECT_EQ(m.mismatches, 0u);
}

}  // namespace
}  // namespace tilecrush::storage::testing
