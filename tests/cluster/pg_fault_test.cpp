// Faults on PostgreSQL under load (issue #25), on a cluster of their own
// (scripts/cluster.sh: two nodes, nginx, PostgreSQL): a node SIGKILLed in
// the middle of a write transaction; the writer's session ended by
// pg_terminate_backend in the middle of one; PostgreSQL itself restarted
// (pg_ctl restart -m fast). Players play daily games (each new game counts
// an attempt) on both nodes throughout. In each case: every acknowledged
// move is in the database and no game holds anything but the line its
// player saw (tracked_player.hpp), no attempt is counted twice (each
// player's count equals its counted games, numbered 1..n), and the nodes
// that were not killed serve again without being restarted.
//
// "In the middle": the test holds a row lock on one player's game, so the
// writer of that player's node blocks inside its batch's transaction on
// that game's move (pg_blocking_pids names it); the fault strikes then.
//
// Bounded: 8 players, paced; every wait has a deadline; 127.0.0.1 only.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cluster_suite.hpp"
#include "tracked_player.hpp"

namespace tilecrush::testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kPlayersPerNode = 4;
constexpr auto kPace = std::chrono::milliseconds(40);
constexpr auto kBackWithin = std::chrono::seconds(20);

// The test's own session on the cluster's database.
class PgSession {
 public:
  explicit PgSession(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK) {
      throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(conn_));
    }
  }
  ~PgSession() { PQfinish(conn_); }
  PgSession(const PgSession&) = delete;
  PgSession& operator=(const PgSession&) = delete;

  // The rows of a statement (each value as text; NULL as ""); throws when
  // it fails.
  std::vector<std::vector<std::string>> rows(const std::string& sql,
                                             const std::vector<std::string>& params = {}) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    PGresult* r = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, 0);
    const auto status = PQresultStatus(r);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
      const std::string message = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error("PostgreSQL: " + message + " (" + sql + ")");
    }
    std::vector<std::vector<std::string>> out;
    for (int i = 0; i < PQntuples(r); ++i) {
      std::vector<std::string> row;
      for (int j = 0; j < PQnfields(r); ++j) row.emplace_back(PQgetvalue(r, i, j));
      out.push_back(std::move(row));
    }
    PQclear(r);
    return out;
  }
  std::string value(const std::string& sql, const std::vector<std::string>& params = {}) {
    const auto r = rows(sql, params);
    return r.empty() || r[0].empty() ? "" : r[0][0];
  }
  int backend_pid() const { return PQbackendPID(conn_); }

 private:
  PGconn* conn_;
};

class PgFaults : public ClusterSuite<PgFaults> {
 protected:
  void SetUp() override {
    ClusterSuite::SetUp();
    begun_ = Clock::now();
  }
  // However a test ends, its players stop first.
  void TearDown() override { stop_players(); }

  // kPlayersPerNode players on each node, connected to it directly (to the
  // other node when theirs is down), playing daily Same Game boards.
  void start_players(const std::string& prefix) {
    for (const std::string home : {"n1", "n2"}) {
      const std::string away = home == "n1" ? "n2" : "n1";
      TrackedPlayer::Options o;
      o.connect = [home, away](const std::string& name, std::string& token) {
        try {
          return connect_via(cluster_->node_port(home), "/ws", name, token,
                             std::chrono::seconds(5));
        } catch (const std::exception&) {
          return connect_via(cluster_->node_port(away), "/ws", name, token,
                             std::chrono::seconds(5));
        }
      };
      o.new_game = {{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"daily", true}};
      o.pace = kPace;
      for (int i = 0; i < kPlayersPerNode; ++i) {
        players_.push_back(
            std::make_unique<TrackedPlayer>(prefix + home + "-" + std::to_string(i), o));
      }
    }
    for (auto& p : players_) threads_.emplace_back([this, &p] { p->run(stop_); });
  }

  // Every player made progress after `since` (bounded by kBackWithin); the
  // seconds the last one took.
  double wait_all_back(std::int64_t since) {
    const auto deadline = Clock::now() + kBackWithin;
    for (;;) {
      std::int64_t last = 0;
      bool all = true;
      for (auto& p : players_) {
        const std::string failure = p->failure();
        if (!failure.empty()) throw std::runtime_error(failure);
        all = all && p->progress_ns() > since;
        last = std::max(last, p->progress_ns());
      }
      if (all) return static_cast<double>(last - since) / 1e9;
      if (Clock::now() > deadline) {
        std::string out;
        for (auto& p : players_) {
          if (p->progress_ns() <= since) out += "\n  " + p->name() + ": " + p->last_error();
        }
        throw std::runtime_error("players not back after 20 s:" + out);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  void stop_players() {
    stop_ = true;
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

  // Holds a row lock on a game of `player` (playing on its home node) until
  // the node's writer blocks on it inside its transaction; that backend's
  // pid. The caller's `lock` session keeps the transaction open.
  static std::string block_writer_on(PgSession& lock, const std::string& player) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < deadline) {
      const std::string game = lock.value(
          "SELECT g.id FROM games g JOIN players p ON p.id = g.player_id "
          "WHERE p.name = $1 AND g.state = 'playing' ORDER BY g.created_at DESC LIMIT 1",
          {player});
      if (game.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      lock.rows("BEGIN");
      lock.rows("SELECT id FROM games WHERE id = $1 FOR UPDATE", {game});
      const auto until = Clock::now() + std::chrono::seconds(2);
      while (Clock::now() < until) {
        const std::string blocked =
            lock.value("SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
                       {std::to_string(lock.backend_pid())});
        if (!blocked.empty()) return blocked;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      lock.rows("ROLLBACK");  // its game ended meanwhile: another one
    }
    throw std::runtime_error("no writer blocked on " + player + "'s game within 10 s");
  }

  // The end: every game against its player's acknowledged moves, and every
  // attempt counted once.
  void check_everything(const char* fault) {
    stop_players();
    long acked = 0;
    long games = 0;
    long faults = 0;
    for (auto& p : players_) {
      ASSERT_EQ(p->failure(), "");
      acked += p->acked_total();
      faults += p->faults();
      std::string token = p->token();
      auto c = connect_via(cluster_->node_port("n2"), "/ws", p->name(), token);
      for (Tracked t : p->games()) {
        const json resumed = c->request({{"type", "resume"}, {"game_id", t.game_id}});
        ASSERT_EQ(resumed["type"], "game") << resumed;
        EXPECT_EQ(compare_stored(t, resumed["game"]), "") << p->name();
        ++games;
      }
    }
    PgSession db(cluster_->value("PG_URL"));
    // A player's count of attempts is its games there that counted one,
    // numbered 1, 2, ... without a gap or a repeat.
    const auto attempts = db.rows(
        "SELECT p.name, a.started, count(g.id), count(DISTINCT g.attempt), "
        "coalesce(max(g.attempt), 0) FROM attempts a JOIN players p ON p.id = a.player_id "
        "LEFT JOIN games g ON g.competition_id = a.competition_id AND g.player_id = a.player_id "
        "AND g.attempt > 0 GROUP BY p.name, a.started");
    long counted = 0;
    for (const auto& row : attempts) {
      EXPECT_TRUE(row[1] == row[2] && row[2] == row[3] && row[3] == row[4])
          << row[0] << ": attempts counted " << row[1] << ", games " << row[2] << ", distinct "
          << row[3] << ", highest " << row[4];
      counted += std::stol(row[1]);
    }
    EXPECT_GT(acked, 0);
    std::printf(
        "pg fault (%s): %zu players met %ld faults; %ld acknowledged moves, %ld games checked, "
        "%ld attempts counted once each, lost 0; %.1f s\n",
        fault, players_.size(), faults, acked, games, counted,
        std::chrono::duration<double>(Clock::now() - begun_).count());
  }

  static bool alive(const std::string& node) {
    const std::string pid = cluster_->value("NODE_" + node + "_PID");
    return !pid.empty() && ::kill(std::stoi(pid), 0) == 0;
  }

  std::vector<std::unique_ptr<TrackedPlayer>> players_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  Clock::time_point begun_;
};

TEST_F(PgFaults, NodeKilledInTheMiddleOfABatch) {
  start_players("kill-");
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  PgSession lock(cluster_->value("PG_URL"));
  block_writer_on(lock, "kill-n1-0");
  const std::int64_t fault_at = steady_now_ns();
  cluster_->kill_node("n1");
  // The dead node's transaction goes on until the lock is free; then its
  // backend finds its client gone and rolls it back.
  lock.rows("ROLLBACK");
  const double back = wait_all_back(fault_at);
  std::printf("pg fault (SIGKILL mid-batch): every player playing again %.2f s after\n", back);
  EXPECT_TRUE(alive("n2"));
  cluster_->restart_node("n1");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  check_everything("SIGKILL mid-batch");
}

TEST_F(PgFaults, WritersSessionTerminatedInTheMiddleOfATransaction) {
  const std::string n1_pid = cluster_->value("NODE_n1_PID");
  start_players("term-");
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  PgSession lock(cluster_->value("PG_URL"));
  const std::string writer = block_writer_on(lock, "term-n1-0");
  const std::int64_t fault_at = steady_now_ns();
  EXPECT_EQ(lock.value("SELECT pg_terminate_backend($1)", {writer}), "t");
  lock.rows("ROLLBACK");
  const double back = wait_all_back(fault_at);
  std::printf("pg fault (writer terminated): every player playing again %.2f s after\n", back);
  // Served again by the same processes.
  EXPECT_EQ(cluster_->value("NODE_n1_PID"), n1_pid);
  EXPECT_TRUE(alive("n1"));
  EXPECT_TRUE(alive("n2"));
  check_everything("writer terminated");
}

TEST_F(PgFaults, PostgresRestartedUnderLoad) {
  const std::string n1_pid = cluster_->value("NODE_n1_PID");
  const std::string n2_pid = cluster_->value("NODE_n2_PID");
  start_players("restart-");
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  const std::int64_t fault_at = steady_now_ns();
  cluster_->restart_postgres();
  const double restarted = static_cast<double>(steady_now_ns() - fault_at) / 1e9;
  const double back = wait_all_back(steady_now_ns());
  std::printf(
      "pg fault (PostgreSQL restarted): restart took %.2f s; every player playing again %.2f s "
      "after it was up\n",
      restarted, back);
  EXPECT_EQ(cluster_->value("NODE_n1_PID"), n1_pid);
  EXPECT_EQ(cluster_->value("NODE_n2_PID"), n2_pid);
  EXPECT_TRUE(alive("n1"));
  EXPECT_TRUE(alive("n2"));
  check_everything("PostgreSQL restarted");
}

}  // namespace
}  // namespace tilecrush::testing
