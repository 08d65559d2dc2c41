// Two nodes on one PostgreSQL database ending games at the same time
// (two_nodes_test.cpp says why): a competition's attempts, a game's end and
// the boards it counts on are each counted once. Skipped in the SQLite run.
#include <gtest/gtest.h>

#include <future>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "two_nodes_support.hpp"

namespace tilecrush::storage::testing {
namespace {

// A competition with one counted attempt; two nodes create the player's
// first game there at once, many players over: each player's attempt is
// counted once (one game gets attempt 1, the other is refused).
TEST_F(TwoNodes, CountTheLastAttemptOnce) {
  CompetitionRecord comp = competition_record("c1", game::Mode::same, "easy", 0, 1'000'000'000);
  comp.attempts = 1;
  const BoardRecord board = competition_board(comp, 7);
  ASSERT_TRUE(
      wait_for([&](WriteCallback cb) { a_->create_competition(comp, board, std::move(cb)); }).ok());
  for (int p = 0; p < 20; ++p) {
    const PlayerId player = make_player(*a_, numbered("p", p));
    const auto game_of = [&](const std::string& id) {
      GameRecord g = competition_game(id, player, board, 1000);
      g.attempt_rule->limit = 1;
      return g;
    };
    WriteResult ra;
    WriteResult rb;
    race([&] { ra = store_game(*a_, game_of(numbered("a", p))); },
         [&] { rb = store_game(*b_, game_of(numbered("b", p))); });
    ASSERT_NE(ra.ok(), rb.ok()) << ra.message << " / " << rb.message;
    EXPECT_EQ((ra.ok() ? ra : rb).id, 1);
    EXPECT_EQ((ra.ok() ? rb : ra).status, WriteStatus::conflict);
    EXPECT_EQ(a_->attempts_started("c1", player), 1);
  }
}

// Two nodes finishing one ranked game at once: it ends once, and its board
// counts it once (one attempt, one revision).
TEST_F(TwoNodes, FinishingOneGameCountItOnce) {
  const BoardKey board{game::Mode::same, "easy", "fin", ""};
  for (int p = 0; p < 20; ++p) {
    const PlayerId player = make_player(*a_, numbered("p", p));
    const std::string id = numbered("g", p);
    ASSERT_TRUE(store_game(*a_, ranked_game(id, player, board)).ok());
    WriteResult ra;
    WriteResult rb;
    race(
        [&] {
          ra = wait_for([&](WriteCallback cb) { a_->finish_game(result_of(id, 50, 10), cb); });
        },
        [&] {
          rb = wait_for([&](WriteCallback cb) { b_->finish_game(result_of(id, 60, 20), cb); });
        });
    ASSERT_NE(ra.ok(), rb.ok()) << ra.message << " / " << rb.message;
    EXPECT_EQ((ra.ok() ? rb : ra).status, WriteStatus::conflict);
  }
  const LeaderboardPage page = b_->leaderboard(board, 100, 0);
  EXPECT_EQ(page.total, 20);
  EXPECT_EQ(page.revision, 20);
  for (const LeaderboardEntry& e : page.entries) EXPECT_EQ(e.attempts, 1);
}

// Batches of two nodes each finishing games on the same ten boards, one in
// ascending and the other in descending order of board: the boards' locks
// are taken in one order, so no batch waits for the other in a circle
// (which PostgreSQL would break only after a second, failing one); every
// game counts once and every board's revision and ranks are exact on both
// nodes.
TEST_F(TwoNodes, BatchesOverSeveralBoardsNeitherDeadlockNorMiscount) {
  constexpr int kBoards = 10;
  constexpr int kRounds = 5;
  const PlayerId pa = make_player(*a_, "pa");
  const PlayerId pb = make_player(*a_, "pb");
  const auto board_of = [](int i) {
    return BoardKey{game::Mode::same, "easy", numbered("s", i), ""};
  };
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kBoards; ++i) {
      for (const auto& [db, player, prefix] :
           {std::tuple{a_.get(), pa, "a"}, std::tuple{b_.get(), pb, "b"}}) {
        const std::string id = numbered(prefix, round * kBoards + i);
        ASSERT_TRUE(store_game(*db, ranked_game(id, player, board_of(i))).ok());
      }
    }
    std::vector<std::future<WriteResult>> results;
    const auto finish = [&](Database& db, const std::string& id, std::int64_t score) {
      auto p = std::make_shared<std::promise<WriteResult>>();
      results.push_back(p->get_future());
      db.finish_game(result_of(id, score, 1000 + round),
                     [p](const WriteResult& r) { p->set_value(r); });
    };
    {
      WriterGate gate_a(*a_);
      WriterGate gate_b(*b_);
      for (int i = 0; i < kBoards; ++i) {
        finish(*a_, numbered("a", round * kBoards + i), 100 + round);
        finish(*b_, numbered("b", round * kBoards + (kBoards - 1 - i)), 200 - round);
      }
      race([&] { gate_a.open(); }, [&] { gate_b.open(); });
    }
    for (auto& f : results) {
      const WriteResult r = f.get();
      EXPECT_TRUE(r.ok()) << r.message;
    }
  }
  for (int i = 0; i < kBoards; ++i) {
    const LeaderboardPage from_a = a_->leaderboard(board_of(i), 10, 0);
    const LeaderboardPage from_b = b_->leaderboard(board_of(i), 10, 0);
    ASSERT_EQ(from_a.total, 2);
    EXPECT_EQ(from_a.revision, 2 * kRounds);
    EXPECT_EQ(from_b.revision, from_a.revision);
    ASSERT_EQ(from_a.entries.size(), 2u);
    EXPECT_EQ(from_a.entries[0].player_id, pb);
    EXPECT_EQ(from_a.entries[0].score, 200);
    EXPECT_EQ(from_a.entries[0].attempts, kRounds);
    EXPECT_EQ(from_a.entries[1].score, 100 + kRounds - 1);
    EXPECT_EQ(from_b.entries[1].rank, 2);
  }
  EXPECT_EQ(a_->rank_cache_metrics().mismatches, 0u);
  EXPECT_EQ(b_->rank_cache_metrics().mismatches, 0u);
  // A deadlock would have failed one batch, run again (after PostgreSQL's
  // deadlock_timeout, a second).
  EXPECT_EQ(a_->metrics().batches_retried + b_->metrics().batches_retried, 0u);
}

}  // namespace
}  // namespace tilecrush::storage::testing
