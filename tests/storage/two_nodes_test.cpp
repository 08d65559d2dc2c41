// Several nodes (Database handles) on one PostgreSQL database write at the
// same time, with no lock of the whole database: what must happen once is
// made once by the rows that carry it (storage/README.md, "Several nodes").
// Each test races two nodes on one such case; here boards and moves (the
// ends of games: two_nodes_results_test.cpp, rooms: open_room_test.cpp).
// Skipped in the SQLite run.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <chrono>
#include <future>
#include <vector>

#include "test_support.hpp"
#include "two_nodes_support.hpp"

namespace tilecrush::storage::testing {
namespace {

// Two players' first games on one new label, on two nodes: both creations
// of its board commit (the loser's insert does nothing and answers
// conflict, never an error that would fail its batch), and both nodes read
// one key, the winner's.
TEST_F(TwoNodes, CreatingOneBoardAgreeOnItsKey) {
  for (int round = 0; round < 20; ++round) {
    const std::string seed = numbered("label-", round);
    WriteResult ra;
    WriteResult rb;
    race(
        [&] {
          ra = wait_for([&](WriteCallback cb) { a_->create_board(casual_board(seed, 1), cb); });
        },
        [&] {
          rb = wait_for([&](WriteCallback cb) { b_->create_board(casual_board(seed, 2), cb); });
        });
    ASSERT_NE(ra.ok(), rb.ok()) << ra.message << " / " << rb.message;
    EXPECT_EQ((ra.ok() ? rb : ra).status, WriteStatus::conflict);
    const BoardKey key{game::Mode::same, "easy", seed, ""};
    const auto from_a = a_->find_board(key);
    const auto from_b = b_->find_board(key);
    ASSERT_TRUE(from_a && from_b);
    EXPECT_EQ(from_a->key, from_b->key);
    EXPECT_EQ(from_a->key, casual_board(seed, ra.ok() ? 1 : 2).key);
  }
}

// A losing board insert inside a batch fails nothing else of the batch.
TEST_F(TwoNodes, ABoardThatExistsFailsOnlyItsOwnCreation) {
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { a_->create_board(casual_board("b", 1), cb); }).ok());
  const PlayerId alice = make_player(*a_, "alice");
  std::future<WriteResult> board;
  std::future<WriteResult> game;
  {
    WriterGate gate(*b_);
    auto pb = std::make_shared<std::promise<WriteResult>>();
    auto pg = std::make_shared<std::promise<WriteResult>>();
    board = pb->get_future();
    game = pg->get_future();
    b_->create_board(casual_board("b", 2), [pb](const WriteResult& r) { pb->set_value(r); });
    b_->create_game(ranked_game("g", alice, {game::Mode::same, "easy", "other", ""}),
                    [pg](const WriteResult& r) { pg->set_value(r); });
  }
  EXPECT_EQ(board.get().status, WriteStatus::conflict);
  EXPECT_TRUE(game.get().ok());
}

// A write of one game waits for another transaction holding that game's
// row; writes of other games, on another node, go on meanwhile.
TEST_F(TwoNodes, WritesOfDifferentGamesGoOnInParallel) {
  const PlayerId alice = make_player(*a_, "alice");
  const BoardKey board{game::Mode::same, "easy", "par", ""};
  for (const char* id : {"g1", "g2"}) {
    ASSERT_TRUE(store_game(*a_, ranked_game(id, alice, board)).ok());
  }
  PGconn* holder = PQconnectdb(url_.c_str());
  ASSERT_EQ(PQstatus(holder), CONNECTION_OK);
  PQclear(PQexec(holder, "BEGIN"));
  PGresult* locked = PQexec(holder, "SELECT id FROM games WHERE id = 'g1' FOR UPDATE");
  ASSERT_EQ(PQresultStatus(locked), PGRES_TUPLES_OK) << PQresultErrorMessage(locked);
  PQclear(locked);

  auto first = std::make_shared<std::promise<WriteResult>>();
  auto first_done = first->get_future();
  a_->append_move("g1", 0, click(0, 0), 5, 1, std::nullopt, 0,
                  [first](const WriteResult& r) { first->set_value(r); });
  // Node a's batch is now waiting for g1's row.
  EXPECT_EQ(first_done.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
  const WriteResult other = wait_for(
      [&](WriteCallback cb) { b_->append_move("g2", 0, click(1, 0), 5, 1, std::nullopt, 0, cb); });
  EXPECT_TRUE(other.ok()) << other.message;
  EXPECT_EQ(first_done.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);

  PQclear(PQexec(holder, "COMMIT"));
  PQfinish(holder);
  EXPECT_TRUE(first_done.get().ok());
  EXPECT_EQ(b_->load_game("g1")->moves.size(), 1u);
  EXPECT_EQ(a_->load_game("g2")->moves.size(), 1u);
}

// Batches of two nodes appending to many games at once, both sending move
// n of one game: that game's move is stored once (the other node's is
// refused), and every other move of both batches commits.
TEST_F(TwoNodes, AConflictInOneGameFailsThatGameOnly) {
  const PlayerId alice = make_player(*a_, "alice");
  const BoardKey board{game::Mode::same, "easy", "batch", ""};
  constexpr int kGames = 20;
  for (int i = 0; i < 2 * kGames + 1; ++i) {
    const WriteResult r = store_game(*a_, ranked_game(numbered("g", i), alice, board));
    ASSERT_TRUE(r.ok()) << r.message;
  }
  std::vector<std::future<WriteResult>> ra;
  std::vector<std::future<WriteResult>> rb;
  const auto queue = [](Database& db, const std::string& id, int x,
                        std::vector<std::future<WriteResult>>& out) {
    auto p = std::make_shared<std::promise<WriteResult>>();
    out.push_back(p->get_future());
    db.append_move(id, 0, click(x, 0), 1, 1, std::nullopt, 0,
                   [p](const WriteResult& r) { p->set_value(r); });
  };
  {
    WriterGate gate_a(*a_);
    WriterGate gate_b(*b_);
    for (int i = 0; i < kGames; ++i) {
      queue(*a_, numbered("g", i), 0, ra);
      queue(*b_, numbered("g", kGames + i), 0, rb);
    }
    queue(*a_, numbered("g", 2 * kGames), 1, ra);  // the same move of one game
    queue(*b_, numbered("g", 2 * kGames), 2, rb);
    race([&] { gate_a.open(); }, [&] { gate_b.open(); });
  }
  for (int i = 0; i < kGames; ++i) {
    EXPECT_TRUE(ra[static_cast<std::size_t>(i)].get().ok());
    EXPECT_TRUE(rb[static_cast<std::size_t>(i)].get().ok());
  }
  const WriteResult last_a = ra.back().get();
  const WriteResult last_b = rb.back().get();
  ASSERT_NE(last_a.ok(), last_b.ok()) << last_a.message << " / " << last_b.message;
  EXPECT_EQ((last_a.ok() ? last_b : last_a).status, WriteStatus::conflict);
  const auto contested = b_->load_game(numbered("g", 2 * kGames));
  ASSERT_EQ(contested->moves.size(), 1u);
  EXPECT_EQ(contested->moves[0], click(last_a.ok() ? 1 : 2, 0));
  for (int i = 0; i < 2 * kGames; ++i) {
    EXPECT_EQ(a_->load_game(numbered("g", i))->moves.size(), 1u) << i;
  }
}

}  // namespace
}  // namespace tilecrush::storage::testing
