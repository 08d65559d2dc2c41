// Commit, then reveal (docs/rules.md, "Rules version 2"): commitments are
// public before a board opens, nothing that teaches its secrets leaves the
// server while it is open, and after the close the key is revealed, equals
// the commitment, and lets tilecrush_verify replay every entry of the
// export (and catch a tampered one). The dailies the same way.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

// Raw SQL on the server's database file, as an attacker with disk access
// would (WAL lets it write beside the server).
void tamper(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST(CommitReveal, NothingLeaksWhileOpenAndEverythingVerifiesAfterTheClose) {
  CompetitionServer cs;
  for (const char* mode : {"hidden", "match3", "same"}) {
    SCOPED_TRACE(mode);
    const json c = cs.create(cs.ann(), {{"mode", mode}, {"preset", "classic"}}, 0, 600'000);
    const std::string id = c["id"];
    const std::string commitment = c["commitment"];
    std::vector<std::string> game_ids;
    for (int p = 0; p < 3; ++p) {
      WsClient ws(cs.port());
      ws.hello(std::string(mode) + "-player-" + std::to_string(p));
      const json g = start_attempt(ws, id)["game"];
      auto local = CompetitionServer::local_copy(c);
      std::mt19937 rng(static_cast<std::uint32_t>(p + 11));
      if (p == 0) {
        play_to_end(ws, g["game_id"], *local, rng);
      } else if (p == 1) {
        for (int i = 0; i < 4 && !local->over(); ++i) {
          play_move(ws, g["game_id"], *local, pick_move(*local, rng));
        }
        ws.request({{"type", "resign"}, {"game_id", g["game_id"]}});
      } else {
        // p == 2 is still playing at the close: 8 moves after none of which
        // its game ended, whatever board this run's random key dealt.
        std::vector<game::Move> line;
        ASSERT_TRUE(extend_keeping_open(*local, 8, rng, line)) << "no 8 moves keep it open";
        for (const game::Move& m : line) play_move(ws, g["game_id"], *local, m);
        ASSERT_FALSE(local->over());
      }
      game_ids.push_back(g["game_id"]);
    }
    // Open: scores only. No key, no move list of another player's game.
    const json open = cs.get("/api/competitions/" + id + "/results").json_body();
    EXPECT_TRUE(open["competition"]["key"].is_null());
    for (const json& e : open["entries"]) EXPECT_TRUE(e["moves"].is_null()) << e;
    // Not even in Same Game: a move list is a solution of the board.
    const json record = cs.get("/api/games/" + game_ids[0]).json_body();
    EXPECT_TRUE(record["moves"].is_null()) << record;
    const HttpResult open_page = cs.get("/api/competitions/" + id + "/leaderboard");
    EXPECT_EQ(open_page.cache_control, "public, max-age=2");

    cs.advance_ms(600'000);
    const json closed = cs.get("/api/competitions/" + id).json_body();
    EXPECT_EQ(closed["state"], "closed");
    EXPECT_EQ(closed["commitment"], commitment);
    const auto key = game::digest_from_hex(closed["key"].get<std::string>());
    ASSERT_TRUE(key);
    EXPECT_EQ(game::commitment(*key), commitment);
    const json results = cs.get("/api/competitions/" + id + "/results").json_body();
    ASSERT_EQ(results["entries"].size(), 3u) << results;
    for (const json& e : results["entries"]) {
      EXPECT_TRUE(e["moves"].is_array()) << e;
      EXPECT_EQ(e["flags"], json::array()) << e;
    }
    // The game still running at the close ended then, at its score.
    const json ended = cs.get("/api/games/" + game_ids[2]).json_body();
    EXPECT_EQ(ended["moves"].size(), 8u) << ended;
    const json replay = cs.get("/api/games/" + game_ids[2] + "/replay").json_body();
    ASSERT_EQ(replay["steps"].size(), 9u) << replay;
    EXPECT_EQ(replay["steps"][7]["over"], false) << replay;
    EXPECT_EQ(replay["steps"][8]["events"], json::array({{{"kind", "game_over"},
                                                          {"reason", "closed"},
                                                          {"bonus", 0},
                                                          {"final_score", ended["score"]}}}))
        << replay;
    // Closed, its closing work done: caches may keep its pages for long.
    const HttpResult closed_page = cs.get("/api/competitions/" + id + "/leaderboard");
    EXPECT_EQ(closed_page.cache_control, "public, max-age=3600");
    EXPECT_NE(closed_page.etag, open_page.etag);
    EXPECT_EQ(
        http_request(cs.port(), beast::http::verb::get,
                     "/api/competitions/" + id + "/leaderboard/around?player=" + mode + "-player-0",
                     "", "", closed_page.etag)
            .status,
        304u);
    EXPECT_EQ(run_verify(cs.ts().dir(), results, std::string(mode) + "-ok"), 0);
    json tampered = results;
    tampered["entries"][1]["score"] = tampered["entries"][1]["score"].get<std::int64_t>() + 1;
    EXPECT_EQ(run_verify(cs.ts().dir(), tampered, std::string(mode) + "-bad"), 1);
    json wrong_key = results;
    wrong_key["competition"]["key"] = std::string(64, '0');
    EXPECT_EQ(run_verify(cs.ts().dir(), wrong_key, std::string(mode) + "-key"), 1);
  }
}

TEST(CommitReveal, AnEntryThatDoesNotReplayIsFlaggedAtTheClose) {
  // Forges a move straight into the SQLite file.
  if (postgres_run()) GTEST_SKIP() << "edits the SQLite file";
  CompetitionServer cs;
  const json c = cs.create(cs.ann(), {{"mode", "same"}, {"preset", "easy"}}, 0, 600'000);
  const std::string id = c["id"];
  WsClient ws(cs.port());
  ws.hello("forger");
  const json g = start_attempt(ws, id)["game"];
  auto local = CompetitionServer::local_copy(c);
  std::mt19937 rng(2);
  play_to_end(ws, g["game_id"], *local, rng);
  tamper(cs.ts().config().db, "UPDATE leaderboard SET score = score + 50 WHERE game_id = '" +
                                  g["game_id"].get<std::string>() + "'");
  cs.advance_ms(600'000);
  const json results = cs.get("/api/competitions/" + id + "/results").json_body();
  ASSERT_EQ(results["entries"].size(), 1u) << results;
  EXPECT_EQ(results["entries"][0]["flags"], json::array({"replay_failed"})) << results;
  EXPECT_EQ(run_verify(cs.ts().dir(), results, "forged"), 1);
}

// After the close a board is a puzzle for anyone: new_game on it is
// unranked practice on exactly that board, which neither counts an
// attempt, nor enters the results, nor is ended by the close.
TEST(ClosedBoards, AnyoneMayPracticeAClosedBoardUnranked) {
  CompetitionServer cs;
  const json c =
      cs.create(cs.ann(), {{"mode", "same"}, {"preset", "classic"}, {"attempts", 1}}, 0, 600'000);
  const std::string id = c["id"];
  std::mt19937 rng(5);
  WsClient early(cs.port());
  early.hello("early-bird");
  const json started = start_attempt(early, id);
  ASSERT_TRUE(started.contains("game")) << started;
  const json entry = started["game"];
  auto played = CompetitionServer::local_copy(c);
  play_to_end(early, entry["game_id"], *played, rng);

  cs.advance_ms(600'000);
  const json before = cs.get("/api/competitions/" + id + "/results").json_body();
  WsClient late(cs.port());
  late.hello("late-comer");
  // Someone who never played it, and the entrant whose one attempt is used.
  for (WsClient* player : {&late, &early}) {
    WsClient& ws = *player;
    const json reply = start_attempt(ws, id);
    ASSERT_TRUE(reply.contains("game")) << reply;
    const json g = reply["game"];
    EXPECT_EQ(g["competition"], id);
    EXPECT_EQ(g["ranked"], false);
    EXPECT_TRUE(g["attempt"].is_null());
    EXPECT_EQ(g["commitment"], c["commitment"]);
    EXPECT_EQ(g["board"], entry["board"]);
    auto local = CompetitionServer::local_copy(c);
    play_to_end(ws, g["game_id"], *local, rng);
    const json record = cs.get("/api/games/" + g["game_id"].get<std::string>()).json_body();
    EXPECT_EQ(record["ranked"], false);
    EXPECT_EQ(record["score"], local->score());
  }
  // Nothing ends it later: a closed board's practice has no close of its own.
  WsClient idle(cs.port());
  idle.hello("idler");
  const json idle_reply = start_attempt(idle, id);
  ASSERT_TRUE(idle_reply.contains("game")) << idle_reply;
  const json waiting = idle_reply["game"];
  cs.advance_ms(60'000);
  const json resumed = idle.request({{"type", "resume"}, {"game_id", waiting["game_id"]}});
  EXPECT_EQ(resumed["game"]["over"], false) << resumed;
  EXPECT_EQ(cs.get("/api/competitions/" + id + "/results").json_body(), before);
}

TEST(Dailies, CommittedTheDayBeforeRevealedTheDayAfterOneRankedAttempt) {
  CompetitionServer cs;
  const json today = cs.get("/api/daily").json_body();
  ASSERT_EQ(today["date"], "2030-01-01");
  ASSERT_EQ(today["tomorrow"]["date"], "2030-01-02");
  std::map<std::string, std::string> tomorrow_commitments;
  for (const json& b : today["tomorrow"]["boards"]) {
    tomorrow_commitments[b["competition"]] = b["commitment"];
  }
  const std::string id = "daily-2030-01-01-hidden-classic";
  json board;
  for (const json& b : today["boards"]) {
    if (b["competition"] == id) board = b;
  }
  ASSERT_TRUE(board.is_object()) << today;

  WsClient ws(cs.port());
  ws.hello("dana");
  const json first = start_game(ws, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  EXPECT_EQ(first["competition"], id);
  EXPECT_EQ(first["attempt"], 1);
  EXPECT_EQ(first["ranked"], true);
  EXPECT_EQ(first["commitment"], board["commitment"]);
  // A second daily game: the same board, unranked practice.
  const json second = start_game(ws, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  EXPECT_EQ(second["competition"], id);
  EXPECT_TRUE(second["attempt"].is_null());
  EXPECT_EQ(second["ranked"], false);
  EXPECT_EQ(second["board"], first["board"]);
  // Same Game dailies count every attempt.
  const json same1 = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
  const json same2 = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
  EXPECT_EQ(same2["attempt"], 2);
  EXPECT_EQ(same2["ranked"], true);
  (void)same1;

  json competition_json;
  competition_json["id"] = id;
  competition_json["mode"] = "hidden";
  competition_json["preset"] = "classic";
  competition_json["seed"] = "2030-01-01";
  auto local = CompetitionServer::local_copy(competition_json);
  std::mt19937 rng(8);
  for (int i = 0; i < 5 && !local->over(); ++i)
    play_move(ws, first["game_id"], *local, pick_move(*local, rng));
  EXPECT_TRUE(cs.get("/api/daily?date=2030-01-01").json_body()["boards"][0]["key"].is_null());

  // Midnight UTC: yesterday's keys are revealed, today's were committed to
  // yesterday, and yesterday's running game ended at its score.
  cs.advance_ms(14LL * 3'600'000);
  const json next = cs.get("/api/daily").json_body();
  ASSERT_EQ(next["date"], "2030-01-02");
  for (const json& b : next["boards"]) {
    EXPECT_EQ(b["commitment"], tomorrow_commitments[b["competition"]]) << b;
  }
  const json past = cs.get("/api/daily?date=2030-01-01").json_body();
  for (const json& b : past["boards"]) {
    ASSERT_TRUE(b["key"].is_string()) << b;
    EXPECT_EQ(game::commitment(*game::digest_from_hex(b["key"].get<std::string>())),
              b["commitment"]);
  }
  const json resumed = ws.request({{"type", "resume"}, {"game_id", first["game_id"]}});
  EXPECT_EQ(resumed["game"]["over"], true) << resumed;
  EXPECT_EQ(resumed["game"]["score"], local->score());
  EXPECT_EQ(cs.get("/api/daily?date=2031-05-05").status, 404u);
  EXPECT_EQ(cs.get("/api/daily?date=yesterday").status, 400u);
}

}  // namespace
}  // namespace tilecrush::testing
