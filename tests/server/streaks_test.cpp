// Daily streaks over HTTP and WebSocket with the server's clock moved by
// the test (rules.md, "Streaks"): a finished daily game counts its day, the
// streak survives the day boundary, a missed day breaks it, a game ended by
// the close counts for its daily's day, and practice counts nothing.
#include <gtest/gtest.h>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

constexpr std::int64_t kHour = 3'600'000;

// The streak of `mode` in /api/players/{name}, or null.
json streak_of(CompetitionServer& cs, const std::string& name, const std::string& mode) {
  const HttpResult r = cs.get("/api/players/" + name);
  EXPECT_EQ(r.status, 200u) << r.body;
  const json body = r.json_body();  // kept: the loop reads into it
  for (const json& s : body["streaks"]) {
    if (s["mode"] == mode) return s;
  }
  return nullptr;
}

json resign(WsClient& ws, const json& game) {
  return ws.request({{"type", "resign"}, {"game_id", game["game_id"]}});
}

TEST(Streaks, SurviveTheDayBoundaryBreakOnAMissedDayAndCountTheDailysDay) {
  CompetitionServer cs;  // 2030-01-01T10:00:00Z
  WsClient ws(cs.port());
  ws.hello("stella");
  EXPECT_TRUE(cs.get("/api/players/stella").json_body()["streaks"].empty());

  // Day 1: a Same Game daily, given up: the day counts.
  const json day1 = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
  ASSERT_EQ(day1["competition"], "daily-2030-01-01-same-easy") << day1;
  EXPECT_EQ(resign(ws, day1)["over"], true);
  EXPECT_EQ(streak_of(cs, "stella", "same"),
            json({{"mode", "same"}, {"current", 1}, {"best", 1}, {"last_day", "2030-01-01"}}));

  // Past midnight, before playing day 2: yesterday's streak still stands.
  cs.advance_ms(14 * kHour);
  EXPECT_EQ(streak_of(cs, "stella", "same")["current"], 1);
  const json day2 = start_game(ws, {{"mode", "same"}, {"preset", "normal"}, {"daily", true}});
  ASSERT_EQ(day2["competition"], "daily-2030-01-02-same-normal") << day2;
  resign(ws, day2);
  EXPECT_EQ(streak_of(cs, "stella", "same"),
            json({{"mode", "same"}, {"current", 2}, {"best", 2}, {"last_day", "2030-01-02"}}));

  // Day 2's hidden daily, left running: the close ends it, and it counts
  // for day 2 although it ended on day 3. Its practice game counts nothing.
  const json hidden = start_game(ws, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  ASSERT_EQ(hidden["attempt"], 1) << hidden;
  const json practice =
      start_game(ws, {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}});
  ASSERT_EQ(practice["ranked"], false) << practice;
  resign(ws, practice);
  EXPECT_TRUE(streak_of(cs, "stella", "hidden").is_null());
  cs.advance_ms(24 * kHour);  // 2030-01-03T00:00Z: day 2 closes
  EXPECT_EQ(streak_of(cs, "stella", "hidden"),
            json({{"mode", "hidden"}, {"current", 1}, {"best", 1}, {"last_day", "2030-01-02"}}));

  // Day 3 passes without a Same Game daily: on day 4 the streak is broken,
  // the best is kept.
  cs.advance_ms(24 * kHour);  // 2030-01-04
  EXPECT_EQ(streak_of(cs, "stella", "same"),
            json({{"mode", "same"}, {"current", 0}, {"best", 2}, {"last_day", "2030-01-02"}}));
  const json day4 = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
  ASSERT_EQ(day4["competition"], "daily-2030-01-04-same-easy") << day4;
  resign(ws, day4);
  EXPECT_EQ(streak_of(cs, "stella", "same"),
            json({{"mode", "same"}, {"current", 1}, {"best", 2}, {"last_day", "2030-01-04"}}));
}

TEST(Streaks, CasualGamesDoNotCount) {
  CompetitionServer cs;
  WsClient ws(cs.port());
  ws.hello("carl");
  const json casual =
      start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"seed", "2030-01-01"}});
  ASSERT_TRUE(casual["competition"].is_null()) << casual;
  resign(ws, casual);
  const HttpResult r = cs.get("/api/players/carl");
  EXPECT_EQ(r.json_body()["games_played"], 1);
  EXPECT_TRUE(r.json_body()["streaks"].empty());
}

}  // namespace
}  // namespace tilecrush::testing
