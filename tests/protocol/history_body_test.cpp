// The history bodies and their cursor (protocol.md, "History"): a cursor
// reads back what it was written from, and anything else is refused.
#include "tilecrush/protocol/history_body.hpp"

#include <gtest/gtest.h>

namespace tilecrush::protocol {
namespace {

TEST(HistoryCursor, ReadsBackWhatItWrites) {
  const HistoryCursor c{1795513272408, "9e41c07d2a5b8f36"};
  EXPECT_EQ(history_cursor_text(c), "1795513272408.9e41c07d2a5b8f36");
  const auto back = parse_history_cursor(history_cursor_text(c));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->finished_at, c.finished_at);
  EXPECT_EQ(back->game_id, c.game_id);
  EXPECT_TRUE(parse_history_cursor("0.a"));
}

TEST(HistoryCursor, RefusesAnythingElse) {
  for (const char* text :
       {"", ".", "12", "12.", ".abc", "-1.abc", "+1.abc", "1e3.abc", "12.a b", "12.a/b", "12.é",
        "1234567890123456789.abc", "99999999999999999999.a", "12.abc.def"}) {
    EXPECT_FALSE(parse_history_cursor(text)) << text;
  }
  EXPECT_FALSE(parse_history_cursor("1." + std::string(65, 'a')));
  EXPECT_TRUE(parse_history_cursor("1." + std::string(64, 'a')));
}

TEST(HistoryBody, NullsWhereNothingIsKnown) {
  HistoryRow row;
  row.game_id = "0123456789abcdef";
  row.seed = "s";
  row.finished_at = "2030-01-01T00:00:00.000Z";
  const auto body = history_body("Zoé", {row}, std::nullopt);
  EXPECT_EQ(body["player"], "Zoé");
  EXPECT_TRUE(body["next"].is_null());
  const auto& g = body["games"][0];
  EXPECT_TRUE(g["preset"].is_null());
  EXPECT_TRUE(g["competition"].is_null());
  EXPECT_TRUE(g["attempt"].is_null());
  EXPECT_TRUE(g["rank"].is_null());
  EXPECT_TRUE(g["field"].is_null());
  EXPECT_EQ(g["mode"], "same");
  EXPECT_EQ(calendar_body("a", "2030-01", {{"2030-01-02", 3}}).dump(),
            R"({"days":[{"date":"2030-01-02","games":3}],"month":"2030-01","player":"a"})");
}

}  // namespace
}  // namespace tilecrush::protocol
