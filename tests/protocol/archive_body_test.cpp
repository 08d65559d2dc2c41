// GET /api/archive's body and its cursor (archive_body.hpp).
#include "tilecrush/protocol/archive_body.hpp"

#include <gtest/gtest.h>

namespace tilecrush::protocol {
namespace {

TEST(ArchiveCursor, ReadsBackWhatItWrites) {
  const ArchiveCursor c{1'795'651'200'000, "daily-2026-11-24-same-classic"};
  const auto text = archive_cursor_text(c);
  EXPECT_EQ(text, "1795651200000.daily-2026-11-24-same-classic");
  const auto back = parse_archive_cursor(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->closes_at, c.closes_at);
  EXPECT_EQ(back->id, c.id);
}

TEST(ArchiveCursor, RefusesAnythingElse) {
  for (const char* bad : {"", ".", "12", "12.", ".abc", "-1.abc", "+1.abc", "1x.abc", "1.a b",
                          "1.a.b", "1234567890123456.abc", "1.é"}) {
    EXPECT_FALSE(parse_archive_cursor(bad).has_value()) << bad;
  }
  EXPECT_FALSE(parse_archive_cursor("1." + std::string(65, 'a')).has_value());
  EXPECT_TRUE(parse_archive_cursor("1." + std::string(64, 'a')).has_value());
}

TEST(ArchiveBody, ListsEachCompetitionWithItsFieldAndWinner) {
  ArchiveItem won;
  won.competition.id = "abc";
  won.competition.name = "Cup";
  won.competition.state = "closed";
  won.competition.key = std::string(64, '0');
  won.entries = 3;
  won.winner = "Bo";
  won.winner_score = 500;
  ArchiveItem empty = won;
  empty.competition.id = "def";
  empty.entries = 0;
  empty.winner.reset();
  empty.winner_score.reset();
  const auto body = archive_body({won, empty}, ArchiveCursor{5, "def"});
  ASSERT_EQ(body["competitions"].size(), 2u);
  EXPECT_EQ(body["competitions"][0]["id"], "abc");
  EXPECT_EQ(body["competitions"][0]["entries"], 3);
  EXPECT_EQ(body["competitions"][0]["winner"]["player"], "Bo");
  EXPECT_EQ(body["competitions"][0]["winner"]["score"], 500);
  EXPECT_EQ(body["competitions"][0]["key"], std::string(64, '0'));
  EXPECT_TRUE(body["competitions"][1]["winner"].is_null());
  EXPECT_EQ(body["next"], "5.def");
  EXPECT_TRUE(archive_body({}, std::nullopt)["next"].is_null());
}

}  // namespace
}  // namespace tilecrush::protocol
