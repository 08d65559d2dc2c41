// Running attempts (protocol.md, "Running attempts"): the server, not the
// tab, remembers a player's running competition attempts. welcome.running
// and the `running` request list every counted attempt still playing on a
// competition still open, to every connection of that player (another
// device), and resume gives it back there; finished attempts, daily
// practice, casual games, closed competitions' games and other players'
// games are not listed; the list is capped.
#include <gtest/gtest.h>

#include <random>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

// The game ids of a running list, in order.
std::vector<std::string> ids_of(const json& list) {
  std::vector<std::string> out;
  for (const json& g : list) out.push_back(g["game_id"]);
  return out;
}

json running(WsClient& c) {
  const json reply = c.request({{"type", "running"}});
  EXPECT_EQ(reply["type"], "running") << reply;
  return reply.value("running", json());
}

TEST(RunningAttempts, ListedToEveryConnectionOfThePlayerUntilTheyEnd) {
  CompetitionServer cs;
  const std::string org = cs.add_organiser("org");
  WsClient first(cs.port());
  const json hello = first.hello("ada");
  EXPECT_EQ(hello["running"], json::array()) << "a new player runs nothing";
  const std::string token = hello["token"];

  // Today's hidden daily (one counted attempt), a move in it, then daily
  // practice on the same board and a casual game: only the attempt counts.
  const std::string daily = "daily-2030-01-01-hidden-classic";
  const json attempt =
      start_game(first, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  ASSERT_EQ(attempt["attempt"], 1);
  json board = {{"id", daily}, {"mode", "hidden"}, {"preset", "classic"}, {"seed", "2030-01-01"}};
  auto local = CompetitionServer::local_copy(board);
  std::mt19937 rng(3);
  for (int i = 0; i < 4 && !local->over(); ++i) {
    play_move(first, attempt["game_id"], *local, pick_move(*local, rng));
  }
  ASSERT_FALSE(local->over());
  cs.advance_ms(1000, false);
  const json practice =
      start_game(first, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  ASSERT_TRUE(practice["attempt"].is_null());
  start_game(first, {{"mode", "same"}, {"preset", "easy"}});
  // A Same Game daily attempt (every one counted) and an organiser's.
  cs.advance_ms(1000, false);
  const json same = start_game(first, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
  ASSERT_EQ(same["attempt"], 1);
  const json cup =
      cs.create(org, {{"mode", "match3"}, {"preset", "classic"}, {"attempts", 2}}, 0, 3'600'000);
  ASSERT_TRUE(cup.is_object());
  cs.advance_ms(1000, false);
  const json organised = start_attempt(first, cup["id"])["game"];
  ASSERT_EQ(organised["attempt"], 1);

  // Another connection (another device) of the same player: welcome lists
  // them, latest started first, with what shows and resumes them.
  WsClient other(cs.port());
  const json again = other.hello("ADA", token);
  ASSERT_EQ(again["player"]["name"], "ada");
  const json list = again["running"];
  ASSERT_EQ(ids_of(list),
            (std::vector<std::string>{organised["game_id"], same["game_id"], attempt["game_id"]}))
      << list;
  EXPECT_EQ(list[2], (json{{"game_id", attempt["game_id"]},
                           {"competition", daily},
                           {"mode", "hidden"},
                           {"preset", "classic"},
                           {"attempt", 1},
                           {"ranked", true},
                           {"score", local->score()},
                           {"move_count", local->move_count()},
                           {"started_at", "2030-01-01T10:00:00.000Z"},
                           {"closes_at", "2030-01-02T00:00:00.000Z"}}));
  EXPECT_EQ(list[0]["competition"], cup["id"]);
  EXPECT_EQ(list[0]["closes_at"], cup["closes_at"]);
  EXPECT_EQ(list[0]["started_at"], "2030-01-01T10:00:03.000Z");
  // The request answers the same list.
  EXPECT_EQ(running(other), list);
  // And the attempt resumes there exactly as it stands.
  expect_resume_matches(other, attempt["game_id"], *local);
  play_move(other, attempt["game_id"], *local, pick_move(*local, rng));
  EXPECT_EQ(running(first)[2]["move_count"], local->move_count());

  // Another player sees only their own.
  WsClient bob(cs.port());
  EXPECT_EQ(bob.hello("bob")["running"], json::array());
  const json bobs = start_game(bob, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  EXPECT_EQ(ids_of(running(bob)), std::vector<std::string>{bobs["game_id"]});
  EXPECT_EQ(running(first).size(), 3u);

  // A finished attempt is not running.
  const json resigned = first.request({{"type", "resign"}, {"game_id", same["game_id"]}});
  ASSERT_EQ(resigned["over"], true) << resigned;
  EXPECT_EQ(ids_of(running(other)),
            (std::vector<std::string>{organised["game_id"], attempt["game_id"]}));

  // Past the organiser's close its game ends (and is no longer listed);
  // past midnight, the daily's too.
  cs.advance_ms(3'600'000);
  EXPECT_EQ(ids_of(running(other)), std::vector<std::string>{attempt["game_id"]});
  WsClient later(cs.port());
  EXPECT_EQ(ids_of(later.hello("ada", token)["running"]),
            std::vector<std::string>{attempt["game_id"]});
  cs.advance_ms(13LL * 3'600'000);
  EXPECT_EQ(running(other), json::array());
  WsClient next_day(cs.port());
  EXPECT_EQ(next_day.hello("ada", token)["running"], json::array());
}

TEST(RunningAttempts, TheListIsCappedLatestFirst) {
  CompetitionServer cs;
  const std::string org = cs.add_organiser("org");
  const json cup = cs.create(org, {{"mode", "same"}, {"preset", "easy"}, {"attempts", nullptr}});
  ASSERT_TRUE(cup.is_object());
  WsClient c(cs.port());
  const std::string token = c.hello("cap")["token"];
  std::vector<std::string> started;
  for (int i = 0; i < 23; ++i) {
    cs.advance_ms(10, false);
    const json reply = start_attempt(c, cup["id"]);
    ASSERT_EQ(reply["type"], "game") << reply;
    started.push_back(reply["game"]["game_id"]);
  }
  const std::vector<std::string> latest(started.rbegin(), started.rbegin() + 20);
  EXPECT_EQ(ids_of(running(c)), latest);
  WsClient again(cs.port());
  const json list = again.hello("cap", token)["running"];
  EXPECT_EQ(ids_of(list), latest);
  EXPECT_EQ(list[0]["attempt"], 23);
  EXPECT_EQ(list[19]["attempt"], 4);
}

TEST(RunningAttempts, NeedsHello) {
  CompetitionServer cs;
  WsClient c(cs.port());
  const json reply = c.request({{"type", "running"}});
  EXPECT_TRUE(is_error(reply, "unauthorized")) << reply;
  EXPECT_EQ(reply["message"], "say hello first");
}

}  // namespace
}  // namespace tilecrush::testing
