// GET /api/archive against a real server: every closed listed competition,
// paged across more than 100 of them with no gaps or repeats, unlisted and
// open ones never listed, bad parameters refused.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

constexpr std::int64_t kMinute = 60'000;

// Every page of the archive from `query` (e.g. "limit=7&mode=match3"): the
// competitions in order; the page count in *pages.
std::vector<json> walk(CompetitionServer& s, const std::string& query, int* pages) {
  std::vector<json> all;
  std::string before;
  *pages = 0;
  for (int guard = 0; guard < 100; ++guard) {
    std::string target = "/api/archive?" + query;
    if (!before.empty()) target += "&before=" + before;
    const HttpResult r = s.get(target);
    EXPECT_EQ(r.status, 200u) << r.body;
    if (r.status != 200) break;
    ++*pages;
    EXPECT_EQ(r.cache_control, before.empty() ? "public, max-age=30" : "public, max-age=300");
    const json body = r.json_body();
    for (const json& c : body["competitions"]) all.push_back(c);
    if (body["next"].is_null()) break;
    before = body["next"].get<std::string>();
  }
  return all;
}

TEST(ArchiveApi, PagesThroughEveryClosedListedCompetitionWithNoGapsOrRepeats) {
  CompetitionServer s;
  const std::string token = s.add_organiser("archivist");
  std::set<std::string> listed;
  std::set<std::string> never;
  // 104 listed, closing 1-52 minutes from now, two at each close (ties are
  // ordered by id); half match3, half same.
  for (int i = 0; i < 104; ++i) {
    const json c = s.create(
        token, {{"name", "Cup " + std::to_string(i)}, {"mode", i % 2 == 0 ? "match3" : "same"}}, 0,
        (1 + i / 2) * kMinute);
    ASSERT_TRUE(c.contains("id"));
    listed.insert(c["id"].get<std::string>());
  }
  for (int i = 0; i < 3; ++i) {
    const json c = s.create(token, {{"name", "Secret"}, {"unlisted", true}}, 0, kMinute);
    never.insert(c["id"].get<std::string>());
  }
  const json open = s.create(token, {{"name", "Long"}}, 0, 100 * kMinute);
  never.insert(open["id"].get<std::string>());
  // Nothing has closed yet but whatever dailies did.
  int pages = 0;
  for (const json& c : walk(s, "limit=100", &pages)) EXPECT_TRUE(c["daily"].get<bool>()) << c;

  s.advance_ms(60 * kMinute);

  for (const std::string limit : {"100", "7"}) {
    const std::vector<json> all = walk(s, "limit=" + limit, &pages);
    std::set<std::string> seen;
    std::size_t dailies = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const json& c = all[i];
      const std::string id = c["id"];
      EXPECT_TRUE(seen.insert(id).second) << "repeated " << id;
      EXPECT_FALSE(never.count(id)) << "listed " << id;
      EXPECT_EQ(c["state"], "closed");
      EXPECT_TRUE(c["key"].is_string());
      EXPECT_EQ(c["entries"], 0);
      EXPECT_TRUE(c["winner"].is_null());
      if (c["daily"].get<bool>()) ++dailies;
      if (i > 0) {
        const json& p = all[i - 1];
        const bool ordered = p["closes_at"] > c["closes_at"] ||
                             (p["closes_at"] == c["closes_at"] && p["id"] > c["id"]);
        EXPECT_TRUE(ordered) << p["id"] << " before " << id;
      }
    }
    for (const std::string& id : listed) EXPECT_TRUE(seen.count(id)) << "missing " << id;
    EXPECT_EQ(all.size(), listed.size() + dailies);
    const std::size_t per_page = std::stoul(limit);
    EXPECT_EQ(static_cast<std::size_t>(pages), (all.size() + per_page - 1) / per_page);
  }

  // The filters.
  const std::vector<json> match3 = walk(s, "limit=50&mode=match3&kind=organised", &pages);
  EXPECT_EQ(match3.size(), 52u);
  for (const json& c : match3) {
    EXPECT_EQ(c["mode"], "match3");
    EXPECT_FALSE(c["daily"].get<bool>());
  }
  for (const json& c : walk(s, "kind=daily", &pages)) EXPECT_TRUE(c["daily"].get<bool>());
}

TEST(ArchiveApi, RefusesBadParameters) {
  CompetitionServer s;
  const std::pair<std::string, std::string> cases[] = {
      {"limit=0", "limit"},
      {"limit=101", "limit"},
      {"limit=x", "limit"},
      {"before=abc", "before must be a next cursor"},
      {"before=12.a%20b", "before must be a next cursor"},
      {"mode=chess", "mode must be same, match3 or hidden"},
      {"kind=weekly", "kind must be daily or organised"},
      {"offset=3", "unknown parameter (limit, before, mode, kind)"},
      {"limit=5&limit=6", "limit"},
  };
  for (const auto& [query, message] : cases) {
    const HttpResult r = s.get("/api/archive?" + query);
    EXPECT_EQ(r.status, 400u) << query;
    const json body = r.json_body();
    EXPECT_EQ(body["error"]["code"], "bad_request") << query;
    EXPECT_NE(body["error"]["message"].get<std::string>().find(message), std::string::npos)
        << query << ": " << r.body;
  }
  // A well-formed cursor from nowhere reads what closed before it.
  const HttpResult r = s.get("/api/archive?before=1.zzz");
  EXPECT_EQ(r.status, 200u);
  EXPECT_TRUE(r.json_body()["competitions"].empty());
  EXPECT_TRUE(r.json_body()["next"].is_null());
}

}  // namespace
}  // namespace tilecrush::testing
