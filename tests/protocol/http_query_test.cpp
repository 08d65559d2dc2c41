// Request target parsing, percent-decoding and typed parameters.
#include "tilecrush/protocol/http_query.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tilecrush::protocol {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;
using Segments = std::vector<std::string>;

RequestTarget parsed(std::string_view text) {
  TargetResult r = parse_target(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.error ? r.error->message : "");
  return r.target;
}

void expect_refused(std::string_view text) {
  const TargetResult r = parse_target(text);
  ASSERT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.error->status, 400);
  EXPECT_EQ(r.error->code, ErrorCode::bad_request);
}

TEST(HttpTarget, PathAndQuery) {
  const RequestTarget t = parsed("/api/leaderboard?mode=same&preset=easy&seed=2026-01-02");
  EXPECT_EQ(t.path, "/api/leaderboard");
  EXPECT_EQ(t.segments, (Segments{"api", "leaderboard"}));
  EXPECT_EQ(t.query, (Pairs{{"mode", "same"}, {"preset", "easy"}, {"seed", "2026-01-02"}}));
}

TEST(HttpTarget, RootAndTrailingSlash) {
  EXPECT_EQ(parsed("/").segments, (Segments{""}));
  EXPECT_EQ(parsed("/api/players/").segments, (Segments{"api", "players", ""}));
  EXPECT_TRUE(parsed("/api/health?").query.empty());
}

TEST(HttpTarget, PercentDecoding) {
  const RequestTarget t = parsed("/api/players/Zo%C3%A9%20B+x?seed=a+b%2Bc&e=%e2%82%AC");
  EXPECT_EQ(t.path, "/api/players/Zoé B+x");  // '+' is literal in the path
  EXPECT_EQ(t.segments.back(), "Zoé B+x");
  EXPECT_EQ(t.query, (Pairs{{"seed", "a b+c"}, {"e", "€"}}));
}

TEST(HttpTarget, EncodedSlashStaysInsideItsSegment) {
  const RequestTarget t = parsed("/api/players/a%2Fb/x");
  EXPECT_EQ(t.segments, (Segments{"api", "players", "a/b", "x"}));
  EXPECT_EQ(t.path, "/api/players/a/b/x");
}

TEST(HttpTarget, KeysWithoutValuesAndEmptyPairs) {
  const RequestTarget t = parsed("/x?a&&b=&=v&c=1=2&");
  EXPECT_EQ(t.query, (Pairs{{"a", ""}, {"b", ""}, {"", "v"}, {"c", "1=2"}}));
}

TEST(HttpTarget, FragmentIsDropped) {
  const RequestTarget t = parsed("/api/daily?x=1#frag?y=2");
  EXPECT_EQ(t.path, "/api/daily");
  EXPECT_EQ(t.query, (Pairs{{"x", "1"}}));
}

TEST(HttpTarget, Refusals) {
  expect_refused("");
  expect_refused("api/health");
  expect_refused("http://host/api/health");
  expect_refused("/a%");
  expect_refused("/a%2");
  expect_refused("/a%zz");
  expect_refused("/a%00b");
  expect_refused("/x?a=%");
  expect_refused("/x?a=%4");
  expect_refused("/x?a=%G0");
  expect_refused("/x?a=%00");
  expect_refused("/x?a%00=1");
  expect_refused("/x?a=%ff");        // not UTF-8
  expect_refused("/x?a=%C3");        // truncated sequence
  expect_refused("/x?a=%C0%AF");     // overlong
  expect_refused("/x?a=%ED%A0%80");  // surrogate
}

TEST(HttpParams, IntWithDefaultsAndRanges) {
  const RequestTarget t = parsed("/x?limit=100&offset=0&neg=-5&big=99999999999999999999&r=51");
  EXPECT_EQ(int_param(t, "limit", 20, 1, 100).value, 100);
  EXPECT_EQ(int_param(t, "missing", 20, 1, 100).value, 20);
  EXPECT_EQ(int_param(t, "offset", 0, 0, INT64_MAX).value, 0);
  EXPECT_EQ(int_param(t, "neg", 0, -10, 10).value, -5);
  EXPECT_FALSE(int_param(t, "neg", 0, 0, 10).ok());
  EXPECT_FALSE(int_param(t, "big", 0, 0, INT64_MAX).ok());
  const IntParam r = int_param(t, "r", 5, 0, 50);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->status, 400);
  EXPECT_NE(r.error->message.find("r must be"), std::string::npos);
  EXPECT_FALSE(required_int_param(t, "missing", 0, 10).ok());
  EXPECT_EQ(required_int_param(t, "limit", 1, 100).value, 100);
}

TEST(HttpParams, IntSyntax) {
  for (const char* bad : {"1.0", "1e2", "+1", " 1", "1 ", "0x10", "abc", "1a", "--1", "-"}) {
    const RequestTarget t = parsed(std::string("/x?n=") + bad);
    EXPECT_FALSE(int_param(t, "n", 0, -100, 100).ok()) << bad;
  }
  EXPECT_EQ(int_param(parsed("/x?n=007"), "n", 0, 0, 100).value, 7);
  EXPECT_EQ(int_param(parsed("/x?n="), "n", 20, 1, 100).value, 20);  // empty: the default
  EXPECT_FALSE(int_param(parsed("/x?n=1&n=2"), "n", 20, 1, 100).ok());
}

TEST(HttpParams, Strings) {
  const RequestTarget t = parsed("/x?mode=same&seed=&player=Zo%C3%A9&ctl=a%0Ab&dup=1&dup=2");
  EXPECT_EQ(string_param(t, "mode", true).value, "same");
  EXPECT_FALSE(string_param(t, "seed", true).ok());
  EXPECT_FALSE(string_param(t, "seed", false).value);
  EXPECT_TRUE(string_param(t, "seed", false).ok());
  EXPECT_FALSE(string_param(t, "absent", true).ok());
  EXPECT_EQ(string_param(t, "player", true, 3).value, "Zoé");
  EXPECT_FALSE(string_param(t, "player", true, 2).ok());
  EXPECT_FALSE(string_param(t, "ctl", false).ok());
  EXPECT_FALSE(string_param(t, "dup", false).ok());
}

TEST(HttpError, Body) {
  const std::string body = http_error_body(ErrorCode::not_found, "no such \"path\"");
  EXPECT_EQ(
      nlohmann::json::parse(body),
      nlohmann::json::parse(R"({"error":{"code":"not_found","message":"no such \"path\""}})"));
  EXPECT_EQ(http_error_body(HttpError{400, ErrorCode::bad_request, "limit must be 1..100"}),
            R"({"error":{"code":"bad_request","message":"limit must be 1..100"}})");
}

}  // namespace
}  // namespace tilecrush::protocol
