// What only the PostgreSQL backend has: its schema version table, and
// several nodes (Database handles) writing one database at once. Skipped in
// the SQLite run.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "pg_connection.hpp"
#include "test_support.hpp"
#include "two_nodes_support.hpp"

namespace tilecrush::storage::testing {
namespace {

TEST(Postgres, CreatesTheSchemaAtTheLatestVersion) {
  SKIP_UNLESS_POSTGRES();
  TempDir dir;
  const std::string url = dir.file();
  {
    Database db(options_for(url));
    const Settings s = db.settings();
    EXPECT_EQ(s.backend, "postgresql");
    EXPECT_EQ(s.synchronous, 2);  // synchronous_commit on: a commit is durable
    EXPECT_TRUE(s.foreign_keys);
    EXPECT_EQ(s.schema_version, kSchemaVersion);
  }
  // Reopening applies nothing twice and keeps the data.
  {
    Database db(options_for(url));
    make_player(db, "alice");
  }
  Database db(options_for(url));
  EXPECT_EQ(db.settings().schema_version, kSchemaVersion);
  EXPECT_TRUE(db.find_player_by_name("ALICE").has_value());
}

TEST(Postgres, RefusesADatabaseFromANewerBuild) {
  SKIP_UNLESS_POSTGRES();
  TempDir dir;
  const std::string url = dir.file();
  { Database db(options_for(url)); }
  {
    detail::PgConnection c(url, detail::PgRole::writer);
    c.execute("UPDATE schema_version SET version = " + std::to_string(kSchemaVersion + 1));
  }
  EXPECT_THROW(Database db(options_for(url)), StorageError);
}

TEST(Postgres, UnreachableServerThrows) {
  SKIP_UNLESS_POSTGRES();
  EXPECT_THROW(Database db(options_for("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")),
               StorageError);
}

// Two nodes append the same move number to one game at the same moment:
// exactly one is acknowledged, the other refused (conflict), and the move
// list holds the acknowledged move: it never forks.
TEST(Postgres, TwoNodesAppendingToOneGameNeverFork) {
  SKIP_UNLESS_POSTGRES();
  TwoHandles nodes;
  Database& a = nodes.a;
  Database& b = nodes.b;
  const PlayerId alice = make_player(a, "alice");
  const BoardKey board{game::Mode::same, "easy", "fork", ""};
  ASSERT_TRUE(store_game(a, ranked_game("g", alice, board)).ok());

  std::vector<game::Move> acknowledged;
  for (int seq = 0; seq < 30; ++seq) {
    WriteResult ra;
    WriteResult rb;
    const auto append = [&](Database& db, int y) {
      return wait_for([&](WriteCallback cb) {
        db.append_move("g", seq, click(seq % 10, y), seq, seq + 1, std::nullopt, 0, cb);
      });
    };
    race([&] { ra = append(a, 0); }, [&] { rb = append(b, 1); });
    ASSERT_NE(ra.ok(), rb.ok()) << "seq " << seq << ": " << ra.message << " / " << rb.message;
    const WriteResult& refused = ra.ok() ? rb : ra;
    EXPECT_EQ(refused.status, WriteStatus::conflict) << refused.message;
    acknowledged.push_back(click(seq % 10, ra.ok() ? 0 : 1));
  }
  const auto g = b.load_game("g");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->moves, acknowledged);
  EXPECT_EQ(g->move_count, 30);
}

// Leaderboards written through two nodes at once read the same from both,
// with every finished game counted once.
TEST(Postgres, TwoNodesWritingOneLeaderboardAgree) {
  SKIP_UNLESS_POSTGRES();
  TwoHandles nodes;
  Database& a = nodes.a;
  Database& b = nodes.b;
  const BoardKey board{game::Mode::same, "easy", "shared", ""};
  constexpr int kPlayers = 40;
  std::vector<PlayerId> ids;
  for (int i = 0; i < kPlayers; ++i) ids.push_back(make_player(a, testing::numbered("p", i)));

  std::vector<std::thread> writers;
  for (int node = 0; node < 2; ++node) {
    writers.emplace_back([&, node] {
      Database& db = node == 0 ? a : b;
      for (int i = node; i < kPlayers; i += 2) {
        for (int attempt = 0; attempt < 2; ++attempt) {
          const std::string id = testing::numbered("g", i * 2 + attempt);
          const WriteResult r =
              testing::play_ranked(db, id, ids[static_cast<std::size_t>(i)], board,
                                   100 + i + attempt * 7, 10, 1000, 5000 + i);
          EXPECT_TRUE(r.ok()) << r.message;
        }
      }
    });
  }
  for (std::thread& t : writers) t.join();

  const LeaderboardPage pa = a.leaderboard(board, 100, 0);
  const LeaderboardPage pb = b.leaderboard(board, 100, 0);
  ASSERT_EQ(pa.total, kPlayers);
  ASSERT_EQ(pb.total, kPlayers);
  EXPECT_EQ(pa.revision, pb.revision);
  EXPECT_EQ(pa.revision, 2 * kPlayers);  // every finished game changed the board once
  ASSERT_EQ(pa.entries.size(), pb.entries.size());
  for (std::size_t i = 0; i < pa.entries.size(); ++i) {
    EXPECT_EQ(pa.entries[i].player, pb.entries[i].player);
    EXPECT_EQ(pa.entries[i].score, pb.entries[i].score);
    EXPECT_EQ(pa.entries[i].attempts, 2);
    EXPECT_EQ(pa.entries[i].rank, static_cast<std::int64_t>(i) + 1);
  }
  EXPECT_EQ(pa.entries.front().score, 100 + kPlayers - 1 + 7);
  EXPECT_EQ(a.rank_cache_metrics().mismatches, 0u);
  EXPECT_EQ(b.rank_cache_metrics().mismatches, 0u);
}

}  // namespace
}  // namespace tilecrush::storage::testing
