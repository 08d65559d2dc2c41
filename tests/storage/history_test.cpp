// A player's history (Database::player_history, player_calendar): finished
// games newest first, paged by a cursor that new games do not move, the
// view of others limited to closed listed competitions, the bound on rows
// looked at, ranks and fields, and the days of a month. On both backends.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

class History : public CompetitionsTest {
 protected:
  void SetUp() override {
    CompetitionsTest::SetUp();
    ada_ = make_player(*db_, "Ada");
    bob_ = make_player(*db_, "Bob");
  }

  // A competition open during [opens_at, closes_at).
  std::string competition(const std::string& id, std::int64_t opens_at, std::int64_t closes_at,
                          bool daily, bool unlisted = false) {
    CompetitionRecord comp = competition_record(id, game::Mode::same, "easy", opens_at, closes_at);
    comp.name = "Cup " + id;
    comp.daily = daily;
    comp.unlisted = unlisted;
    comp.created_at = opens_at - 1;
    keep_competition(comp, 7);
    return id;
  }

  // A finished game of `player`: casual (seed "s") without a competition.
  std::string play(PlayerId player, std::int64_t finished_at, std::int64_t score = 100,
                   std::optional<std::string> comp = std::nullopt, std::int64_t move_count = 10) {
    const std::string id = numbered("g", 1000 + ++games_);
    GameRecord g;
    if (comp) {
      g = competition_game(id, player, boards_.at(*comp), finished_at - 1000);
    } else {
      g = ranked_game(id, player, {game::Mode::same, "easy", "s", ""}, finished_at - 1000);
      g.setup.rules_version = 2;
    }
    const WriteResult r = create_and_finish(
        *db_, g, {id, score, move_count, game::OverReason::no_moves, finished_at, 5000});
    EXPECT_TRUE(r.ok()) << r.message;
    return id;
  }

  HistoryPage page(PlayerId player, std::int64_t limit,
                   std::optional<HistoryCursor> before = std::nullopt,
                   HistoryView view = HistoryView::own, std::int64_t now = 0,
                   std::int64_t scan = 0) {
    HistoryQuery q;
    q.player = player;
    q.view = view;
    q.now = now;
    q.before = std::move(before);
    q.limit = limit;
    q.scan = scan;
    return db_->player_history(q);
  }

  static std::vector<std::string> ids(const HistoryPage& p) {
    std::vector<std::string> out;
    for (const auto& g : p.games) out.push_back(g.game_id);
    return out;
  }

  PlayerId ada_ = 0;
  PlayerId bob_ = 0;
};

TEST_F(History, NewestFirstPagedByACursorThatNewGamesDoNotMove) {
  std::vector<std::string> g;
  for (int i = 1; i <= 5; ++i) g.push_back(play(ada_, i * 10'000));
  play(bob_, 25'000);  // another player's game is never in Ada's history
  // A game still playing is not listed.
  db_->create_game(ranked_game("playing", ada_, {game::Mode::same, "easy", "s", ""}, 99'000));

  const HistoryPage first = page(ada_, 2);
  EXPECT_EQ(ids(first), (std::vector<std::string>{g[4], g[3]}));
  ASSERT_TRUE(first.next);
  EXPECT_EQ(first.next->game_id, g[3]);
  EXPECT_EQ(first.next->finished_at, 40'000);

  // A game finishing now comes first, and leaves the next pages as they were.
  const std::string newest = play(ada_, 100'000);
  const HistoryPage second = page(ada_, 2, first.next);
  EXPECT_EQ(ids(second), (std::vector<std::string>{g[2], g[1]}));
  ASSERT_TRUE(second.next);
  const HistoryPage third = page(ada_, 2, second.next);
  EXPECT_EQ(ids(third), (std::vector<std::string>{g[0]}));
  EXPECT_FALSE(third.next);
  EXPECT_EQ(ids(page(ada_, 1)), (std::vector<std::string>{newest}));
  // Exactly a page's worth: no next.
  EXPECT_FALSE(page(ada_, 6).next);
  EXPECT_TRUE(page(bob_, 20).games.size() == 1);
  EXPECT_TRUE(page(make_player(*db_, "Cy"), 20).games.empty());
}

TEST_F(History, EqualFinishTimesAreOrderedByIdAndNeverSkipped) {
  std::vector<std::string> g;
  for (int i = 0; i < 5; ++i) g.push_back(play(ada_, 50'000));  // ids g1001.. ascending
  std::vector<std::string> seen;
  std::optional<HistoryCursor> cursor;
  do {
    const HistoryPage p = page(ada_, 2, cursor);
    for (const auto& id : ids(p)) seen.push_back(id);
    cursor = p.next;
  } while (cursor);
  EXPECT_EQ(seen, (std::vector<std::string>{g[4], g[3], g[2], g[1], g[0]}));
}

TEST_F(History, OthersSeeOnlyListedCompetitionsOnceTheyHaveClosed) {
  const std::int64_t open_from = kFirstDay * kDay;
  const std::string daily = competition("daily-a", open_from, open_from + kDay, true);
  const std::string cup = competition("cup-b", open_from, open_from + 3 * kDay, false);
  const std::string hidden = competition("unl-c", open_from, open_from + kDay, false, true);
  const std::string on_daily = play(ada_, open_from + 1000, 50, daily);
  const std::string on_cup = play(ada_, open_from + 2000, 60, cup);
  const std::string on_unlisted = play(ada_, open_from + 3000, 70, hidden);
  const std::string casual = play(ada_, open_from + 4000);

  // The player: everything, with the competitions' details.
  const HistoryPage own = page(ada_, 20);
  EXPECT_EQ(ids(own), (std::vector<std::string>{casual, on_unlisted, on_cup, on_daily}));
  EXPECT_FALSE(own.games[0].competition);
  ASSERT_TRUE(own.games[1].competition);
  EXPECT_TRUE(own.games[1].unlisted);
  EXPECT_EQ(own.games[3].competition_name, "Cup daily-a");
  EXPECT_TRUE(own.games[3].daily);
  EXPECT_EQ(own.games[3].attempt, 1);

  // Others, while every board is open: nothing.
  const auto closed_view = [&](std::int64_t now) {
    return ids(page(ada_, 20, std::nullopt, HistoryView::closed_boards, now));
  };
  EXPECT_TRUE(closed_view(open_from + 5000).empty());
  // After the daily's (and the unlisted one's) close: the daily only.
  EXPECT_EQ(closed_view(open_from + kDay), (std::vector<std::string>{on_daily}));
  // After the cup's close too.
  EXPECT_EQ(closed_view(open_from + 3 * kDay), (std::vector<std::string>{on_cup, on_daily}));

  // The calendar follows the same rule.
  const auto days = [&](HistoryView view, std::int64_t now) {
    return db_->player_calendar(ada_, view, now, open_from - kDay, open_from + 2 * kDay);
  };
  const auto own_days = days(HistoryView::own, 0);
  ASSERT_EQ(own_days.size(), 1u);
  EXPECT_EQ(own_days[0].day, kFirstDay);
  EXPECT_EQ(own_days[0].games, 4);
  EXPECT_TRUE(days(HistoryView::closed_boards, open_from + 5000).empty());
  const auto closed_days = days(HistoryView::closed_boards, open_from + 3 * kDay);
  ASSERT_EQ(closed_days.size(), 1u);
  EXPECT_EQ(closed_days[0].games, 2);
}

TEST_F(History, AScanLimitBoundsAPageAndItsNextGoesOn) {
  const std::int64_t open_from = kFirstDay * kDay;
  const std::string daily = competition("daily-a", open_from, open_from + kDay, true);
  const std::string on_daily = play(ada_, open_from + 1000, 50, daily);
  for (int i = 0; i < 7; ++i) play(ada_, open_from + 2000 + i);  // casual: not shown to others
  const std::int64_t now = open_from + kDay;
  // Limit 1, 3 rows looked at per page: pages come back empty, with a next,
  // until the closed board's game.
  std::optional<HistoryCursor> cursor;
  std::vector<std::string> seen;
  int pages = 0;
  do {
    const HistoryPage p = page(ada_, 1, cursor, HistoryView::closed_boards, now, 3);
    EXPECT_LE(p.games.size(), 1u);
    for (const auto& id : ids(p)) seen.push_back(id);
    cursor = p.next;
    ASSERT_LT(++pages, 10);
  } while (cursor);
  EXPECT_EQ(seen, (std::vector<std::string>{on_daily}));
  EXPECT_EQ(pages, 3);  // 8 games, 3 looked at a page
}

TEST_F(History, RanksAreTheEntrysOrWhereTheResultWouldStand) {
  const std::string best = play(ada_, 10'000, 300);
  play(bob_, 11'000, 400);
  play(make_player(*db_, "Cy"), 12'000, 200);
  const std::string worse = play(ada_, 13'000, 250);
  const std::string worst = play(ada_, 14'000, 100);
  const HistoryPage p = page(ada_, 20);
  ASSERT_EQ(ids(p), (std::vector<std::string>{worst, worse, best}));
  // Ada's entry (300) is second of three.
  EXPECT_TRUE(p.games[2].is_entry);
  EXPECT_EQ(p.games[2].rank, 2);
  EXPECT_EQ(p.games[2].field, 3);
  // 250 would be second too (Ada's own 300 not counted); 100 third.
  EXPECT_FALSE(p.games[1].is_entry);
  EXPECT_EQ(p.games[1].rank, 2);
  EXPECT_EQ(p.games[0].rank, 3);
  EXPECT_EQ(p.games[0].field, 3);

  // The same ranks without the rank cache (the count over the index), from
  // a second, read-only handle.
  Options plain = options_for(dir_.file());
  plain.read_only = true;
  plain.rank_cache_keys = 0;
  Database reader(plain);
  HistoryQuery q;
  q.player = ada_;
  q.limit = 20;
  const HistoryPage again = reader.player_history(q);
  ASSERT_EQ(ids(again), ids(p));
  for (std::size_t i = 0; i < p.games.size(); ++i) {
    EXPECT_EQ(again.games[i].rank, p.games[i].rank) << i;
    EXPECT_EQ(again.games[i].field, p.games[i].field) << i;
    EXPECT_EQ(again.games[i].is_entry, p.games[i].is_entry) << i;
  }
  EXPECT_GT(db_->rank_cache_metrics().indexed_reads, 0u);
  EXPECT_EQ(db_->rank_cache_metrics().mismatches, 0u);
}

TEST_F(History, PracticeGamesHaveNoRank) {
  GameRecord g = ranked_game("practice", ada_, {game::Mode::same, "easy", "s", ""});
  g.ranked = false;
  ASSERT_TRUE(store_game(*db_, g).ok());
  GameResult result;
  result.game_id = "practice";
  result.score = 10;
  result.over_reason = game::OverReason::resigned;
  result.finished_at = 5000;
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { db_->finish_game(result, std::move(cb)); }).ok());
  const HistoryPage p = page(ada_, 20);
  ASSERT_EQ(p.games.size(), 1u);
  EXPECT_FALSE(p.games[0].ranked);
  EXPECT_FALSE(p.games[0].rank);
  EXPECT_FALSE(p.games[0].field);
}

TEST_F(History, TheCalendarCountsGamesPerUtcDayWithinTheRange) {
  const std::int64_t d = kFirstDay * kDay;
  play(ada_, d + 1000);
  play(ada_, d + kDay - 1);  // the last millisecond of the day
  play(ada_, d + 2 * kDay);
  play(ada_, d - 1);          // the day before the range
  play(ada_, d + 10 * kDay);  // the range's end is excluded
  play(bob_, d + 5000);
  const auto days = db_->player_calendar(ada_, HistoryView::own, 0, d, d + 10 * kDay);
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(days[0].day, kFirstDay);
  EXPECT_EQ(days[0].games, 2);
  EXPECT_EQ(days[1].day, kFirstDay + 2);
  EXPECT_EQ(days[1].games, 1);
}

}  // namespace
}  // namespace tilecrush::storage::testing
