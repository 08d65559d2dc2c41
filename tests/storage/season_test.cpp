// Seasons (rules.md, "Seasons"): a closed daily's points by rank of field,
// added to its ISO week's and UTC month's standings of its mode, once;
// recounted by a disqualification; read by page, around a player and by
// revision. On both backends.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

std::int64_t day_of(int y, unsigned m, unsigned d) {
  using namespace std::chrono;
  return sys_days(year_month_day(year(y), month(m), day(d))).time_since_epoch().count();
}

// A Thursday: 2026-W48, 2026-11.
const std::int64_t kThursday = day_of(2026, 11, 26);

class Seasons : public CompetitionsTest {
 protected:
  PlayerId player(const std::string& name) {
    auto it = players_.find(name);
    if (it != players_.end()) return it->second;
    const PlayerId id = make_player(*db_, name);
    players_[name] = id;
    return id;
  }

  // The daily of `day` for (mode, preset), created once; with `is_daily`
  // false an organiser's competition ("comp-...") on the same terms.
  std::string daily(std::int64_t day, game::Mode mode = game::Mode::same,
                    const std::string& preset = "classic", bool is_daily = true) {
    CompetitionRecord comp = daily_competition(day, mode, preset);
    if (!is_daily) {
      comp.id.replace(0, 5, "comp");
      comp.name = comp.id;
      comp.daily = false;
    }
    return keep_competition(comp, static_cast<std::uint8_t>(day & 0xff)).scope;
  }

  // A finished ranked game of `name` on the daily (of `day`), scoring `score`.
  void play(const std::string& name, const std::string& comp_id, std::int64_t day,
            std::int64_t score) {
    const GameRecord g = competition_game(numbered("g", ++games_), player(name),
                                          boards_.at(comp_id), day * kDay + 1000);
    const WriteResult r = create_and_finish(
        *db_, g, {g.id, score, 10, game::OverReason::resigned, day * kDay + 60'000 + games_, 5000});
    ASSERT_TRUE(r.ok()) << r.message;
  }

  // Each day's daily, played by a player of its own ("p<day>") and recorded.
  void one_player_each(std::int64_t day1, std::int64_t day2, std::int64_t day3) {
    for (const std::int64_t day : {day1, day2, day3}) {
      const std::string d = daily(day);
      play("p" + std::to_string(day), d, day, 10);
      ASSERT_TRUE(record(d).ok());
    }
  }

  WriteResult record(const std::string& comp_id) {
    return wait_for([&](WriteCallback cb) { db_->record_season_points(comp_id, std::move(cb)); });
  }

  // "name:points" per place, in order.
  std::vector<std::string> standings(const std::string& period,
                                     game::Mode mode = game::Mode::same) {
    const SeasonPage page = db_->season_standings({period, mode}, 100, 0);
    std::vector<std::string> out;
    std::int64_t rank = 0;
    for (const SeasonEntry& e : page.entries) {
      EXPECT_EQ(e.rank, ++rank);
      out.push_back(e.player + ":" + std::to_string(e.points));
    }
    EXPECT_EQ(page.total, static_cast<std::int64_t>(out.size()));
    return out;
  }

  using Names = std::vector<std::string>;

  std::map<std::string, PlayerId> players_;
};

TEST_F(Seasons, PointsByRankOfFieldGoToTheWeekAndTheMonth) {
  const std::string d = daily(kThursday);
  play("Ada", d, kThursday, 400);
  play("Bob", d, kThursday, 300);
  play("Cy", d, kThursday, 300);  // ties Bob's score, finished later: third
  play("Dee", d, kThursday, 100);
  EXPECT_EQ(db_->season_revision({"2026-W48", game::Mode::same}).revision, 0);
  ASSERT_TRUE(record(d).ok());
  // Field 4: floor(100 * (4 - rank + 1) / 4).
  const Names expected{"Ada:100", "Bob:75", "Cy:50", "Dee:25"};
  EXPECT_EQ(standings("2026-W48"), expected);
  EXPECT_EQ(standings("2026-11"), expected);
  EXPECT_TRUE(standings("2026-W49").empty());
  EXPECT_TRUE(standings("2026-W48", game::Mode::match3).empty());
  const BoardRevision at = db_->season_revision({"2026-W48", game::Mode::same});
  EXPECT_EQ(at.entries, 4);
  EXPECT_GT(at.revision, 0);
  const SeasonPage page = db_->season_standings({"2026-W48", game::Mode::same}, 2, 1);
  ASSERT_EQ(page.entries.size(), 2u);
  EXPECT_EQ(page.entries[0].player, "Bob");
  EXPECT_EQ(page.entries[0].rank, 2);
  EXPECT_EQ(page.entries[1].boards, 1);
  EXPECT_EQ(page.total, 4);
  EXPECT_EQ(page.revision, at.revision);
}

TEST_F(Seasons, AFieldOfThreeRoundsDownAndALargeFieldGivesAtLeastOne) {
  const std::string d = daily(kThursday);
  play("Ada", d, kThursday, 3);
  play("Bob", d, kThursday, 2);
  play("Cy", d, kThursday, 1);
  ASSERT_TRUE(record(d).ok());
  EXPECT_EQ(standings("2026-W48"), (Names{"Ada:100", "Bob:66", "Cy:33"}));

  const std::string big = daily(kThursday, game::Mode::match3);
  for (int i = 0; i < 150; ++i) {
    play("m" + std::to_string(i), big, kThursday, 1000 - i);
  }
  ASSERT_TRUE(record(big).ok());
  const SeasonPage page = db_->season_standings({"2026-W48", game::Mode::match3}, 2, 148);
  ASSERT_EQ(page.entries.size(), 2u);
  EXPECT_EQ(page.entries[0].points, 1);  // floor(100 * 2 / 150) = 1
  EXPECT_EQ(page.entries[1].points, 1);  // floor(100 / 150) = 0, raised to 1
  EXPECT_EQ(page.total, 150);
}

TEST_F(Seasons, ADailyCountsOnce) {
  const std::string d = daily(kThursday);
  play("Ada", d, kThursday, 10);
  play("Bob", d, kThursday, 5);
  ASSERT_TRUE(record(d).ok());
  const BoardRevision before = db_->season_revision({"2026-11", game::Mode::same});
  ASSERT_TRUE(record(d).ok());
  ASSERT_TRUE(record(d).ok());
  EXPECT_EQ(standings("2026-11"), (Names{"Ada:100", "Bob:50"}));
  EXPECT_EQ(db_->season_revision({"2026-11", game::Mode::same}).revision, before.revision);
}

TEST_F(Seasons, DailiesAddUpAndTiesGoToFewerDailies) {
  // Thursday's classic and big boards and Friday's classic, all in W48.
  const std::string a = daily(kThursday, game::Mode::same, "classic");
  const std::string b = daily(kThursday, game::Mode::same, "big");
  const std::string c = daily(kThursday + 1, game::Mode::same, "classic");
  play("Ada", a, kThursday, 9);
  play("Bob", a, kThursday, 1);  // Ada 100, Bob 50
  play("Bob", b, kThursday, 5);
  play("Cy", b, kThursday, 7);       // Cy 100, Bob 50
  play("Dee", c, kThursday + 1, 7);  // Dee 100
  for (const auto& id : {a, b, c}) ASSERT_TRUE(record(id).ok());
  // Ada, Cy and Dee 100 from one daily each, Bob 100 from two: Bob last;
  // then by registration.
  EXPECT_EQ(standings("2026-W48"), (Names{"Ada:100", "Cy:100", "Dee:100", "Bob:100"}));
  const auto bob = db_->season_around({"2026-W48", game::Mode::same}, "bob", 0);
  ASSERT_TRUE(bob);
  ASSERT_EQ(bob->entries.size(), 1u);
  EXPECT_EQ(bob->entries[0].boards, 2);
  EXPECT_EQ(bob->entries[0].rank, 4);
  // A daily of another mode, and an organiser's competition, count nowhere.
  const std::string other = daily(kThursday, game::Mode::hidden);
  play("Eve", other, kThursday, 3);
  ASSERT_TRUE(record(other).ok());
  EXPECT_EQ(standings("2026-W48").size(), 4u);
  EXPECT_EQ(standings("2026-W48", game::Mode::hidden), (Names{"Eve:100"}));
  const std::string organised = daily(kThursday, game::Mode::same, "classic", false);
  EXPECT_EQ(record(organised).status, WriteStatus::invalid);
  EXPECT_EQ(record("nope").status, WriteStatus::not_found);
}

TEST_F(Seasons, ADisqualificationAfterTheCloseRecountsTheBoard) {
  const std::string d = daily(kThursday);
  const std::string e = daily(kThursday + 1);
  play("Ada", d, kThursday, 40);
  play("Bob", d, kThursday, 30);
  play("Cy", d, kThursday, 20);
  play("Dee", d, kThursday, 10);
  play("Bob", e, kThursday + 1, 10);
  ASSERT_TRUE(record(d).ok());
  ASSERT_TRUE(record(e).ok());
  EXPECT_EQ(standings("2026-W48"), (Names{"Bob:175", "Ada:100", "Cy:50", "Dee:25"}));
  const BoardRevision before = db_->season_revision({"2026-W48", game::Mode::same});
  const WriteResult dq = wait_for([&](WriteCallback cb) {
    db_->disqualify(d, player("Ada"), "test", kThursday * kDay, std::move(cb));
  });
  ASSERT_TRUE(dq.ok()) << dq.message;
  // Field 3 now: Bob 100 (+100 from Friday), Cy 66, Dee 33; Ada is gone.
  EXPECT_EQ(standings("2026-W48"), (Names{"Bob:200", "Cy:66", "Dee:33"}));
  EXPECT_EQ(standings("2026-11"), (Names{"Bob:200", "Cy:66", "Dee:33"}));
  EXPECT_GT(db_->season_revision({"2026-W48", game::Mode::same}).revision, before.revision);
  EXPECT_FALSE(db_->season_around({"2026-W48", game::Mode::same}, "Ada", 1));
  // Counting it again adds nothing.
  ASSERT_TRUE(record(d).ok());
  EXPECT_EQ(standings("2026-W48"), (Names{"Bob:200", "Cy:66", "Dee:33"}));
}

TEST_F(Seasons, ADisqualificationBeforeTheCountIsCountedByIt) {
  const std::string d = daily(kThursday);
  play("Ada", d, kThursday, 40);
  play("Bob", d, kThursday, 30);
  const WriteResult dq = wait_for([&](WriteCallback cb) {
    db_->disqualify(d, player("Ada"), "test", kThursday * kDay, std::move(cb));
  });
  ASSERT_TRUE(dq.ok()) << dq.message;
  EXPECT_TRUE(standings("2026-W48").empty());
  ASSERT_TRUE(record(d).ok());
  EXPECT_EQ(standings("2026-W48"), (Names{"Bob:100"}));
}

TEST_F(Seasons, WeeksEndOnSundayAndMonthsOnTheirLastDay) {
  const std::int64_t sunday = day_of(2026, 11, 29);
  const std::int64_t monday = day_of(2026, 11, 30);
  const std::int64_t december = day_of(2026, 12, 1);
  one_player_each(sunday, monday, december);
  const std::string sun = "p" + std::to_string(sunday);
  const std::string mon = "p" + std::to_string(monday);
  const std::string dec = "p" + std::to_string(december);
  EXPECT_EQ(standings("2026-W48"), (Names{sun + ":100"}));
  EXPECT_EQ(standings("2026-W49"), (Names{mon + ":100", dec + ":100"}));
  EXPECT_EQ(standings("2026-11"), (Names{sun + ":100", mon + ":100"}));
  EXPECT_EQ(standings("2026-12"), (Names{dec + ":100"}));
}

TEST_F(Seasons, TheLastIsoWeekOfAYearHoldsTheNextYearsFirstDays) {
  const std::int64_t eve = day_of(2026, 12, 31);
  const std::int64_t new_year = day_of(2027, 1, 1);
  const std::int64_t next_week = day_of(2027, 1, 4);
  one_player_each(eve, new_year, next_week);
  EXPECT_EQ(standings("2026-W53").size(), 2u);
  EXPECT_EQ(standings("2027-W01").size(), 1u);
  EXPECT_EQ(standings("2026-12").size(), 1u);
  EXPECT_EQ(standings("2027-01").size(), 2u);
  // The periods of the mode, latest first, a week before its month.
  std::vector<std::string> names;
  for (const SeasonPeriodRecord& p : db_->season_periods(game::Mode::same, 10)) {
    names.push_back(p.period + (p.week ? "/w" : "/m") + std::to_string(p.entries));
  }
  EXPECT_EQ(names, (Names{"2027-W01/w1", "2027-01/m2", "2026-W53/w2", "2026-12/m1"}));
  EXPECT_EQ(db_->season_periods(game::Mode::same, 1).size(), 1u);
  EXPECT_TRUE(db_->season_periods(game::Mode::match3, 10).empty());
}

TEST_F(Seasons, AroundAPlayer) {
  const std::string d = daily(kThursday);
  for (int i = 0; i < 10; ++i) play("p" + std::to_string(i), d, kThursday, 100 - i);
  ASSERT_TRUE(record(d).ok());
  const SeasonKey week{"2026-W48", game::Mode::same};
  const auto around = db_->season_around(week, "P5", 2);
  ASSERT_TRUE(around);
  ASSERT_EQ(around->entries.size(), 5u);
  EXPECT_EQ(around->entries.front().rank, 4);
  EXPECT_EQ(around->entries.back().rank, 8);
  EXPECT_EQ(around->entries[2].player, "p5");
  EXPECT_EQ(around->total, 10);
  const auto top = db_->season_around(week, "p0", 3);
  ASSERT_TRUE(top);
  EXPECT_EQ(top->entries.size(), 4u);
  EXPECT_FALSE(db_->season_around(week, "nobody", 3));
  EXPECT_FALSE(db_->season_around({"2026-W49", game::Mode::same}, "p0", 3));
  EXPECT_TRUE(db_->season_standings(week, 10, 10).entries.empty());
  EXPECT_TRUE(db_->season_standings(week, -1, -5).entries.empty());
}

}  // namespace
}  // namespace tilecrush::storage::testing
