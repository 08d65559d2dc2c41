// The HTTP API beyond leaderboards: game records and their verification,
// daily boards, the leaderboard's index, and a second read-only reader of
// the database while the server writes.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "itest_util.hpp"
#include "test_server.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::testing {
namespace {

json expected_moves(const game::Game& g) {
  json out = json::array();
  for (const auto& m : g.moves()) {
    json row = {std::string(game::to_string(m.kind)), m.a.x, m.a.y};
    if (m.kind == game::MoveKind::swap) {
      row.push_back(m.b.x);
      row.push_back(m.b.y);
    }
    out.push_back(row);
  }
  return out;
}

bool is_iso_time(const json& v) {
  if (!v.is_string()) return false;
  const std::string s = v;
  return s.size() == 24 && s[4] == '-' && s[10] == 'T' && s.back() == 'Z';
}

TEST(HttpApi, GameRecordsOfEveryModeAndTheirVerification) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  c.hello("recorder");
  std::mt19937 rng(3);
  for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
    const std::string preset(game::presets(mode).back().name);
    SCOPED_TRACE(preset);
    const json view =
        start_game(c, {{"mode", game::to_string(mode)}, {"preset", preset}, {"seed", "rec"}});
    const std::string id = view["game_id"];
    auto local = make_local(preset_setup(mode, preset, "rec"));
    // Unfinished: no record, no verification.
    EXPECT_EQ(http_get(ts.port(), "/api/games/" + id).status, 404u);
    EXPECT_EQ(http_get(ts.port(), "/api/games/" + id + "/verify").status, 404u);
    for (int i = 0; i < 12 && !local->over(); ++i) play_move(c, id, *local, pick_move(*local, rng));
    if (mode == game::Mode::same) {  // an undone move leaves the list
      ASSERT_TRUE(local->undo().ok());
      EXPECT_EQ(c.request({{"type", "undo"}, {"game_id", id}})["type"], "game");
    }
    if (!local->over()) {
      EXPECT_EQ(http_get(ts.port(), "/api/games/" + id).status, 404u);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    game::EventList events;
    const bool resigned = local->resign(events).ok();
    if (resigned) c.request({{"type", "resign"}, {"game_id", id}});

    const HttpResult record = http_get(ts.port(), "/api/games/" + id);
    ASSERT_EQ(record.status, 200u) << record.body;
    EXPECT_NE(record.content_type.find("application/json"), std::string::npos);
    const json r = record.json_body();
    EXPECT_EQ(r["game_id"], id);
    EXPECT_EQ(r["player"], "recorder");
    EXPECT_EQ(r["mode"], game::to_string(mode));
    EXPECT_EQ(r["preset"], preset);
    EXPECT_EQ(r["seed"], "rec");
    EXPECT_EQ(r["ranked"], true);
    EXPECT_EQ(r["rules_version"], game::kRulesVersion);
    // A casual board never closes: the moves of its hidden and match-3
    // games would teach its secret colours, so they are never published.
    if (mode == game::Mode::same) {
      EXPECT_EQ(r["moves"], expected_moves(*local));
    } else {
      EXPECT_TRUE(r["moves"].is_null()) << r;
    }
    EXPECT_EQ(r["score"], local->score());
    EXPECT_TRUE(r["duration_ms"].is_number_integer());
    if (resigned) {
      EXPECT_GE(r["duration_ms"].get<std::int64_t>(), 60);
    }
    EXPECT_TRUE(is_iso_time(r["finished_at"])) << r["finished_at"];
    const json v = http_get(ts.port(), "/api/games/" + id + "/verify").json_body();
    EXPECT_EQ(v, json({{"valid", true}, {"score", local->score()}}));
    // Replaying the published moves gives the published score.
    const game::ReplayResult replayed =
        game::replay(with_test_key(preset_setup(mode, preset, "rec")), local->moves());
    ASSERT_TRUE(replayed.game);
    EXPECT_EQ(replayed.game->score(), local->score());
    EXPECT_EQ(replayed.game->state_hash(), local->state_hash());
  }
  EXPECT_EQ(http_get(ts.port(), "/api/games/0000000000000000").status, 404u);
  EXPECT_EQ(http_get(ts.port(), "/api/games/0000000000000000/verify").status, 404u);
  EXPECT_EQ(http_get(ts.port(), "/api/games/0000000000000000").json_body()["error"]["code"],
            "not_found");
}

TEST(HttpApi, PracticeRecordsCarryTheirBoard) {
  TestServer ts;
  WsClient c(ts.port());
  c.hello("practicer");
  const json rows = {{1, 2, 2}, {1, 3, 3}, {1, 2, 3}};
  const json view = start_game(c, {{"mode", "same"}, {"board", rows}, {"seed", "demo"}});
  const std::string id = view["game_id"];
  EXPECT_EQ(view["ranked"], false);
  EXPECT_EQ(view["preset"], nullptr);
  EXPECT_EQ(view["board"], rows);
  game::GameSetup setup;
  setup.mode = game::Mode::same;
  setup.seed = "demo";
  setup.board = board_from_rows(rows);
  auto local = make_local(setup);
  play_move(c, id, *local, {game::MoveKind::click, {0, 0}, {}});
  c.request({{"type", "resign"}, {"game_id", id}});
  const json r = http_get(ts.port(), "/api/games/" + id).json_body();
  EXPECT_TRUE(has_fields(r, {{"ranked", false},
                             {"preset", nullptr},
                             {"width", 3},
                             {"height", 3},
                             {"colors", 3},
                             {"moves_left", nullptr},
                             {"board", rows},
                             {"moves", json::array({json::array({"click", 0, 0})})},
                             {"score", 1}}));
  EXPECT_EQ(http_get(ts.port(), "/api/games/" + id + "/verify").json_body(),
            json({{"valid", true}, {"score", 1}}));

  // A match-3 practice game with a budget reports what is left.
  const json m3 =
      start_game(c, {{"mode", "match3"}, {"width", 5}, {"height", 5}, {"colors", 4}, {"moves", 9}});
  game::GameSetup m3_setup;
  m3_setup.mode = game::Mode::match3;
  m3_setup.width = m3_setup.height = 5;
  m3_setup.colors = 4;
  m3_setup.moves = 9;
  m3_setup.seed = m3["seed"];
  auto m3_local = make_local(m3_setup);
  std::mt19937 rng(4);
  for (int i = 0; i < 2 && !m3_local->over(); ++i) {
    play_move(c, m3["game_id"], *m3_local, pick_move(*m3_local, rng));
  }
  c.request({{"type", "resign"}, {"game_id", m3["game_id"]}});
  const json mr = http_get(ts.port(), "/api/games/" + m3["game_id"].get<std::string>()).json_body();
  EXPECT_EQ(mr["moves_left"], *m3_local->moves_left());
  EXPECT_EQ(mr["width"], 5);
  EXPECT_EQ(mr["colors"], 4);
  EXPECT_EQ(http_get(ts.port(), "/api/players/practicer").json_body()["games_played"], 0);
}

// SERVER BUG (reported, not fixed here): a custom board with no move is
// answered over: true as soon as the game's creation commits, while its
// finish_game write may still be queued (GameService::register_game), so
// /api/games/{id} is briefly 404 for a game the player was told is over
// (and stays 404 if the process dies in between). Fails in about one round
// in twenty; 50 rounds per mode make it show almost every run.
TEST(HttpApi, APracticeGameWithNoMoveAtTheStartIsFinishedAndRecorded) {
  TestServer ts;
  WsClient c(ts.port());
  c.hello("stuck");
  const json rows = {{1, 2}, {2, 1}};
  int missing = 0;
  for (int round = 0; round < 50; ++round) {
    for (const std::string mode : {"same", "hidden"}) {
      SCOPED_TRACE(mode);
      const json view = start_game(c, {{"mode", mode}, {"board", rows}});
      ASSERT_EQ(view["over"], true);
      EXPECT_EQ(view["score"], 0);
      const std::string id = view["game_id"];
      // Already finished when the game was answered: it has a record at once.
      const HttpResult record = http_get(ts.port(), "/api/games/" + id);
      if (record.status != 200u) {
        ++missing;
        continue;
      }
      EXPECT_EQ(record.json_body()["moves"], json::array());
      EXPECT_EQ(record.json_body()["board"], rows);
      EXPECT_EQ(http_get(ts.port(), "/api/games/" + id + "/verify").json_body(),
                json({{"valid", true}, {"score", 0}}));
      EXPECT_TRUE(is_error(c.request({{"type", "resign"}, {"game_id", id}}), "not_allowed"));
    }
  }
  EXPECT_EQ(missing, 0) << missing << " of 100 games answered over had no record yet";
}

TEST(HttpApi, TheOpenApiDocumentIsTheOneInTheRepository) {
  TestServer ts(unthrottled_config());
  const HttpResult r = http_get(ts.port(), "/api/openapi.json");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.content_type, "application/json");
  std::ifstream file(std::string(TILECRUSH_SOURCE_DIR) + "/protocol/schema/openapi.json",
                     std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  ASSERT_FALSE(text.str().empty());
  EXPECT_EQ(r.body, text.str());
  const json doc = r.json_body();
  EXPECT_EQ(doc["openapi"], "3.1.0");
  // Every path the server routes is described (the schemas themselves are
  // checked against every answer by tests/schema/check_recorded.mjs).
  for (const char* path :
       {"/api/health", "/api/daily", "/api/leaderboard", "/api/leaderboard/around",
        "/api/players/{name}", "/api/games/{id}", "/api/games/{id}/verify", "/api/competitions",
        "/api/competitions/{id}", "/api/competitions/{id}/leaderboard",
        "/api/competitions/{id}/leaderboard/around", "/api/competitions/{id}/results",
        "/api/competitions/{id}/disqualify", "/api/openapi.json", "/metrics"}) {
    EXPECT_TRUE(doc["paths"].contains(path)) << path;
  }
}

TEST(HttpApi, HealthAndDailyBoards) {
  TestServer ts;
  const json health = http_get(ts.port(), "/api/health").json_body();
  EXPECT_EQ(health["status"], "ok");
  EXPECT_TRUE(health["version"].is_string());
  EXPECT_TRUE(health["uptime_s"].is_number_integer());

  const std::string before = today_utc();
  const json daily = http_get(ts.port(), "/api/daily").json_body();
  const std::string after = today_utc();
  EXPECT_TRUE(daily["date"] == before || daily["date"] == after) << daily;
  const auto resets = daily["resets_in_s"].get<std::int64_t>();
  EXPECT_GE(resets, 1);
  EXPECT_LE(resets, 86400);
  std::size_t expected_boards = 0;
  for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
    for (const game::Preset& p : game::presets(mode)) {
      ++expected_boards;
      // Each board is its daily competition's, with its commitment.
      bool found = false;
      for (const json& b : daily["boards"]) {
        if (b["mode"] != game::to_string(mode) || b["preset"] != p.name) continue;
        found = true;
        EXPECT_EQ(b["seed"], daily["date"]);
        EXPECT_EQ(b["competition"], "daily-" + daily["date"].get<std::string>() + "-" +
                                        std::string(game::to_string(mode)) + "-" +
                                        std::string(p.name));
        EXPECT_EQ(b["commitment"].get<std::string>().size(), 64u);
        EXPECT_TRUE(b["key"].is_null());
      }
      EXPECT_TRUE(found) << game::to_string(mode) << " " << p.name;
    }
  }
  EXPECT_EQ(daily["boards"].size(), expected_boards);
  // Tomorrow's boards are committed to already.
  EXPECT_EQ(daily["tomorrow"]["boards"].size(), expected_boards);
  EXPECT_NE(daily["tomorrow"]["date"], daily["date"]);
}

TEST(HttpApi, DailyGamesUseTodaysDateAndFeedTheDailyBoard) {
  TestServer ts;
  WsClient c(ts.port());
  c.hello("daily");
  for (const auto& [mode, preset] : first_presets()) {
    const std::string before = today_utc();
    const json view =
        start_game(c, {{"mode", game::to_string(mode)}, {"preset", preset}, {"daily", true}});
    const std::string after = today_utc();
    const std::string seed = view["seed"];
    EXPECT_TRUE(seed == before || seed == after) << seed;
    EXPECT_EQ(view["ranked"], true);
    const std::string competition =
        "daily-" + seed + "-" + std::string(game::to_string(mode)) + "-" + preset;
    EXPECT_EQ(view["competition"], competition);
    EXPECT_EQ(view["attempt"], 1);
    // The daily board is its competition's own: not the casual board of the
    // date's label.
    game::GameSetup setup = preset_setup(mode, preset, seed);
    setup.board_key = test_board_key(competition, static_cast<int>(mode), preset, seed);
    auto local = make_local(setup);
    EXPECT_EQ(view, expected_view(*local, view["game_id"], view));
    EXPECT_NE(make_local(preset_setup(mode, preset, seed))->board(), local->board());
    c.request({{"type", "resign"}, {"game_id", view["game_id"]}});
    const json lb =
        http_get(ts.port(), "/api/competitions/" + competition + "/leaderboard").json_body();
    ASSERT_EQ(lb["total"], 1) << lb;
    EXPECT_EQ(lb["entries"][0]["player"], "daily");
    EXPECT_EQ(lb["entries"][0]["game_id"], view["game_id"]);
  }
  // daily with a seed is contradictory.
  EXPECT_TRUE(is_error(c.request({{"type", "new_game"},
                                  {"mode", "same"},
                                  {"preset", "easy"},
                                  {"daily", true},
                                  {"seed", "x"}}),
                       "bad_request"));
}

TEST(HttpApi, TheLeaderboardQueryUsesAnIndex) {
  TestServer ts;
  const std::string plan = ts.server().database().leaderboard_query_plan();
  SCOPED_TRACE(plan);
  EXPECT_NE(plan.find("INDEX"), std::string::npos);
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos);
  const std::string rank_plan = ts.server().database().leaderboard_rank_query_plan();
  SCOPED_TRACE(rank_plan);
  EXPECT_NE(rank_plan.find("INDEX"), std::string::npos);
  EXPECT_EQ(rank_plan.find("TEMP B-TREE"), std::string::npos);
}

TEST(HttpApi, ASecondReaderReadsTheLeaderboardWhileTheServerWrites) {
  TestServer ts;
  storage::Options options;
  options.path = ts.config().db;
  options.read_only = true;
  options.readers = 1;
  storage::Database reader(options);
  const storage::BoardKey board{game::Mode::same, "easy", "concurrent", ""};

  constexpr int kPlayers = 20;
  std::atomic<bool> writing{true};
  std::thread writer([&] {
    for (int i = 0; i < kPlayers; ++i) {
      WsClient c(ts.port());
      c.hello("reader-" + std::to_string(i));
      const json view =
          start_game(c, {{"mode", "same"}, {"preset", "easy"}, {"seed", "concurrent"}});
      c.request({{"type", "resign"}, {"game_id", view["game_id"]}});
    }
    writing = false;
  });
  std::int64_t last_total = 0;
  int reads = 0;
  while (writing) {
    const storage::LeaderboardPage page = reader.leaderboard(board, 100, 0);
    EXPECT_GE(page.total, last_total);
    EXPECT_EQ(page.entries.size(), static_cast<std::size_t>(page.total));
    last_total = page.total;
    ++reads;
  }
  writer.join();
  EXPECT_GT(reads, 0);
  const storage::LeaderboardPage final_page = reader.leaderboard(board, 100, 0);
  EXPECT_EQ(final_page.total, kPlayers);
  for (std::size_t i = 0; i < final_page.entries.size(); ++i) {
    EXPECT_EQ(final_page.entries[i].rank, static_cast<std::int64_t>(i + 1));
  }
  reader.close();
}

}  // namespace
}  // namespace tilecrush::testing
