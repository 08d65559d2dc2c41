// The archive (Database::archive): closed listed competitions, latest close
// first, keyset-paged with no gaps or repeats, filtered by mode and kind,
// each with its key, field size and winner. On both backends.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <utility>

#include "test_support.hpp"
#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage::testing {
namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kNow = 1'000 * kHour;

class Archive : public CompetitionsTest {
 protected:
  // A competition closing at `closes_at`; its board.
  BoardRecord competition(const std::string& id, std::int64_t closes_at, bool daily = false,
                          game::Mode mode = game::Mode::same, bool unlisted = false) {
    CompetitionRecord comp = competition_record(id, mode, "classic", closes_at - kHour, closes_at);
    comp.name = "Cup " + id;
    comp.seed = "seed-" + id;
    comp.attempts = 3;
    comp.daily = daily;
    comp.unlisted = unlisted;
    comp.created_at = closes_at - 2 * kHour;
    return keep_competition(comp, static_cast<std::uint8_t>(boards_.size() & 0xff));
  }

  // A ranked game of `player` on the competition, finished with `score`.
  void enter(const BoardRecord& comp, PlayerId player, std::int64_t score, std::int64_t closes_at) {
    const GameRecord g =
        competition_game(numbered("g", ++games_), player, comp, closes_at - kHour + 1000);
    const WriteResult r = create_and_finish(
        *db_, g, {g.id, score, 10, game::OverReason::resigned, closes_at - 1000, 5000});
    ASSERT_TRUE(r.ok()) << r.message;
  }

  // Every page of `query` in turn: the ids, in order.
  std::vector<std::string> walk(ArchiveQuery query, int* pages = nullptr) {
    std::vector<std::string> ids;
    int n = 0;
    for (;;) {
      const ArchivePage page = db_->archive(query);
      ++n;
      EXPECT_LE(static_cast<std::int64_t>(page.competitions.size()), query.limit);
      for (const auto& e : page.competitions) ids.push_back(e.competition.id);
      if (!page.next) break;
      EXPECT_EQ(static_cast<std::int64_t>(page.competitions.size()), query.limit);
      query.before = page.next;
      if (n > 1000) break;
    }
    if (pages) *pages = n;
    return ids;
  }
};

TEST_F(Archive, PagesThroughEveryClosedListedCompetitionLatestCloseFirst) {
  std::vector<std::string> expected;
  // 45 closed, some sharing a close time (ordered by id, descending).
  for (int i = 0; i < 45; ++i) {
    const std::int64_t closes = kNow - (i / 3 + 1) * kHour;
    const std::string id = "c" + std::to_string(100 + i);
    competition(id, closes, i % 2 == 0);
  }
  competition("hidden", kNow - 2 * kHour, false, game::Mode::same, true);  // unlisted
  competition("open", kNow + kHour);                                       // still open
  competition("edge", kNow);  // closes exactly now: closed
  expected.push_back("edge");
  for (int group = 0; group < 15; ++group) {
    for (int j = 2; j >= 0; --j) expected.push_back("c" + std::to_string(100 + group * 3 + j));
  }
  ArchiveQuery query;
  query.now = kNow;
  query.limit = 10;
  int pages = 0;
  EXPECT_EQ(walk(query, &pages), expected);
  EXPECT_EQ(pages, 5);
  // A limit that divides the total exactly: the last page says so.
  query.limit = 46;
  const ArchivePage all = db_->archive(query);
  EXPECT_EQ(all.competitions.size(), 46u);
  EXPECT_FALSE(all.next.has_value());
  // Earlier than `now`: only what had closed then.
  query.limit = 100;
  query.now = kNow - 15 * kHour;
  const auto early = walk(query);
  ASSERT_EQ(early.size(), 3u);
  EXPECT_EQ(early.front(), "c144");
}

TEST_F(Archive, FiltersByModeAndKind) {
  competition("s-daily", kNow - 1 * kHour, true, game::Mode::same);
  competition("m-daily", kNow - 2 * kHour, true, game::Mode::match3);
  competition("s-cup", kNow - 3 * kHour, false, game::Mode::same);
  competition("h-cup", kNow - 4 * kHour, false, game::Mode::hidden);
  competition("m-cup", kNow - 5 * kHour, false, game::Mode::match3);
  ArchiveQuery query;
  query.now = kNow;
  query.limit = 2;
  query.mode = game::Mode::match3;
  EXPECT_EQ(walk(query), (std::vector<std::string>{"m-daily", "m-cup"}));
  query.mode.reset();
  query.kind = ArchiveKind::organised;
  EXPECT_EQ(walk(query), (std::vector<std::string>{"s-cup", "h-cup", "m-cup"}));
  query.kind = ArchiveKind::daily;
  EXPECT_EQ(walk(query), (std::vector<std::string>{"s-daily", "m-daily"}));
  query.mode = game::Mode::same;
  EXPECT_EQ(walk(query), (std::vector<std::string>{"s-daily"}));
  query.kind = ArchiveKind::organised;
  query.mode = game::Mode::hidden;
  EXPECT_EQ(walk(query), (std::vector<std::string>{"h-cup"}));
}

TEST_F(Archive, EachRowCarriesItsKeyFieldSizeAndWinner) {
  const std::int64_t closes = kNow - kHour;
  const BoardRecord cup = competition("cup", closes);
  const BoardRecord empty = competition("empty", closes - kHour);
  const PlayerId ada = make_player(*db_, "Ada");
  const PlayerId bo = make_player(*db_, "Bo");
  const PlayerId cy = make_player(*db_, "Cy");
  enter(cup, ada, 300, closes);
  enter(cup, bo, 500, closes);
  enter(cup, cy, 100, closes);
  ArchiveQuery query;
  query.now = kNow;
  ArchivePage page = db_->archive(query);
  ASSERT_EQ(page.competitions.size(), 2u);
  const ArchiveEntry& first = page.competitions[0];
  EXPECT_EQ(first.competition.id, "cup");
  EXPECT_EQ(first.key, cup.key);
  EXPECT_EQ(first.competition.commitment, game::commitment(cup.key));
  EXPECT_EQ(first.entries, 3);
  ASSERT_TRUE(first.winner.has_value());
  EXPECT_EQ(first.winner->player, "Bo");
  EXPECT_EQ(first.winner->score, 500);
  EXPECT_EQ(page.competitions[1].competition.id, "empty");
  EXPECT_EQ(page.competitions[1].key, empty.key);
  EXPECT_EQ(page.competitions[1].entries, 0);
  EXPECT_FALSE(page.competitions[1].winner.has_value());
  // A disqualified winner leaves the field; the next is the winner.
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db_->disqualify("cup", bo, "test", kNow, std::move(cb));
              }).ok());
  page = db_->archive(query);
  EXPECT_EQ(page.competitions[0].entries, 2);
  ASSERT_TRUE(page.competitions[0].winner.has_value());
  EXPECT_EQ(page.competitions[0].winner->player, "Ada");
}

TEST_F(Archive, TheArchiveQueryWalksAnIndexInOrder) {
  SKIP_UNLESS_SQLITE();
  ArchiveQuery query;
  query.now = kNow;
  query.before = ArchiveCursor{kNow - kHour, "x"};
  const std::pair<std::optional<game::Mode>, ArchiveKind> cases[] = {
      {std::nullopt, ArchiveKind::any},
      {game::Mode::hidden, ArchiveKind::any},
      {std::nullopt, ArchiveKind::organised},
      {game::Mode::match3, ArchiveKind::daily},
  };
  for (const auto& [mode, kind] : cases) {
    query.mode = mode;
    query.kind = kind;
    const std::string plan = db_->archive_query_plan(query);
    SCOPED_TRACE(plan);
    EXPECT_NE(plan.find("INDEX competitions_archive"), std::string::npos);
    EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos);
    EXPECT_EQ(plan.find("SCAN c"), std::string::npos);
  }
}

}  // namespace
}  // namespace tilecrush::storage::testing
