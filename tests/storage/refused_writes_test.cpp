// A game's writes after one refused as a conflict (Database::reload_game):
// they were made on a copy the refusal showed stale, so the writer refuses
// them unrun, even where a move's number happens to match the stored list
// (which would fork the game), until the game is read afresh.
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

class RefusedWrites : public ::testing::Test {
 protected:
  RefusedWrites() : db_(options_for(dir_.file())), bob_(make_player(db_, "bob")) {}

  void create(const std::string& id) {
    ASSERT_TRUE(store_game(db_, ranked_game(id, bob_, board_)).ok());
  }
  // Queues move `seq` without waiting; its result lands in results_[slot].
  void queue_move(const std::string& id, std::int64_t seq, game::Move m, std::size_t slot) {
    db_.append_move(id, seq, m, seq + 1, seq + 1, {}, 0, [this, slot](const WriteResult& r) {
      std::lock_guard lock(mutex_);
      results_[slot] = r;
    });
  }
  WriteResult move(const std::string& id, std::int64_t seq, game::Move m) {
    return wait_for(
        [&](WriteCallback cb) { db_.append_move(id, seq, m, seq + 1, seq + 1, {}, 0, cb); });
  }
  std::vector<game::Move> stored(const std::string& id) {
    const auto g = db_.load_game(id);
    return g ? g->moves : std::vector<game::Move>{};
  }

  TempDir dir_;
  Database db_;
  PlayerId bob_;
  const BoardKey board_{game::Mode::same, "easy", "2024-06-01", ""};
  std::mutex mutex_;
  std::vector<WriteResult> results_ = std::vector<WriteResult>(8);
};

TEST_F(RefusedWrites, AStaleCopysNextMoveIsRefusedThoughItsNumberMatches) {
  create("g");
  // This node's copy stored move 0 ...
  ASSERT_TRUE(move("g", 0, click(0, 0)).ok());
  // ... and a stale copy (another connection's, made before it) tries its
  // own move 0, then its move 1, made on that refused move 0.
  EXPECT_EQ(move("g", 0, click(5, 5)).status, WriteStatus::conflict);
  const WriteResult next = move("g", 1, click(6, 6));
  EXPECT_EQ(next.status, WriteStatus::conflict) << next.message;
  EXPECT_EQ(stored("g"), (std::vector<game::Move>{click(0, 0)}));
  // Read afresh: its writes run again.
  db_.reload_game("g");
  ASSERT_TRUE(move("g", 1, click(1, 1)).ok());
  EXPECT_EQ(stored("g"), (std::vector<game::Move>{click(0, 0), click(1, 1)}));
}

TEST_F(RefusedWrites, InOneQueueTheRefusedGamesLaterWritesFailAndOtherGamesGoOn) {
  create("g");
  create("h");
  ASSERT_TRUE(move("g", 0, click(0, 0)).ok());
  // Queued together: the stale copy of g (move 0 refused, moves 1 and 2
  // made on it), an undo and an end of it, and h's moves between them.
  queue_move("g", 0, click(5, 5), 0);
  queue_move("h", 0, click(2, 2), 1);
  queue_move("g", 1, click(6, 6), 2);
  queue_move("h", 1, click(3, 3), 3);
  queue_move("g", 2, click(7, 7), 4);
  db_.undo_move("g", 1, 1, 1, [this](const WriteResult& r) {
    std::lock_guard lock(mutex_);
    results_[5] = r;
  });
  db_.finish_game(GameResult{"g", 1, 1, game::OverReason::resigned, 5000, 4000},
                  [this](const WriteResult& r) {
                    std::lock_guard lock(mutex_);
                    results_[6] = r;
                  });
  db_.flush();
  std::lock_guard lock(mutex_);
  for (const std::size_t i : {0, 2, 4, 5, 6}) {
    EXPECT_EQ(results_[i].status, WriteStatus::conflict) << i << ": " << results_[i].message;
  }
  EXPECT_TRUE(results_[1].ok()) << results_[1].message;
  EXPECT_TRUE(results_[3].ok()) << results_[3].message;
  EXPECT_EQ(stored("g"), (std::vector<game::Move>{click(0, 0)}));
  EXPECT_EQ(stored("h"), (std::vector<game::Move>{click(2, 2), click(3, 3)}));
  EXPECT_EQ(db_.load_game("g")->state, GameState::playing);
}

TEST_F(RefusedWrites, AGameReadAfreshEndsAsUsual) {
  create("g");
  ASSERT_TRUE(move("g", 0, click(0, 0)).ok());
  EXPECT_EQ(move("g", 0, click(5, 5)).status, WriteStatus::conflict);
  db_.reload_game("g");
  const WriteResult end = wait_for([&](WriteCallback cb) {
    db_.finish_game(GameResult{"g", 1, 1, game::OverReason::resigned, 5000, 4000}, cb);
  });
  EXPECT_TRUE(end.ok()) << end.message;
  EXPECT_EQ(db_.load_game("g")->state, GameState::over);
}

TEST_F(RefusedWrites, AReloadMarkerIsNoWriteAndABatchOfThemOpensNoTransaction) {
  create("g");
  // flush(): a write's counters are added after its callback has run.
  db_.flush();
  const WriterMetrics before = db_.metrics();
  db_.reload_game("g");
  db_.reload_game("h");
  db_.flush();
  const WriterMetrics after = db_.metrics();
  EXPECT_EQ(after.batches_committed, before.batches_committed);
  EXPECT_EQ(after.ops_committed, before.ops_committed);
  EXPECT_EQ(after.ops_failed, before.ops_failed);
  // Beside a write, it is not counted either.
  ASSERT_TRUE(move("g", 0, click(0, 0)).ok());
  db_.flush();
  EXPECT_EQ(db_.metrics().ops_committed, before.ops_committed + 1);
}

}  // namespace
}  // namespace tilecrush::storage::testing
