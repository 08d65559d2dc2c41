// The writer thread: group commit, callbacks after commit, flush, metrics,
// closing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;

const BoardKey kEasy{Mode::same, "easy", "w", ""};

// Queues alice's game "g" and `moves` times `move` in it, waiting for none.
void queue_game_of_moves(Database& db, int moves, game::Move move) {
  db.create_game(ranked_game("g", make_player(db, "alice"), kEasy));
  for (int i = 0; i < moves; ++i) db.append_move("g", i, move, i, i + 1, {}, 0);
}

TEST(Writer, QueuedOperationsShareOneCommit) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId alice = make_player(db, "alice");
  db.create_game(ranked_game("g", alice, kEasy));
  db.flush();
  const WriterMetrics before = db.metrics();

  constexpr int kMoves = 500;
  std::atomic<int> ok{0};
  {
    WriterGate gate(db);  // the writer waits while everything is queued
    for (int i = 0; i < kMoves; ++i) {
      db.append_move("g", i, click(i % 10, i % 7), i, i + 1, {}, 0, [&](const WriteResult& r) {
        if (r.ok()) ++ok;
      });
    }
    EXPECT_EQ(db.metrics().queue_depth, static_cast<std::uint64_t>(kMoves));
  }
  db.flush();
  const WriterMetrics after = db.metrics();
  EXPECT_EQ(ok.load(), kMoves);
  EXPECT_EQ(after.queue_depth, 0u);
  // One batch for the gate, one for all the moves.
  EXPECT_EQ(after.batches_committed - before.batches_committed, 2u);
  EXPECT_EQ(after.ops_committed - before.ops_committed, static_cast<std::uint64_t>(kMoves) + 1);
  EXPECT_EQ(after.last_batch_size, static_cast<std::uint64_t>(kMoves));
  EXPECT_EQ(db.load_game("g")->moves.size(), static_cast<std::size_t>(kMoves));
}

TEST(Writer, BatchSizeIsBounded) {
  TempDir dir;
  Options options = options_for(dir.file());
  options.max_batch = 16;
  Database db(options);
  const WriterMetrics before = db.metrics();
  {
    WriterGate gate(db);
    for (int i = 0; i < 100; ++i) db.create_player({numbered("p", i), "h", i});
  }
  db.flush();
  const WriterMetrics after = db.metrics();
  EXPECT_EQ(after.max_batch_size, 16u);
  // The gate's batch, then ceil(100 / 16) = 7 batches.
  EXPECT_EQ(after.batches_committed - before.batches_committed, 8u);
  EXPECT_EQ(after.ops_committed - before.ops_committed, 101u);
}

TEST(Writer, ManyQuickWritesNeedFewerCommitsThanOperations) {
  TempDir dir;
  Database db(options_for(dir.file()));
  queue_game_of_moves(db, 5000, click(0, 0));
  db.flush();
  const WriterMetrics m = db.metrics();
  EXPECT_EQ(m.ops_committed, 5002u);
  EXPECT_LT(m.batches_committed, m.ops_committed);
  EXPECT_GT(m.total_commit_latency_ns, 0u);
  EXPECT_GE(m.total_commit_latency_ns, m.last_commit_latency_ns);
}

TEST(Writer, CallbacksRunInOrderAfterTheirBatchCommitted) {
  TempDir dir;
  Database db(options_for(dir.file()));
  Options read_only = options_for(dir.file());
  read_only.read_only = true;
  Database other(read_only);  // sees only what is committed to the file

  std::mutex mutex;
  std::vector<int> order;
  std::vector<bool> visible;
  for (int i = 0; i < 50; ++i) {
    const std::string name = numbered("p", i);
    db.create_player({name, "h", i}, [&, i, name](const WriteResult& r) {
      EXPECT_TRUE(r.ok());
      const bool seen = other.find_player_by_name(name).has_value();
      std::lock_guard lock(mutex);
      order.push_back(i);
      visible.push_back(seen);
    });
  }
  db.flush();
  std::lock_guard lock(mutex);
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(order[i], i);
    EXPECT_TRUE(visible[i]) << "player " << i << " not committed when its callback ran";
  }
}

// Records, on the writer thread, where each batch's callbacks begin and end.
class RecordedCompletions final : public CompletionObserver {
 public:
  void completions_begin() noexcept override {
    events.push_back("begin");
    inside = true;
  }
  void completions_end() noexcept override {
    events.push_back("end");
    inside = false;
  }
  std::vector<std::string> events;
  bool inside = false;
};

TEST(Writer, EachBatchsCallbacksRunBetweenTheObserversBeginAndEnd) {
  TempDir dir;
  RecordedCompletions completions;  // outlives the database
  Options options = options_for(dir.file());
  options.completions = &completions;
  Database db(options);
  const PlayerId alice = make_player(db, "alice");
  db.create_game(ranked_game("g", alice, kEasy));
  db.flush();
  completions.events.clear();  // read once the writer is done with it (flush)

  constexpr int kMoves = 40;
  {
    WriterGate gate(db);  // the moves, and a refused one, wait to share a batch
    for (int i = 0; i < kMoves; ++i) {
      db.append_move("g", i, click(i % 10, i % 7), i, i + 1, {}, 0, [&](const WriteResult& r) {
        EXPECT_TRUE(r.ok()) << r.message;
        completions.events.push_back(completions.inside ? "callback" : "callback outside");
      });
    }
    db.append_move("g", 0, click(0, 0), 0, 1, {}, 0, [&](const WriteResult& r) {
      EXPECT_EQ(r.status, WriteStatus::conflict);
      completions.events.push_back(completions.inside ? "callback" : "callback outside");
    });
  }
  db.flush();
  // The gate's batch (its callback unrecorded), then one batch of them all.
  std::vector<std::string> expected = {"begin", "end", "begin"};
  expected.insert(expected.end(), kMoves + 1, "callback");
  expected.push_back("end");
  EXPECT_EQ(completions.events, expected);
}

TEST(Writer, FlushWaitsForWritesFromEveryThread) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId alice = make_player(db, "alice");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const std::string id = numbered("g", t);
      db.create_game(ranked_game(id, alice, kEasy));
      for (int i = 0; i < 200; ++i) db.append_move(id, i, click(t, i % 10), i, i + 1, {}, 0);
    });
  }
  for (auto& th : threads) th.join();
  db.flush();
  for (int t = 0; t < 4; ++t) {
    const auto g = db.load_game(numbered("g", t));
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->moves.size(), 200u);
    EXPECT_EQ(g->move_count, 200);
  }
  EXPECT_EQ(db.metrics().ops_failed, 0u);
}

TEST(Writer, AThrowingCallbackDoesNotStopTheWriter) {
  TempDir dir;
  Database db(options_for(dir.file()));
  db.create_player({"a", "h", 1}, [](const WriteResult&) { throw std::runtime_error("bad"); });
  db.flush();
  EXPECT_TRUE(make_player(db, "b") > 0);
  EXPECT_TRUE(db.find_player_by_name("a").has_value());
}

TEST(Writer, FlushInsideACallbackReturns) {
  TempDir dir;
  Database db(options_for(dir.file()));
  std::atomic<bool> done{false};
  db.create_player({"a", "h", 1}, [&](const WriteResult&) {
    db.flush();  // on the writer thread: must not wait for itself
    done = true;
  });
  db.flush();
  EXPECT_TRUE(done.load());
}

TEST(Writer, CloseCommitsWhatIsQueuedThenRefusesWrites) {
  TempDir dir;
  {
    Database db(options_for(dir.file()));
    queue_game_of_moves(db, 1000, click(1, 1));
    db.close();  // no flush: close drains the queue
    WriteResult late;
    db.create_player({"late", "h", 1}, [&](const WriteResult& r) { late = r; });
    EXPECT_EQ(late.status, WriteStatus::closed);
    db.flush();  // returns at once
  }
  Database db(options_for(dir.file()));
  EXPECT_EQ(db.load_game("g")->moves.size(), 1000u);
  EXPECT_FALSE(db.find_player_by_name("late").has_value());
}

TEST(Writer, ReopenAfterCloseKeepsEverything) {
  TempDir dir;
  PlayerId alice = 0;
  {
    Database db(options_for(dir.file()));
    alice = make_player(db, "alice");
    const PlayerId bob = make_player(db, "bob");
    ASSERT_TRUE(testing::play_ranked(db, "ga", alice, kEasy, 300, 20, 9000, 5000).ok());
    ASSERT_TRUE(testing::play_ranked(db, "gb", bob, kEasy, 200, 20, 9000, 6000).ok());
    db.create_game(ranked_game("open", alice, kEasy));
    db.append_move("open", 0, click(2, 3), 1, 1, 4444, 0);
    RoomRecord room{
        0, "ROOM", Mode::same, "easy", "w", alice, 1, 2, {{1, alice, "", 300, 20, "ga"}}};
    db.save_room_result(room);
  }
  Database db(options_for(dir.file()));
  EXPECT_EQ(db.find_player_by_name("alice")->games_played, 1);
  const auto page = db.leaderboard(kEasy, 10, 0);
  EXPECT_EQ(page.total, 2);
  EXPECT_EQ(page.entries.at(0).player, "alice");
  EXPECT_EQ(db.player_bests(alice).size(), 1u);
  const auto open = db.load_game("open");
  ASSERT_TRUE(open.has_value());
  EXPECT_EQ(open->moves, std::vector<game::Move>{click(2, 3)});
  EXPECT_EQ(open->first_move_at, 4444);
  EXPECT_EQ(db.unfinished_games(), std::vector<std::string>{"open"});
  EXPECT_EQ(db.find_room("ROOM")->standings.size(), 1u);
  // Ids continue after the old ones.
  EXPECT_GT(make_player(db, "carol"), alice);
}

// The WAL is folded back by the checkpoint thread, not by the writer, and
// stays bounded: here every commit is its own transaction (flush after each
// write) so the WAL grows by a few pages a time.
TEST(Writer, CheckpointsRunOnTheirOwnThreadAndKeepTheWalSmall) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  Options options = options_for(dir.file());
  options.checkpoint_pages = 8;
  Database db(options);
  const PlayerId alice = make_player(db, "alice");
  for (int i = 0; i < 400; ++i) {
    db.create_game(ranked_game(numbered("g", i), alice, kEasy));
    db.flush();
  }
  for (int wait = 0; wait < 500 && db.metrics().checkpoints == 0; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_GT(db.metrics().checkpoints, 0u);
  // Without checkpoints the 400 commits would leave some 2,000 frames of
  // 4,120 bytes; the writer forces one at 16 x 8 pages (it may find the
  // checkpoint thread busy and go on a few commits more).
  const auto wal = std::filesystem::file_size(dir.file() + "-wal");
  EXPECT_LE(wal, 4120u * 8 * 32);
  EXPECT_EQ(db.unfinished_games().size(), 400u);
  db.close();
  Database reopened(options_for(dir.file()));
  EXPECT_EQ(reopened.unfinished_games().size(), 400u);
}

}  // namespace
}  // namespace tilecrush::storage::testing
