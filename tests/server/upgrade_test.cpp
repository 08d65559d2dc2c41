// Rules version 1 games stay replayable and verifiable after the upgrade to
// rules version 2 (schema 5): tests/data/v1/release-schema4.db was written
// by the release before it (schema 4), with finished games of every mode,
// practice games, dailies, a resigned game and unfinished ones on it.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "itest_util.hpp"
#include "server.hpp"

namespace tilecrush::testing {
namespace {

struct StoredGame {
  std::string id, mode, preset, seed, state;
  std::int64_t score = 0, move_count = 0, ranked = 0;
};

std::vector<StoredGame> stored_games(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(
      db,
      "SELECT id, mode, coalesce(preset, ''), seed, state, score, move_count, ranked "
      "FROM games ORDER BY id",
      -1, &q, nullptr);
  std::vector<StoredGame> out;
  while (sqlite3_step(q) == SQLITE_ROW) {
    auto text = [q](int i) {
      return std::string(reinterpret_cast<const char*>(sqlite3_column_text(q, i)));
    };
    out.push_back({text(0), text(1), text(2), text(3), text(4), sqlite3_column_int64(q, 5),
                   sqlite3_column_int64(q, 6), sqlite3_column_int64(q, 7)});
  }
  sqlite3_finalize(q);
  sqlite3_close(db);
  return out;
}

TEST(Upgrade, RulesVersion1GamesStillVerifyAfterTheUpgrade) {
  const auto dir = make_temp_dir("tilecrush-upgrade-");
  const auto path = dir / "old.db";
  std::filesystem::copy_file(TILECRUSH_SOURCE_DIR "/tests/data/v1/release-schema4.db", path);
  const std::vector<StoredGame> games = stored_games(path.string());
  ASSERT_GE(games.size(), 40u);

  server::Config config = TestServer::default_config();
  config.db = path.string();
  server::Server server(config);
  server.start();
  EXPECT_EQ(server.database().settings().schema_version, storage::kSchemaVersion);

  int finished = 0, ranked_on_boards = 0;
  for (const StoredGame& g : games) {
    SCOPED_TRACE(g.id + " " + g.mode + "/" + g.preset + "/" + g.seed);
    const HttpResult record = http_get(server.port(), "/api/games/" + g.id);
    if (g.state != "over") {
      EXPECT_EQ(record.status, 404u);
      continue;
    }
    ++finished;
    ASSERT_EQ(record.status, 200u) << record.body;
    const json r = record.json_body();
    EXPECT_EQ(r["rules_version"], 1);
    EXPECT_EQ(r["score"], g.score);
    // Version 1 boards were public: their moves stay published.
    ASSERT_TRUE(r["moves"].is_array()) << r;
    EXPECT_EQ(r["moves"].size(), static_cast<std::size_t>(g.move_count));
    const json verify = http_get(server.port(), "/api/games/" + g.id + "/verify").json_body();
    EXPECT_EQ(verify, json({{"valid", true}, {"score", g.score}}));
    // Anyone can still replay them with the version 1 derivation.
    if (g.ranked) {
      game::GameSetup setup;
      setup.mode = *game::parse_mode(g.mode);
      setup.preset = g.preset;
      setup.seed = g.seed;
      setup.rules_version = 1;
      std::vector<game::Move> moves;
      for (const json& m : r["moves"]) {
        game::Move move;
        move.kind = m[0] == "click"    ? game::MoveKind::click
                    : m[0] == "swap"   ? game::MoveKind::swap
                    : m[0] == "peek"   ? game::MoveKind::peek
                    : m[0] == "select" ? game::MoveKind::select
                                       : game::MoveKind::unselect;
        move.a = {m[1].get<int>(), m[2].get<int>()};
        if (move.kind == game::MoveKind::swap) move.b = {m[3].get<int>(), m[4].get<int>()};
        moves.push_back(move);
      }
      const auto replayed = game::replay(setup, moves);
      ASSERT_TRUE(replayed.game) << replayed.error;
      EXPECT_EQ(replayed.game->score(), g.score);
      // Their leaderboards moved to the version 1 boards of their labels.
      const json lb =
          http_get(server.port(), "/api/leaderboard?mode=" + g.mode + "&preset=" + g.preset +
                                      "&seed=" + g.seed + "&rules_version=1&limit=100")
              .json_body();
      bool found = false;
      for (const json& e : lb["entries"]) found = found || e["game_id"] == g.id;
      ranked_on_boards += found;
      const json casual = http_get(server.port(), "/api/leaderboard?mode=" + g.mode +
                                                      "&preset=" + g.preset + "&seed=" + g.seed)
                              .json_body();
      EXPECT_EQ(casual["total"], 0) << casual;
    }
  }
  EXPECT_GE(finished, 40);
  EXPECT_GE(ranked_on_boards, 20);
  std::printf("[ upgrade  ] %zu games, %d finished verified, %d leaderboard entries on v1 boards\n",
              games.size(), finished, ranked_on_boards);
  server.stop();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace tilecrush::testing
