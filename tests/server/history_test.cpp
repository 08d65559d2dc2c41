// A player's history over HTTP (protocol.md, "History"):
// GET /api/players/{name}/games and .../calendar. The player, with their
// token, sees every finished game newest first, paged; anyone else (no
// token, another player's, a wrong one) only games on listed competitions
// whose close has passed, the calendar alike; bad parameters are 400, an
// unknown player 404.
#include <gtest/gtest.h>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

constexpr std::int64_t kHour = 3'600'000;

std::vector<std::string> ids_of(const json& page) {
  std::vector<std::string> out;
  for (const json& g : page["games"]) out.push_back(g["game_id"]);
  return out;
}

json finish(CompetitionServer& cs, WsClient& ws, const json& game) {
  ws.request({{"type", "resign"}, {"game_id", game["game_id"]}});
  cs.advance_ms(1000, false);  // distinct finish times, in play order
  return game;
}

TEST(History, TheOwnerSeesEverythingOthersOnlyClosedListedBoards) {
  CompetitionServer cs;  // 2030-01-01T10:00:00Z
  const json cup =
      cs.create(cs.ann(), {{"name", "Open cup"}, {"mode", "same"}, {"preset", "easy"}}, 0, kHour);
  const json secret = cs.create(
      cs.ann(), {{"name", "Club night"}, {"mode", "same"}, {"preset", "easy"}, {"unlisted", true}},
      0, kHour);
  WsClient ws(cs.port());
  const std::string token = ws.hello("hana")["token"];
  WsClient other(cs.port());
  const std::string other_token = other.hello("kenji")["token"];

  const std::string daily = finish(
      cs, ws, start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}}))["game_id"];
  const std::string casual = finish(
      cs, ws, start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"seed", "h1"}}))["game_id"];
  const std::string on_cup = finish(cs, ws, start_attempt(ws, cup["id"])["game"])["game_id"];
  const std::string unlisted = finish(cs, ws, start_attempt(ws, secret["id"])["game"])["game_id"];
  // A game still running is in nobody's history.
  start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"seed", "h2"}});

  const std::string own = "Bearer " + token;
  const HttpResult all = cs.get_as("/api/players/hana/games", own);
  ASSERT_EQ(all.status, 200u) << all.body;
  const json body = all.json_body();
  EXPECT_EQ(body["player"], "hana");
  EXPECT_EQ(ids_of(body), (std::vector<std::string>{unlisted, on_cup, casual, daily}));
  EXPECT_TRUE(body["next"].is_null());
  const json& d = body["games"][3];
  EXPECT_TRUE(has_fields(d, {{"mode", "same"},
                             {"preset", "easy"},
                             {"ranked", true},
                             {"attempt", 1},
                             {"rank", 1},
                             {"field", 1},
                             {"entry", true},
                             {"moves_public", false}}));
  EXPECT_TRUE(has_fields(d["competition"], {{"daily", true}, {"closed", false}}));
  EXPECT_EQ(body["games"][0]["competition"]["unlisted"], true);
  EXPECT_TRUE(body["games"][2]["competition"].is_null());
  EXPECT_TRUE(body["games"][2]["attempt"].is_null());
  EXPECT_EQ(body["games"][2]["moves_public"], true);  // casual Same Game

  // Paged: two by two, the cursor carried over.
  const json first = cs.get_as("/api/players/hana/games?limit=2", own).json_body();
  EXPECT_EQ(ids_of(first), (std::vector<std::string>{unlisted, on_cup}));
  ASSERT_TRUE(first["next"].is_string());
  const json second =
      cs.get_as("/api/players/hana/games?limit=2&before=" + first["next"].get<std::string>(), own)
          .json_body();
  EXPECT_EQ(ids_of(second), (std::vector<std::string>{casual, daily}));
  EXPECT_TRUE(second["next"].is_null());

  // Anyone else, before any close: nothing, whatever the header.
  for (const std::string& header : {std::string(), "Bearer " + other_token,
                                    std::string("Bearer not-a-token"), "Basic " + token}) {
    SCOPED_TRACE(header);
    const HttpResult r = cs.get_as("/api/players/hana/games", header);
    ASSERT_EQ(r.status, 200u) << r.body;
    EXPECT_TRUE(r.json_body()["games"].empty()) << r.body;
    const HttpResult cal = cs.get_as("/api/players/hana/calendar?month=2030-01", header);
    ASSERT_EQ(cal.status, 200u) << cal.body;
    EXPECT_TRUE(cal.json_body()["days"].empty()) << cal.body;
  }
  const json own_calendar = cs.get_as("/api/players/hana/calendar", own).json_body();
  EXPECT_EQ(own_calendar["month"], "2030-01");  // the server's current month
  EXPECT_EQ(own_calendar["days"], json::parse(R"([{"date":"2030-01-01","games":4}])"));

  // After the cup's close (and the unlisted one's): the cup only.
  cs.advance_ms(kHour);
  EXPECT_EQ(ids_of(cs.get("/api/players/hana/games").json_body()),
            (std::vector<std::string>{on_cup}));
  // After the daily's close at midnight: the daily too; never the unlisted
  // competition's game, nor the casual one.
  cs.advance_ms(14 * kHour);
  const json closed = cs.get("/api/players/hana/games").json_body();
  EXPECT_EQ(ids_of(closed), (std::vector<std::string>{on_cup, daily}));
  EXPECT_EQ(closed["games"][0]["competition"]["name"], "Open cup");
  EXPECT_EQ(closed["games"][0]["competition"]["closed"], true);
  EXPECT_EQ(closed["games"][0]["moves_public"], true);
  EXPECT_TRUE(closed.dump().find(secret["id"].get<std::string>()) == std::string::npos);
  EXPECT_EQ(cs.get("/api/players/hana/calendar?month=2030-01").json_body()["days"],
            json::parse(R"([{"date":"2030-01-01","games":2}])"));
  EXPECT_TRUE(cs.get("/api/players/hana/calendar?month=2029-12").json_body()["days"].empty());
  // Kenji has played nothing.
  EXPECT_TRUE(cs.get("/api/players/kenji/games").json_body()["games"].empty());
}

TEST(History, BadParametersAre400AndUnknownPlayers404) {
  CompetitionServer cs;
  WsClient ws(cs.port());
  ws.hello("ren");
  for (const char* target :
       {"/api/players/ren/games?limit=0", "/api/players/ren/games?limit=101",
        "/api/players/ren/games?limit=x", "/api/players/ren/games?before=nope",
        "/api/players/ren/games?before=12.", "/api/players/ren/games?before=.abc",
        "/api/players/ren/calendar?month=2030-13", "/api/players/ren/calendar?month=2030-1",
        "/api/players/ren/calendar?month=1999-12", "/api/players/ren/calendar?month=abcdefg",
        "/api/players/ren/calendar?month=2030-01-01"}) {
    SCOPED_TRACE(target);
    const HttpResult r = cs.get(target);
    EXPECT_EQ(r.status, 400u) << r.body;
    EXPECT_EQ(r.json_body()["error"]["code"], "bad_request");
  }
  EXPECT_EQ(cs.get("/api/players/ren/games?before=nope").json_body()["error"]["message"],
            "before must be the next of an earlier page");
  EXPECT_EQ(cs.get("/api/players/ren/calendar?month=2030-13").json_body()["error"]["message"],
            "month must be YYYY-MM");
  for (const char* target : {"/api/players/nobody/games", "/api/players/nobody/calendar"}) {
    const HttpResult r = cs.get(target);
    EXPECT_EQ(r.status, 404u) << r.body;
    EXPECT_EQ(r.json_body()["error"]["message"], "no such player");
  }
  // A well-formed cursor past everything is simply an empty last page.
  const json empty = cs.get("/api/players/ren/games?before=1.a").json_body();
  EXPECT_TRUE(empty["games"].empty());
  EXPECT_TRUE(empty["next"].is_null());
}

}  // namespace
}  // namespace tilecrush::testing
