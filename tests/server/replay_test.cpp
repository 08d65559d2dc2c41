// GET /api/games/{id}/replay (protocol.md, "Replays"): the game played
// again step by step, with the events of live play. It exists exactly when
// the game's moves are public: a competition game's only from the close
// on, in every mode, except to its own player with their token; and its
// steps end on the board, score and state_hash the player ended on.
#include <gtest/gtest.h>

#include "competition_test_util.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::testing {
namespace {

TEST(Replay, ACompetitionGamesReplayWaitsForTheCloseInEveryModeButForItsPlayer) {
  CompetitionServer cs;
  for (const char* mode : {"same", "match3", "hidden"}) {
    SCOPED_TRACE(mode);
    const json c = cs.create(cs.ann(), {{"mode", mode}, {"preset", "classic"}}, 0, 600'000);
    WsClient owner(cs.port());
    const std::string token = owner.hello(std::string("replayer-") + mode)["token"];
    WsClient other(cs.port());
    const std::string other_token = other.hello(std::string("watcher-") + mode)["token"];

    const json g = start_attempt(owner, c["id"])["game"];
    auto local = CompetitionServer::local_copy(c);
    std::mt19937 rng(11);
    for (int i = 0; i < 8 && !local->over(); ++i) {
      play_move(owner, g["game_id"], *local, pick_move(*local, rng));
    }
    const bool resigned = !local->over();
    if (resigned) owner.request({{"type", "resign"}, {"game_id", g["game_id"]}});
    const std::string path = "/api/games/" + g["game_id"].get<std::string>() + "/replay";

    // Before the close: nobody but the player.
    for (const std::string& header :
         {std::string(), "Bearer " + other_token, "Bearer " + cs.ann()}) {
      const HttpResult r = cs.get_as(path, header);
      EXPECT_EQ(r.status, 403u) << header << " " << r.body;
      EXPECT_TRUE(r.body.find("\"moves\"") == std::string::npos);
      EXPECT_EQ(r.json_body()["error"]["code"], "not_allowed") << r.body;
    }
    const HttpResult own = cs.get_as(path, "Bearer " + token);
    ASSERT_EQ(own.status, 200u) << own.body;

    // After it: everyone, the same steps.
    cs.advance_ms(600'000);
    const HttpResult r = cs.get(path);
    ASSERT_EQ(r.status, 200u) << r.body;
    const json replay = r.json_body();
    EXPECT_EQ(replay, own.json_body());
    EXPECT_EQ(replay["valid"], true);
    EXPECT_EQ(replay["player"], std::string("replayer-") + mode);
    EXPECT_EQ(replay["start"]["move_count"], 0);
    EXPECT_EQ(replay["start"]["game_id"], g["game_id"]);
    if (std::string(mode) == "hidden") {
      for (const json& row : replay["start"]["board"]) {
        for (const json& cell : row) EXPECT_EQ(cell, -1);
      }
    }
    const json& steps = replay["steps"];
    ASSERT_EQ(steps.size(), static_cast<std::size_t>(local->move_count()) + (resigned ? 1 : 0));
    for (std::size_t i = 0; i < static_cast<std::size_t>(local->move_count()); ++i) {
      EXPECT_EQ(steps[i]["move_count"], i + 1);
      EXPECT_FALSE(steps[i]["move"].is_null());
      EXPECT_FALSE(steps[i]["events"].empty());
    }
    const json& last = steps.back();
    EXPECT_EQ(last["over"], true);
    EXPECT_EQ(last["score"], local->score());
    EXPECT_EQ(last["state_hash"], game::hash_hex(local->state_hash()));
    if (resigned) {
      EXPECT_TRUE(last["move"].is_null());
      ASSERT_EQ(last["events"].size(), 1u);
      EXPECT_EQ(last["events"][0]["reason"], "resigned");
    }
  }
}

// Every step carries its move's offset from the game's start (t_ms), from
// the server's clock; the resign's step, its last move's.
TEST(Replay, StepsCarryEachMovesOffsetFromTheGamesStart) {
  CompetitionServer cs;
  const json c = cs.create(cs.ann(), {{"mode", "same"}, {"preset", "classic"}}, 0, 600'000);
  WsClient ws(cs.port());
  ws.hello("paced");
  const json g = start_attempt(ws, c["id"])["game"];
  auto local = CompetitionServer::local_copy(c);
  std::mt19937 rng(5);
  std::vector<std::int64_t> expected;
  std::int64_t at = 0;
  for (int i = 0; i < 3 && !local->over(); ++i) {
    const std::int64_t pause = 700 * (i + 1);
    cs.advance_ms(pause, false);
    at += pause;
    play_move(ws, g["game_id"], *local, pick_move(*local, rng));
    expected.push_back(at);
  }
  ASSERT_FALSE(local->over());
  cs.advance_ms(5'000, false);
  ws.request({{"type", "resign"}, {"game_id", g["game_id"]}});
  cs.advance_ms(600'000);
  const HttpResult r = cs.get("/api/games/" + g["game_id"].get<std::string>() + "/replay");
  ASSERT_EQ(r.status, 200u) << r.body;
  const json body = r.json_body();
  const json& steps = body["steps"];
  ASSERT_EQ(steps.size(), expected.size() + 1);
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(steps[i]["t_ms"], expected[i]);
  EXPECT_EQ(steps.back()["t_ms"], expected.back());
}

TEST(Replay, CasualBoardsFollowTheirRuleAndUnknownGamesAreNotFound) {
  CompetitionServer cs;
  WsClient ws(cs.port());
  ws.hello("casual-replayer");
  // A casual Same Game: public at once. A casual hidden game: never.
  const json same = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"seed", "r1"}});
  ws.request({{"type", "resign"}, {"game_id", same["game_id"]}});
  const HttpResult s = cs.get("/api/games/" + same["game_id"].get<std::string>() + "/replay");
  ASSERT_EQ(s.status, 200u) << s.body;
  EXPECT_EQ(s.json_body()["valid"], true);
  ASSERT_EQ(s.json_body()["steps"].size(), 1u);  // the resign alone
  const json hidden = start_game(ws, {{"mode", "hidden"}, {"preset", "classic"}, {"seed", "r1"}});
  ws.request({{"type", "resign"}, {"game_id", hidden["game_id"]}});
  EXPECT_EQ(cs.get("/api/games/" + hidden["game_id"].get<std::string>() + "/replay").status, 403u);
  EXPECT_EQ(cs.get("/api/games/0123456789abcdef/replay").status, 404u);
  // A running game has no replay yet.
  const json running = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"seed", "r2"}});
  EXPECT_EQ(cs.get("/api/games/" + running["game_id"].get<std::string>() + "/replay").status, 404u);
}

}  // namespace
}  // namespace tilecrush::testing
