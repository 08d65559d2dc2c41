// The server's basic contract end to end: HTTP routes, hello and tokens,
// creating, playing, resuming and finishing a game.
#include <gtest/gtest.h>

#include "test_server.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

TEST(ServerBasics, HealthAndDailyOverHttp) {
  TestServer ts;
  const HttpResult health = http_get(ts.port(), "/api/health");
  EXPECT_EQ(health.status, 200u);
  EXPECT_EQ(health.json_body()["status"], "ok");
  const HttpResult daily = http_get(ts.port(), "/api/daily");
  ASSERT_EQ(daily.status, 200u);
  EXPECT_EQ(daily.json_body()["boards"].size(), 9u);
  EXPECT_EQ(http_get(ts.port(), "/api/nope").status, 404u);
  EXPECT_EQ(http_get(ts.port(), "/api/nope").json_body()["error"]["code"], "not_found");
}

TEST(ServerBasics, HelloGivesATokenThatOwnsTheName) {
  TestServer ts;
  std::string token;
  {
    WsClient c(ts.port());
    const json welcome = c.hello("Alice");
    ASSERT_EQ(welcome["type"], "welcome") << welcome;
    token = welcome["token"];
    EXPECT_EQ(token.size(), 32u);
  }
  WsClient again(ts.port());
  EXPECT_EQ(again.hello("alice")["code"], "unauthorized");
  EXPECT_EQ(again.hello("Alice", "0123")["code"], "unauthorized");
  EXPECT_EQ(again.hello("Alice", token)["type"], "welcome");
}

TEST(ServerBasics, PlaysAndResumesAGameWithTheEnginesHash) {
  TestServer ts;
  WsClient c(ts.port());
  const json welcome = c.hello("bob");
  const json started =
      c.request({{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "basics"}});
  ASSERT_EQ(started["type"], "game") << started;
  const std::string game_id = started["game"]["game_id"];

  game::GameSetup setup;
  setup.mode = game::Mode::same;
  setup.preset = "easy";
  setup.seed = "basics";
  auto local = game::create_game(with_test_key(setup)).game;
  EXPECT_EQ(started["game"]["state_hash"], game::hash_hex(local->state_hash()));

  int moves = 0;
  while (!local->over() && moves < 5) {
    game::Hint hint;
    ASSERT_TRUE(local->hint(hint).ok());
    game::EventList events;
    ASSERT_TRUE(local->apply(hint.move, events).ok());
    const json reply = c.request(
        {{"type", "click"}, {"game_id", game_id}, {"x", hint.move.a.x}, {"y", hint.move.a.y}});
    ASSERT_EQ(reply["type"], "events") << reply;
    EXPECT_EQ(reply["state_hash"], game::hash_hex(local->state_hash()));
    EXPECT_EQ(reply["score"], local->score());
    ++moves;
  }
  WsClient other(ts.port());
  other.hello("bob", welcome["token"].get<std::string>());
  const json resumed = other.request({{"type", "resume"}, {"game_id", game_id}});
  EXPECT_EQ(resumed["game"]["state_hash"], game::hash_hex(local->state_hash()));

  ts.restart();
  WsClient after(ts.port());
  after.hello("bob", welcome["token"].get<std::string>());
  const json reloaded = after.request({{"type", "resume"}, {"game_id", game_id}});
  EXPECT_EQ(reloaded["game"]["state_hash"], game::hash_hex(local->state_hash())) << reloaded;

  WsClient mallory(ts.port());
  mallory.hello("mallory");
  EXPECT_EQ(mallory.request({{"type", "resume"}, {"game_id", game_id}})["code"], "unauthorized");
}

}  // namespace
}  // namespace tilecrush::testing
