// PostgreSQL's writer sends a batch's statements in pipelines (libpq's
// pipeline mode, pg_connection.hpp): a session cut between two batches
// fails what was sent on it, never half of an operation, and the writer
// goes on with a new session without a restart. Skipped on SQLite.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

// Runs `sql` on a session of its own; the first column of the first row.
std::string scalar(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  std::string value;
  if (PQstatus(conn) == CONNECTION_OK) {
    PGresult* r = PQexec(conn, sql.c_str());
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) value = PQgetvalue(r, 0, 0);
    PQclear(r);
  }
  PQfinish(conn);
  return value;
}

TEST(Pipeline, ACutSessionFailsWhatWasSentAndTheWriterReconnects) {
  SKIP_UNLESS_POSTGRES();
  TempDir dir;
  const std::string plain = dir.file();
  // Every session of this Database carries the name, so that the test can
  // end them (and no other test's).
  const std::string app = "tc_pipeline_" + std::to_string(getpid());
  Database db(options_for(plain + "&application_name=" + app));
  const PlayerId alice = make_player(db, "alice");
  const BoardKey board{game::Mode::same, "easy", "pipe", ""};
  ASSERT_TRUE(store_game(db, ranked_game("g", alice, board)).ok());
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db.append_move("g", 0, click(0, 0), 1, 1, {}, 0, cb);
              }).ok());

  std::vector<WriteResult> results(5);
  const auto record = [&](std::size_t i) {
    return [&results, i](const WriteResult& r) { results[i] = r; };
  };
  {
    // The writer waits between two batches, its session idle: cut it.
    WriterGate gate(db);
    db.create_game(ranked_game("h", alice, board), record(0));
    db.append_move("g", 1, click(1, 1), 2, 2, {}, 0, record(1));
    db.append_move("g", 2, click(2, 2), 3, 3, {}, 0, record(2));
    db.append_final_move(click(3, 3), {}, 0, {"g", 90, 4, game::OverReason::no_moves, 5000, 4000},
                         record(3));
    db.append_move("h", 0, click(4, 4), 5, 1, {}, 0, record(4));
    const std::string where = "FROM pg_stat_activity WHERE application_name = '" + app + "'";
    ASSERT_NE(scalar(plain, "SELECT count(pg_terminate_backend(pid)) " + where), "0");
    for (int i = 0; i < 500 && scalar(plain, "SELECT count(*) " + where) != "0"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  db.flush();

  // Each operation is stored exactly when it was acknowledged; the cut
  // failed at least the first.
  EXPECT_FALSE(results[0].ok());
  Database check(options_for(plain));
  const auto g = check.load_game("g");
  const auto h = check.load_game("h");
  ASSERT_TRUE(g.has_value());
  std::size_t g_moves = 1;
  for (std::size_t i = 1; i <= 3; ++i) {
    if (results[i].ok()) {
      EXPECT_EQ(g_moves, i) << "move " << i << " acknowledged after a failed one";
      ++g_moves;
    }
  }
  EXPECT_EQ(g->moves.size(), g_moves);
  EXPECT_EQ(g->state, results[3].ok() ? GameState::over : GameState::playing);
  EXPECT_EQ(check.leaderboard(board, 10, 0).total, results[3].ok() ? 1 : 0);
  EXPECT_EQ(h.has_value(), results[0].ok());
  EXPECT_FALSE(results[4].ok());  // h was not created

  // The same Database writes again, on a new session.
  ASSERT_TRUE(store_game(db, ranked_game("h", alice, board)).ok());
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db.append_move("h", 0, click(4, 4), 5, 1, {}, 0, cb);
              }).ok());
  EXPECT_EQ(check.load_game("h")->moves.size(), 1u);
}

}  // namespace
}  // namespace tilecrush::storage::testing
