// Leaderboards, bests and games_played: what counts, best-of, order, paging.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;

class Leaderboards : public ::testing::Test {
 protected:
  Leaderboards() : db_(options_for(dir_.file())) {}

  // A ranked finished game with a fresh id.
  void play(PlayerId p, const BoardKey& board, std::int64_t score, std::int64_t moves,
            std::int64_t duration, std::int64_t finished_at) {
    const WriteResult r =
        play_ranked(db_, numbered("g", ++games_), p, board, score, moves, duration, finished_at);
    ASSERT_TRUE(r.ok()) << r.message;
  }

  std::vector<std::string> names(const LeaderboardPage& page) {
    std::vector<std::string> out;
    for (const auto& e : page.entries) out.push_back(e.player);
    return out;
  }

  std::vector<std::int64_t> ranks(const LeaderboardPage& page) {
    std::vector<std::int64_t> out;
    for (const auto& e : page.entries) out.push_back(e.rank);
    return out;
  }

  TempDir dir_;
  Database db_;
  int games_ = 0;
  const BoardKey easy_{Mode::same, "easy", "2024-05-01", ""};
};

TEST_F(Leaderboards, ARankedFinishFeedsLeaderboardBestAndGamesPlayed) {
  const PlayerId alice = make_player(db_, "alice");
  play(alice, easy_, 120, 14, 30000, 5000);

  const LeaderboardPage page = db_.leaderboard(easy_, 20, 0);
  EXPECT_EQ(page.total, 1);
  ASSERT_EQ(page.entries.size(), 1u);
  const LeaderboardEntry& e = page.entries[0];
  EXPECT_EQ(e.rank, 1);
  EXPECT_EQ(e.player_id, alice);
  EXPECT_EQ(e.player, "alice");
  EXPECT_EQ(e.score, 120);
  EXPECT_EQ(e.move_count, 14);
  EXPECT_EQ(e.duration_ms, 30000);
  EXPECT_EQ(e.attempts, 1);
  EXPECT_EQ(e.game_id, "g1");
  EXPECT_EQ(e.finished_at, 5000);

  const auto bests = db_.player_bests(alice);
  ASSERT_EQ(bests.size(), 1u);
  EXPECT_EQ(bests[0].mode, Mode::same);
  EXPECT_EQ(bests[0].preset, "easy");
  EXPECT_EQ(bests[0].seed, "2024-05-01");
  EXPECT_EQ(bests[0].score, 120);
  EXPECT_EQ(bests[0].game_id, "g1");
  EXPECT_EQ(db_.find_player_by_id(alice)->games_played, 1);

  // Other boards are separate leaderboards.
  EXPECT_EQ(db_.leaderboard({Mode::same, "easy", "other", ""}, 20, 0).total, 0);
  EXPECT_EQ(db_.leaderboard({Mode::same, "hard", "2024-05-01", ""}, 20, 0).total, 0);
  EXPECT_EQ(db_.leaderboard({Mode::match3, "easy", "2024-05-01", ""}, 20, 0).total, 0);
}

TEST_F(Leaderboards, PracticeGamesTouchNothing) {
  const PlayerId alice = make_player(db_, "alice");
  const GameRecord custom = custom_game("custom", alice, Mode::same, "s", 6, 6, 3);
  GameRecord option = ranked_game("option", alice, {Mode::match3, "classic", "s", ""});
  option.ranked = false;  // a preset with a practice option (refill off)
  option.setup.refill = false;
  for (const GameRecord& g : {custom, option}) {
    ASSERT_TRUE(
        create_and_finish(db_, g, {g.id, 500, 10, game::OverReason::cleared, 100, 50}).ok());
    EXPECT_EQ(db_.load_game(g.id)->state, GameState::over);
  }
  EXPECT_EQ(db_.leaderboard({Mode::match3, "classic", "s", ""}, 20, 0).total, 0);
  EXPECT_TRUE(db_.player_bests(alice).empty());
  EXPECT_EQ(db_.find_player_by_id(alice)->games_played, 0);
}

TEST_F(Leaderboards, EntryKeepsTheBestAndCountsEveryAttempt) {
  const PlayerId alice = make_player(db_, "alice");
  play(alice, easy_, 100, 20, 1, 1000);  // g1
  play(alice, easy_, 80, 5, 1, 2000);    // g2: lower score, not better
  auto e = db_.leaderboard(easy_, 1, 0).entries.at(0);
  EXPECT_EQ(e.game_id, "g1");
  EXPECT_EQ(e.attempts, 2);

  play(alice, easy_, 100, 15, 1, 3000);  // g3: same score, fewer moves: better
  play(alice, easy_, 100, 15, 1, 4000);  // g4: equal but later: not better
  e = db_.leaderboard(easy_, 1, 0).entries.at(0);
  EXPECT_EQ(e.game_id, "g3");
  EXPECT_EQ(e.move_count, 15);
  EXPECT_EQ(e.finished_at, 3000);
  EXPECT_EQ(e.attempts, 4);

  play(alice, easy_, 101, 99, 1, 5000);  // g5: higher score wins over moves
  e = db_.leaderboard(easy_, 1, 0).entries.at(0);
  EXPECT_EQ(e.game_id, "g5");
  EXPECT_EQ(e.score, 101);
  EXPECT_EQ(e.attempts, 5);
  EXPECT_EQ(db_.leaderboard(easy_, 10, 0).total, 1);
  EXPECT_EQ(db_.find_player_by_id(alice)->games_played, 5);
}

TEST_F(Leaderboards, HiddenEntriesPreferTheShorterTime) {
  const PlayerId alice = make_player(db_, "alice");
  const BoardKey hidden{Mode::hidden, "classic", "d", ""};
  play(alice, hidden, 300, 10, 60000, 1000);  // g1
  play(alice, hidden, 300, 50, 40000, 2000);  // g2: more moves but faster: better
  const auto e = db_.leaderboard(hidden, 1, 0).entries.at(0);
  EXPECT_EQ(e.game_id, "g2");
  EXPECT_EQ(e.duration_ms, 40000);
  EXPECT_EQ(e.attempts, 2);
}

TEST_F(Leaderboards, BestPerModeAndPresetOverAllSeedsKeepsTheEarlierOnATie) {
  const PlayerId alice = make_player(db_, "alice");
  play(alice, {Mode::same, "easy", "a", ""}, 100, 10, 1, 1000);     // g1
  play(alice, {Mode::same, "easy", "b", ""}, 100, 1, 1, 2000);      // g2: tie, keeps g1
  play(alice, {Mode::same, "hard", "a", ""}, 50, 1, 1, 3000);       // g3
  play(alice, {Mode::match3, "classic", "a", ""}, 70, 1, 1, 4000);  // g4
  auto bests = db_.player_bests(alice);
  ASSERT_EQ(bests.size(), 3u);
  EXPECT_EQ(bests[0].mode, Mode::match3);  // sorted by mode name: match3 < same
  std::map<std::string, PlayerBest> by_key;
  for (const auto& b : bests) by_key[std::string(game::to_string(b.mode)) + "/" + b.preset] = b;
  EXPECT_EQ(by_key.at("same/easy").game_id, "g1");
  EXPECT_EQ(by_key.at("same/easy").seed, "a");
  EXPECT_EQ(by_key.at("same/hard").score, 50);
  EXPECT_EQ(by_key.at("match3/classic").score, 70);

  play(alice, {Mode::same, "easy", "c", ""}, 140, 30, 1, 5000);  // g5: higher
  bests = db_.player_bests(alice);
  for (const auto& b : bests) by_key[std::string(game::to_string(b.mode)) + "/" + b.preset] = b;
  EXPECT_EQ(by_key.at("same/easy").game_id, "g5");
  EXPECT_EQ(by_key.at("same/easy").seed, "c");
  EXPECT_EQ(by_key.at("same/easy").score, 140);
  EXPECT_EQ(by_key.at("same/easy").achieved_at, 5000);
  EXPECT_EQ(db_.find_player_by_id(alice)->games_played, 5);
}

TEST_F(Leaderboards, OrderAndTiesForSameAndMatch3) {
  for (const Mode mode : {Mode::same, Mode::match3}) {
    const BoardKey board{mode, "classic", "ties", ""};
    const std::string m(game::to_string(mode));
    const PlayerId late = make_player(db_, m + "-late");
    const PlayerId early = make_player(db_, m + "-early");
    const PlayerId fewer = make_player(db_, m + "-fewer");
    const PlayerId top = make_player(db_, m + "-top");
    const PlayerId twin_b = make_player(db_, m + "-twin-b");
    const PlayerId twin_a = make_player(db_, m + "-twin-a");
    play(late, board, 100, 20, 10, 3000);
    play(early, board, 100, 20, 99999, 2000);  // duration does not matter here
    play(fewer, board, 100, 19, 99999, 9000);
    play(top, board, 101, 500, 1, 9999);
    play(twin_b, board, 50, 5, 5, 5000);  // identical results: lower id first
    play(twin_a, board, 50, 5, 5, 5000);
    const auto page = db_.leaderboard(board, 10, 0);
    EXPECT_EQ(names(page), (std::vector<std::string>{m + "-top", m + "-fewer", m + "-early",
                                                     m + "-late", m + "-twin-b", m + "-twin-a"}));
    EXPECT_EQ(ranks(page), (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}));
    EXPECT_LT(twin_b, twin_a);
  }
}

TEST_F(Leaderboards, OrderAndTiesForHidden) {
  const BoardKey board{Mode::hidden, "large", "ties", ""};
  const PlayerId slow = make_player(db_, "slow");
  const PlayerId fast = make_player(db_, "fast");
  const PlayerId fast_late = make_player(db_, "fast-late");
  play(slow, board, 200, 5, 50000, 1000);
  play(fast, board, 200, 80, 30000, 2000);  // moves do not matter here
  play(fast_late, board, 200, 1, 30000, 3000);
  EXPECT_EQ(names(db_.leaderboard(board, 10, 0)),
            (std::vector<std::string>{"fast", "fast-late", "slow"}));
}

TEST_F(Leaderboards, PagingWithLimitOffsetAndTotal) {
  for (int i = 0; i < 25; ++i) {
    play(make_player(db_, numbered("p", i)), easy_, 1000 - i, 10, 10, 1000 + i);
  }
  const auto first = db_.leaderboard(easy_, 10, 0);
  EXPECT_EQ(first.total, 25);
  ASSERT_EQ(first.entries.size(), 10u);
  EXPECT_EQ(first.entries.front().player, "p0");
  EXPECT_EQ(first.entries.front().rank, 1);
  EXPECT_EQ(first.entries.back().rank, 10);

  const auto second = db_.leaderboard(easy_, 10, 10);
  ASSERT_EQ(second.entries.size(), 10u);
  EXPECT_EQ(second.entries.front().player, "p10");
  EXPECT_EQ(second.entries.front().rank, 11);

  const auto last = db_.leaderboard(easy_, 10, 20);
  EXPECT_EQ(last.total, 25);
  EXPECT_EQ(ranks(last), (std::vector<std::int64_t>{21, 22, 23, 24, 25}));
  EXPECT_EQ(last.entries.back().score, 976);

  const auto beyond = db_.leaderboard(easy_, 10, 100);
  EXPECT_EQ(beyond.total, 25);
  EXPECT_TRUE(beyond.entries.empty());
  EXPECT_TRUE(db_.leaderboard(easy_, 0, 0).entries.empty());
  EXPECT_EQ(db_.leaderboard(easy_, 3, -5).entries.front().rank, 1);  // offset < 0 is 0

  const auto empty = db_.leaderboard({Mode::same, "easy", "nobody", ""}, 10, 0);
  EXPECT_EQ(empty.total, 0);
  EXPECT_TRUE(empty.entries.empty());
}

TEST_F(Leaderboards, PagesJoinUpToTheFullOrderWithManyTies) {
  struct Expected {
    std::int64_t score, moves, finished_at;
    PlayerId id;
  };
  std::vector<Expected> expected;
  std::uint32_t state = 12345;
  const auto next = [&state](std::uint32_t n) {
    state = state * 1103515245u + 12345u;
    return static_cast<std::int64_t>((state >> 16) % n);
  };
  for (int i = 0; i < 60; ++i) {
    const PlayerId p = make_player(db_, numbered("t", i));
    const Expected e{next(4) * 10, next(3) + 1, 1000 + next(3), p};
    play(p, easy_, e.score, e.moves, 99, e.finished_at);
    expected.push_back(e);
  }
  std::sort(expected.begin(), expected.end(), [](const Expected& a, const Expected& b) {
    return std::tuple(-a.score, a.moves, a.finished_at, a.id) <
           std::tuple(-b.score, b.moves, b.finished_at, b.id);
  });
  for (const int size : {1, 7, 60}) {
    std::vector<LeaderboardEntry> all;
    for (int offset = 0; offset < 60; offset += size) {
      const auto page = db_.leaderboard(easy_, size, offset);
      EXPECT_EQ(page.total, 60);
      all.insert(all.end(), page.entries.begin(), page.entries.end());
    }
    ASSERT_EQ(all.size(), expected.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(all[i].rank, static_cast<std::int64_t>(i) + 1);
      EXPECT_EQ(all[i].player_id, expected[i].id) << "page size " << size << ", rank " << i + 1;
      EXPECT_EQ(all[i].score, expected[i].score);
    }
  }
}

TEST_F(Leaderboards, AroundAPlayer) {
  for (int i = 0; i < 25; ++i) {
    play(make_player(db_, numbered("p", i)), easy_, 1000 - i, 10, 10, 1000 + i);
  }
  auto around = db_.leaderboard_around(easy_, "p9", 2);
  ASSERT_TRUE(around.has_value());
  EXPECT_EQ(around->total, 25);
  EXPECT_EQ(ranks(*around), (std::vector<std::int64_t>{8, 9, 10, 11, 12}));
  EXPECT_EQ(around->entries[2].player, "p9");

  around = db_.leaderboard_around(easy_, "P0", 3);  // names ignore case
  ASSERT_TRUE(around.has_value());
  EXPECT_EQ(ranks(*around), (std::vector<std::int64_t>{1, 2, 3, 4}));

  around = db_.leaderboard_around(easy_, "p24", 2);
  ASSERT_TRUE(around.has_value());
  EXPECT_EQ(ranks(*around), (std::vector<std::int64_t>{23, 24, 25}));

  around = db_.leaderboard_around(easy_, "p5", 0);
  ASSERT_TRUE(around.has_value());
  EXPECT_EQ(names(*around), std::vector<std::string>{"p5"});
  EXPECT_EQ(around->entries[0].rank, 6);

  // Ties: the rank comes from the full order, the same one paging uses.
  const PlayerId tie = make_player(db_, "tie");
  play(tie, easy_, 995, 10, 10, 1005);  // equal to p5, same finish: by player id
  around = db_.leaderboard_around(easy_, "tie", 1);
  ASSERT_TRUE(around.has_value());
  EXPECT_EQ(names(*around), (std::vector<std::string>{"p5", "tie", "p6"}));
  EXPECT_EQ(ranks(*around), (std::vector<std::int64_t>{6, 7, 8}));
  EXPECT_EQ(names(db_.leaderboard(easy_, 3, 5)), names(*around));

  EXPECT_FALSE(db_.leaderboard_around(easy_, "ghost", 5).has_value());
  make_player(db_, "idle");  // exists, never played this board
  EXPECT_FALSE(db_.leaderboard_around(easy_, "idle", 5).has_value());
  EXPECT_FALSE(db_.leaderboard_around({Mode::same, "easy", "x", ""}, "p1", 5).has_value());
}

TEST_F(Leaderboards, TheLeaderboardQueryWalksTheIndex) {
  SKIP_UNLESS_SQLITE();
  const std::string plan = db_.leaderboard_query_plan();
  SCOPED_TRACE(plan);
  EXPECT_NE(plan.find("leaderboard_order"), std::string::npos);
  // Rows skipped by OFFSET are read from the index alone.
  EXPECT_NE(plan.find("COVERING INDEX leaderboard_order"), std::string::npos);
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos);
  EXPECT_EQ(plan.find("USE TEMP B-TREE FOR ORDER BY"), std::string::npos);

  const std::string rank_plan = db_.leaderboard_rank_query_plan();
  SCOPED_TRACE(rank_plan);
  EXPECT_NE(rank_plan.find("leaderboard_order"), std::string::npos);
  EXPECT_EQ(rank_plan.find("TEMP B-TREE"), std::string::npos);
}

}  // namespace
}  // namespace tilecrush::storage::testing
