// Several nodes (Database handles) on one PostgreSQL database write at the
// same time, with no lock of the whole database: what must happen once is
// made once by the rows that carry it (storage/README.md, "Several nodes").
// Each test races two nodes on one such case. Skipped in the SQLite run.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage {
namespace {

using testing::click;
using testing::make_player;
using testing::numbered;
using testing::options_for;
using testing::ranked_game;
using testing::TempDir;
using testing::wait_for;
using testing::WriterGate;

#define SKIP_UNLESS_POSTGRES()                                                        \
  do {                                                                                \
    if (!::tilecrush::storage::testing::postgres_run()) GTEST_SKIP() << "PostgreSQL"; \
  } while (false)

// Runs a and b on two threads released at the same moment; waits for both.
template <class A, class B>
void race(A&& a, B&& b) {
  std::atomic<bool> go{false};
  std::thread ta([&] {
    while (!go.load()) {
    }
    a();
  });
  std::thread tb([&] {
    while (!go.load()) {
    }
    b();
  });
  go = true;
  ta.join();
  tb.join();
}

BoardRecord casual_board(const std::string& seed, std::uint8_t fill) {
  BoardRecord b;
  b.mode = game::Mode::same;
  b.preset = "easy";
  b.seed = seed;
  b.key.fill(fill);
  b.commitment = game::commitment(b.key);
  return b;
}

GameResult result_of(const std::string& id, std::int64_t score, std::int64_t finished_at) {
  GameResult r;
  r.game_id = id;
  r.score = score;
  r.move_count = 10;
  r.over_reason = game::OverReason::no_moves;
  r.finished_at = finished_at;
  r.duration_ms = 1000;
  return r;
}

class TwoNodes : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::postgres_run()) GTEST_SKIP() << "PostgreSQL";
    url_ = dir_.file();
    a_ = std::make_unique<Database>(options_for(url_));
    b_ = std::make_unique<Database>(options_for(url_));
  }

  TempDir dir_;
  std::string url_;
  std::unique_ptr<Database> a_;
  std::unique_ptr<Database> b_;
};

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
    ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                  a_->create_game(ranked_game(id, alice, board), cb);
                }).ok());
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
    const WriteResult r = wait_for([&](WriteCallback cb) {
      a_->create_game(ranked_game(numbered("g", i), alice, board), cb);
    });
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

// A competition with one counted attempt; two nodes create the player's
// first game there at once, many players over: each player's attempt is
// counted once (one game gets attempt 1, the other is refused).
TEST_F(TwoNodes, CountTheLastAttemptOnce) {
  CompetitionRecord comp;
  comp.id = "c1";
  comp.name = "c1";
  comp.mode = game::Mode::same;
  comp.preset = "easy";
  comp.seed = "c1";
  comp.opens_at = 0;
  comp.closes_at = 1'000'000'000;
  comp.attempts = 1;
  BoardRecord board = casual_board("c1", 7);
  board.scope = "c1";
  board.closes_at = comp.closes_at;
  ASSERT_TRUE(
      wait_for([&](WriteCallback cb) { a_->create_competition(comp, board, std::move(cb)); }).ok());
  for (int p = 0; p < 20; ++p) {
    const PlayerId player = make_player(*a_, numbered("p", p));
    const auto game_of = [&](const std::string& id) {
      GameRecord g = ranked_game(id, player, {game::Mode::same, "easy", "c1", "c1"});
      g.setup.board_key = board.key;
      g.competition = "c1";
      g.attempt_rule = GameRecord::AttemptRule{1, false, false};
      return g;
    };
    WriteResult ra;
    WriteResult rb;
    race(
        [&] {
          ra = wait_for([&](WriteCallback cb) { a_->create_game(game_of(numbered("a", p)), cb); });
        },
        [&] {
          rb = wait_for([&](WriteCallback cb) { b_->create_game(game_of(numbered("b", p)), cb); });
        });
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
    ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                  a_->create_game(ranked_game(id, player, board), cb);
                }).ok());
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
        ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                      db->create_game(ranked_game(id, player, board_of(i)), cb);
                    }).ok());
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

// A room taken over by another node (a higher epoch) while its old owner
// still writes it: whichever commits first, the room ends as the newer
// epoch wrote it, its players included, and the old owner's write is
// refused when it comes second.
TEST_F(TwoNodes, ARoomEndsAsItsNewestEpochWroteIt) {
  const PlayerId p1 = make_player(*a_, "p1");
  const PlayerId p2 = make_player(*a_, "p2");
  for (int round = 0; round < 20; ++round) {
    OpenRoomRecord room;
    room.code = numbered("R", round);
    room.preset = "easy";
    room.seed = "s";
    room.creator_player_id = p1;
    room.host_player_id = p1;
    room.epoch = 1;
    room.owner = "a";
    room.players = {OpenRoomPlayer{p1, "", std::nullopt, false, 0, 0}};
    ASSERT_TRUE(wait_for([&](WriteCallback cb) { a_->save_open_room(room, cb); }).ok());
    OpenRoomRecord old_owner = room;  // still epoch 1, one more player
    old_owner.players.push_back(OpenRoomPlayer{p2, "", std::nullopt, false, 0, 0});
    OpenRoomRecord new_owner = room;
    new_owner.epoch = 2;
    new_owner.owner = "b";
    new_owner.host_player_id = p2;
    new_owner.players = {OpenRoomPlayer{p2, "", std::nullopt, false, 0, 0}};
    WriteResult ra;
    WriteResult rb;
    race([&] { ra = wait_for([&](WriteCallback cb) { a_->save_open_room(old_owner, cb); }); },
         [&] { rb = wait_for([&](WriteCallback cb) { b_->save_open_room(new_owner, cb); }); });
    EXPECT_TRUE(rb.ok()) << rb.message;
    EXPECT_TRUE(ra.ok() || ra.status == WriteStatus::conflict) << ra.message;
    const auto stored = a_->find_open_room(room.code);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->epoch, 2);
    EXPECT_EQ(stored->owner, "b");
    ASSERT_EQ(stored->players.size(), 1u);
    EXPECT_EQ(stored->players[0].player_id, p2);
  }
}

// One batch of moves of several games (on PostgreSQL one statement for
// them all): each move gets the result it would get alone, in the order
// queued, and only the refused ones are missing. Both backends.
TEST(MoveBatch, EachMoveGetsItsOwnResult) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId alice = make_player(db, "alice");
  const BoardKey board{game::Mode::same, "easy", "moves", ""};
  for (const char* id : {"g1", "g2", "g3", "g5"}) {
    ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                  db.create_game(ranked_game(id, alice, board), cb);
                }).ok());
  }
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { db.finish_game(result_of("g5", 0, 5), cb); }).ok());
  struct Sent {
    std::string game;
    std::int64_t seq;
    std::future<WriteResult> result;
  };
  std::vector<Sent> sent;
  const auto move = [&](const std::string& id, std::int64_t seq) {
    auto p = std::make_shared<std::promise<WriteResult>>();
    sent.push_back({id, seq, p->get_future()});
    db.append_move(id, seq, click(static_cast<int>(seq % 10), 0), seq * 10, seq + 1,
                   seq == 0 ? std::optional<std::int64_t>(1000 + seq) : std::nullopt, 100 * seq,
                   [p](const WriteResult& r) { p->set_value(r); });
  };
  {
    WriterGate gate(db);
    move("g1", 0);
    move("g2", 0);
    move("g1", 1);
    move("g3", 0);
    move("g1", 2);
    move("g2", 2);  // not the next: refused
    move("g3", 0);  // stored already: refused
    move("g4", 0);  // no such game
    move("g5", 0);  // over
    move("g3", 1);
  }
  const std::vector<WriteStatus> expected = {
      WriteStatus::ok,       WriteStatus::ok,       WriteStatus::ok,       WriteStatus::ok,
      WriteStatus::ok,       WriteStatus::conflict, WriteStatus::conflict, WriteStatus::not_found,
      WriteStatus::conflict, WriteStatus::ok};
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const WriteResult r = sent[i].result.get();
    EXPECT_EQ(r.status, expected[i]) << i << " " << sent[i].game << " " << r.message;
  }
  const auto g1 = db.load_game("g1");
  ASSERT_EQ(g1->moves.size(), 3u);
  EXPECT_EQ(g1->moves[2], click(2, 0));
  EXPECT_EQ(g1->score, 20);
  EXPECT_EQ(g1->move_count, 3);
  EXPECT_EQ(g1->first_move_at, 1000);
  EXPECT_EQ(g1->move_times, (std::vector<std::int64_t>{0, 100, 200}));
  EXPECT_EQ(db.load_game("g2")->moves.size(), 1u);
  EXPECT_EQ(db.load_game("g3")->moves.size(), 2u);
  EXPECT_EQ(db.load_game("g5")->moves.size(), 0u);
}

}  // namespace
}  // namespace tilecrush::storage
