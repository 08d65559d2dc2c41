// One batch of the writer holding moves of several games: each move is
// judged as if alone.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <future>
#include <optional>
#include <vector>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

// Runs `sql` (statements without rows) on a session of its own; whether
// every statement succeeded.
bool run_plain_sql(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  bool ok = false;
  if (PQstatus(conn) == CONNECTION_OK) {
    PGresult* r = PQexec(conn, sql.c_str());
    ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
  }
  PQfinish(conn);
  return ok;
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
    ASSERT_TRUE(store_game(db, ranked_game(id, alice, board)).ok());
  }
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db.finish_game(GameResult{"g5", 0, 10, game::OverReason::no_moves, 5, 1000}, cb);
              }).ok());
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
    // g3 read afresh (else its moves after the refused one are refused too:
    // Database::reload_game); its move 1 runs.
    db.reload_game("g3");
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

// Moves of one batch with other writes between them: a game created, another
// ended, a game's last move and end, an undo. On PostgreSQL the writer
// stores the moves together after the writes of other games and before
// any write of their own game; every write still gets the result it would
// get in the order queued. Both backends.
TEST(MoveBatch, WritesOfOtherGamesBetweenMovesChangeNoResult) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId alice = make_player(db, "alice");
  const BoardKey board{game::Mode::same, "easy", "between", ""};
  for (const char* id : {"g1", "g2", "g3"}) {
    ASSERT_TRUE(store_game(db, ranked_game(id, alice, board)).ok());
  }
  std::vector<std::pair<std::string, std::future<WriteResult>>> sent;
  const auto callback = [&](const std::string& what) {
    auto p = std::make_shared<std::promise<WriteResult>>();
    sent.emplace_back(what, p->get_future());
    return [p](const WriteResult& r) { p->set_value(r); };
  };
  const auto move = [&](const std::string& id, std::int64_t seq) {
    db.append_move(id, seq, click(static_cast<int>(seq), 1), seq * 10, seq + 1,
                   seq == 0 ? std::optional<std::int64_t>(2000) : std::nullopt, 100 * seq,
                   callback(id + " move " + std::to_string(seq)));
  };
  const auto end = [&](const std::string& id, std::int64_t moves) {
    return GameResult{id, 50, moves, game::OverReason::no_moves, 3000, 1000, true};
  };
  {
    WriterGate gate(db);
    move("g1", 0);
    db.create_game(ranked_game("g4", alice, board), callback("g4 created"));
    move("g2", 0);
    db.finish_game(end("g3", 0), callback("g3 ended"));
    move("g1", 1);
    move("g4", 0);
    db.append_final_move(click(2, 1), std::nullopt, 200, end("g1", 3), callback("g1 last"));
    move("g1", 3);  // over
    move("g2", 1);
    db.undo_move("g2", 1, 0, 1, callback("g2 undo"));
    move("g2", 1);
    move("g2", 3);  // not the next: refused, and g2's later writes with it
    move("g4", 1);
    move("g2", 2);
  }
  const std::vector<WriteStatus> expected = {
      WriteStatus::ok, WriteStatus::ok,      WriteStatus::ok, WriteStatus::ok,
      WriteStatus::ok, WriteStatus::ok,      WriteStatus::ok, WriteStatus::conflict,
      WriteStatus::ok, WriteStatus::ok,      WriteStatus::ok, WriteStatus::conflict,
      WriteStatus::ok, WriteStatus::conflict};
  ASSERT_EQ(sent.size(), expected.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const WriteResult r = sent[i].second.get();
    EXPECT_EQ(r.status, expected[i]) << sent[i].first << ": " << r.message;
  }
  const auto g1 = db.load_game("g1");
  ASSERT_TRUE(g1);
  EXPECT_EQ(g1->state, GameState::over);
  EXPECT_EQ(g1->moves, (std::vector<game::Move>{click(0, 1), click(1, 1), click(2, 1)}));
  EXPECT_EQ(g1->move_times, (std::vector<std::int64_t>{0, 100, 200}));
  const auto g2 = db.load_game("g2");
  ASSERT_TRUE(g2);
  EXPECT_EQ(g2->state, GameState::playing);
  EXPECT_EQ(g2->moves, (std::vector<game::Move>{click(0, 1), click(1, 1)}));
  EXPECT_EQ(g2->move_count, 2);
  EXPECT_EQ(db.load_game("g3")->state, GameState::over);
  const auto g4 = db.load_game("g4");
  ASSERT_TRUE(g4);
  EXPECT_EQ(g4->moves, (std::vector<game::Move>{click(0, 1), click(1, 1)}));
  EXPECT_EQ(g4->first_move_at, 2000);
}

// PostgreSQL: the batch's statement finds each game by its primary key,
// even where the table's statistics say that no game is playing (analyzed
// when every game was over, then many started: a young table, or one
// analyzed at a quiet hour). Written `state = 'playing'`, it was planned
// through the partial index games_playing there, reading every playing
// game for each batch. The rows are copied by SQL: thousands of games
// through the writer would take seconds.
TEST(MoveBatch, EachGameIsFoundByItsPrimaryKeyWhateverTheStatistics) {
  SKIP_UNLESS_POSTGRES();
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId alice = make_player(db, "alice");
  ASSERT_TRUE(store_game(db, custom_game("over", alice, game::Mode::same, "s", 5, 5, 3)).ok());
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db.finish_game(GameResult{"over", 0, 0, game::OverReason::no_moves, 5, 1000}, cb);
              }).ok());
  ASSERT_TRUE(store_game(db, custom_game("playing", alice, game::Mode::same, "s", 5, 5, 3)).ok());
  const auto copies = [](const std::string& of, const std::string& prefix, int n) {
    return "INSERT INTO games SELECT (json_populate_record(g, json_build_object('id', '" + prefix +
           "' || i))).* FROM games AS g, generate_series(1, " + std::to_string(n) +
           ") AS i WHERE g.id = '" + of + "';";
  };
  ASSERT_TRUE(run_plain_sql(dir.file(), copies("over", "o", 5000) + " ANALYZE games;"));
  ASSERT_TRUE(run_plain_sql(dir.file(), copies("playing", "p", 400)));

  const std::string plan = db.move_batch_query_plan();
  SCOPED_TRACE(plan);
  EXPECT_NE(plan.find("games_pkey"), std::string::npos);
  EXPECT_EQ(plan.find("games_playing"), std::string::npos);
  EXPECT_EQ(plan.find("Seq Scan on games"), std::string::npos);
}

}  // namespace
}  // namespace tilecrush::storage::testing
