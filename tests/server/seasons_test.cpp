// Seasons over HTTP with the server's clock moved by the test (rules.md,
// "Seasons"): a daily's points reach its week's and month's standings at
// its close and not before, pages are revalidated by ETag, around-me and
// the periods' index work, a disqualification after the close recounts,
// and bad requests get the documented answers.
#include <gtest/gtest.h>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

constexpr std::int64_t kHour = 3'600'000;

// "name:points" per entry.
std::vector<std::string> standings(const json& page) {
  std::vector<std::string> out;
  for (const json& e : page["entries"]) {
    out.push_back(e["player"].get<std::string>() + ":" + std::to_string(e["points"].get<int>()));
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(Seasons, ADailysPointsCountAtItsCloseIntoItsWeekAndMonth) {
  CompetitionServer cs;  // Tuesday 2030-01-01T10:00:00Z: 2030-W01, 2030-01
  std::string daily;
  for (const std::string name : {"ann", "bob", "cy"}) {
    WsClient ws(cs.port());
    ws.hello(name);
    const json g = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
    daily = g["competition"];
    // Equal scores and moves, at the same moment: ranked by registration.
    EXPECT_EQ(ws.request({{"type", "resign"}, {"game_id", g["game_id"]}})["over"], true);
  }
  ASSERT_EQ(daily, "daily-2030-01-01-same-easy");
  const std::string week = "/api/seasons/2030-W01?mode=same";
  // Open: nothing of the board shows.
  const HttpResult before = cs.get(week);
  ASSERT_EQ(before.status, 200u) << before.body;
  EXPECT_EQ(before.json_body()["total"], 0);
  EXPECT_EQ(cs.get("/api/seasons/2030-W01/around?mode=same&player=ann").status, 404u);

  cs.advance_ms(14 * kHour);  // 2030-01-02T00:00Z: the daily closes
  const HttpResult page = cs.get(week);
  ASSERT_EQ(page.status, 200u) << page.body;
  const json body = page.json_body();
  EXPECT_EQ(standings(body), (Names{"ann:100", "bob:66", "cy:33"}));
  EXPECT_EQ(body["total"], 3);
  EXPECT_EQ(body["period"], "2030-W01");
  EXPECT_EQ(body["kind"], "week");
  EXPECT_EQ(body["starts_at"], "2029-12-31T00:00:00.000Z");
  EXPECT_EQ(body["ends_at"], "2030-01-07T00:00:00.000Z");
  EXPECT_EQ(body["entries"][1],
            json({{"rank", 2}, {"player", "bob"}, {"points", 66}, {"boards", 1}}));
  EXPECT_EQ(standings(cs.get("/api/seasons/2030-01?mode=same").json_body()),
            (Names{"ann:100", "bob:66", "cy:33"}));
  EXPECT_EQ(cs.get("/api/seasons/2030-W01?mode=match3").json_body()["total"], 0);
  EXPECT_EQ(standings(cs.get(week + "&limit=1&offset=1").json_body()), (Names{"bob:66"}));

  // Revalidation, as every leaderboard page.
  EXPECT_EQ(page.cache_control, "public, max-age=2");
  ASSERT_TRUE(page.etag.starts_with("\"lb-")) << page.etag;
  EXPECT_NE(page.etag, before.etag);
  auto ask = [&](const std::string& target, const std::string& tags) {
    return http_request(cs.port(), beast::http::verb::get, target, "", "", tags);
  };
  const HttpResult same = ask(week, page.etag);
  EXPECT_EQ(same.status, 304u);
  EXPECT_TRUE(same.body.empty());
  EXPECT_EQ(same.etag, page.etag);
  const std::string around = "/api/seasons/2030-W01/around?mode=same&player=CY&radius=1";
  const HttpResult near = cs.get(around);
  ASSERT_EQ(near.status, 200u) << near.body;
  EXPECT_EQ(standings(near.json_body()), (Names{"bob:66", "cy:33"}));
  EXPECT_EQ(near.etag, page.etag);
  EXPECT_EQ(ask(around, page.etag).status, 304u);
  const HttpResult nobody = cs.get("/api/seasons/2030-W01/around?mode=same&player=zed");
  EXPECT_EQ(nobody.status, 404u);
  EXPECT_EQ(nobody.json_body()["error"]["message"], "player not in these standings");

  // The periods' index.
  const json index = cs.get("/api/seasons?mode=same").json_body();
  EXPECT_EQ(index["week"]["period"], "2030-W01");
  EXPECT_EQ(index["week"]["ends_in_s"], 5 * 24 * 3600);
  EXPECT_EQ(index["month"]["period"], "2030-01");
  EXPECT_EQ(index["month"]["href"], "/api/seasons/2030-01?mode=same");
  EXPECT_TRUE(index["past"].empty()) << index;

  // The operator disqualifies ann after the close: the board is recounted.
  const HttpResult dq = cs.post("/api/competitions/" + daily + "/disqualify",
                                {{"player", "ann"}, {"reason", "test"}}, kOperatorToken);
  ASSERT_EQ(dq.status, 200u) << dq.body;
  const HttpResult after = ask(week, page.etag);
  ASSERT_EQ(after.status, 200u);
  EXPECT_NE(after.etag, page.etag);
  EXPECT_EQ(standings(after.json_body()), (Names{"bob:100", "cy:50"}));
  EXPECT_EQ(standings(cs.get("/api/seasons/2030-01?mode=same").json_body()),
            (Names{"bob:100", "cy:50"}));

  // A week later 2030-W01 is past, and its pages are kept for long.
  cs.advance_ms(7 * 24 * kHour);
  const json later = cs.get("/api/seasons?mode=same").json_body();
  EXPECT_EQ(later["week"]["period"], "2030-W02");
  ASSERT_EQ(later["past"].size(), 1u) << later;
  EXPECT_EQ(later["past"][0]["period"], "2030-W01");
  EXPECT_EQ(later["past"][0]["total"], 2);
  EXPECT_EQ(cs.get(week).cache_control, "public, max-age=3600");
}

TEST(Seasons, BadRequestsGetTheDocumentedAnswers) {
  CompetitionServer cs;
  auto error_of = [&](const std::string& target, unsigned status) {
    const HttpResult r = cs.get(target);
    EXPECT_EQ(r.status, status) << target << " " << r.body;
    return r.json_body()["error"]["message"].get<std::string>();
  };
  const std::string bad_period = "period must be an ISO week (2026-W48) or a month (2026-11)";
  EXPECT_EQ(error_of("/api/seasons/2030-W53?mode=same", 400), bad_period);  // 2030 has 52
  EXPECT_EQ(error_of("/api/seasons/2030-13?mode=same", 400), bad_period);
  EXPECT_EQ(error_of("/api/seasons/latest/around?mode=same&player=a", 400), bad_period);
  EXPECT_EQ(error_of("/api/seasons/2030-01", 400), "mode is required");
  EXPECT_EQ(error_of("/api/seasons?mode=chess", 400), "unknown mode");
  EXPECT_EQ(error_of("/api/seasons/2030-01/around?mode=same", 400), "player is required");
  error_of("/api/seasons/2030-01?mode=same&limit=500", 400);
  EXPECT_EQ(error_of("/api/seasons/2030-01/top?mode=same", 404), "no such API path");
  EXPECT_EQ(cs.get("/api/seasons/2026-W53?mode=hidden").status, 200u);
}

}  // namespace
}  // namespace tilecrush::testing
