// PostgreSQL's writer sends a batch's statements in pipelines (libpq's
// pipeline mode, pg_connection.hpp): a session cut between two batches
// fails what was sent on it, never half of an operation, and the writer
// goes on with a new session without a restart; a write run later goes
// with the next statement read, and its failure loses its transaction.
// Skipped on SQLite.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <thread>

#include "pg_connection.hpp"
#include "test_support.hpp"
#include "tilecrush/storage/error.hpp"

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

// Writes run later (Statement::run_later()) on a writer's connection of its
// own, into the table `later`.
class RunLater : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_UNLESS_POSTGRES();
    url_ = dir_.file();
    c_ = std::make_unique<detail::PgConnection>(url_, detail::PgRole::writer);
    c_->execute("CREATE TABLE later (k BIGINT PRIMARY KEY, v TEXT, b BYTEA)");
  }
  // The keys stored, in order, as another session sees them.
  std::string keys() const {
    return scalar(url_, "SELECT coalesce(string_agg(k::text, ',' ORDER BY k), '') FROM later");
  }
  void insert_later(std::int64_t k) { c_->run_later("INSERT INTO later (k) VALUES (?1)", k); }

  TempDir dir_;
  std::string url_;
  std::unique_ptr<detail::PgConnection> c_;
};

// It goes with the next statement whose answer is read, before it and with
// its own values (NULL and bytes included), and commits with its
// transaction.
TEST_F(RunLater, ItRunsBeforeTheNextReadAndCommits) {
  detail::Connection& c = *c_;
  c.begin_write();
  c.run_later("INSERT INTO later (k, v) VALUES (?1, ?2)", std::int64_t{1}, std::string("one"));
  c.run_later("INSERT INTO later (k, v) VALUES (?1, ?2)", std::int64_t{2}, std::nullopt);
  {
    auto q = c.query("INSERT INTO later (k, b) VALUES (?1, ?2)");
    q->bind(1, std::int64_t{3});
    const std::uint8_t bytes[] = {0, 1, 255};
    q->bind_blob(2, bytes);
    q->run_later();
  }
  c.run_later("UPDATE later SET v = v || ?2 WHERE k = ?1", std::int64_t{1}, std::string("+"));
  EXPECT_EQ(c.first_row("SELECT count(*) FROM later", detail::read_int), 3);
  EXPECT_EQ(c.first_row("SELECT v FROM later WHERE k = 1", detail::read_text), "one+");
  EXPECT_EQ(keys(), "");  // not committed yet
  c.query("COMMIT")->run();
  EXPECT_FALSE(c.in_transaction());
  EXPECT_EQ(keys(), "1,2,3");
  EXPECT_EQ(scalar(url_, "SELECT v FROM later WHERE k = 1"), "one+");
  EXPECT_EQ(scalar(url_, "SELECT count(*) FROM later WHERE k = 2 AND v IS NULL"), "1");
  EXPECT_EQ(scalar(url_, "SELECT encode(b, 'hex') FROM later WHERE k = 3"), "0001ff");
}

// One that fails loses its whole transaction: the statement read with it
// throws, nothing of the transaction is committed, and the connection
// writes again once the transaction is abandoned.
TEST_F(RunLater, AFailureLosesItsTransaction) {
  detail::Connection& c = *c_;
  c.execute("INSERT INTO later (k) VALUES (1)");
  c.begin_write();
  c.run("INSERT INTO later (k) VALUES (?1)", std::int64_t{2});
  c.run_deferred("SAVEPOINT op");
  insert_later(1);  // a duplicate key
  insert_later(3);
  EXPECT_THROW(c.first_row("SELECT count(*) FROM later", detail::read_int), StorageError);
  EXPECT_FALSE(c.in_transaction());
  c.abandon_transaction();
  EXPECT_EQ(keys(), "1");

  c.begin_write();
  insert_later(4);
  c.query("COMMIT")->run();
  EXPECT_EQ(keys(), "1,4");
}

// Outside a transaction there is nothing to go with: it runs at once.
TEST_F(RunLater, OutsideATransactionItRunsAtOnce) {
  insert_later(7);
  EXPECT_EQ(keys(), "7");
  EXPECT_THROW(insert_later(7), StorageError);
}

}  // namespace
}  // namespace tilecrush::storage::testing
