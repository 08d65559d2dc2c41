// Season periods: ISO weeks (Monday to Sunday, numbered by their
// Thursday's year) and UTC months, by name and by day.
#include "tilecrush/game/season_period.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace tilecrush::game {
namespace {

std::int64_t day_of(int y, unsigned m, unsigned d) {
  using namespace std::chrono;
  return sys_days(year_month_day(year(y), month(m), day(d))).time_since_epoch().count();
}

TEST(SeasonPeriod, WeeksAreIsoWeeks) {
  EXPECT_EQ(week_of_day(day_of(2026, 11, 26)).name(), "2026-W48");
  // A Sunday and the Monday after it.
  EXPECT_EQ(week_of_day(day_of(2026, 11, 29)).name(), "2026-W48");
  EXPECT_EQ(week_of_day(day_of(2026, 11, 30)).name(), "2026-W49");
  EXPECT_EQ(week_of_day(day_of(2026, 11, 23)).start_day, day_of(2026, 11, 23));
  EXPECT_EQ(week_of_day(day_of(2026, 11, 23)).end_day, day_of(2026, 11, 30));
}

TEST(SeasonPeriod, WeeksAcrossAYearEnd) {
  // 2026-12-31 is a Thursday: its week is 2026's 53rd, and holds 2027-01-01..03.
  EXPECT_EQ(week_of_day(day_of(2026, 12, 31)).name(), "2026-W53");
  EXPECT_EQ(week_of_day(day_of(2027, 1, 1)).name(), "2026-W53");
  EXPECT_EQ(week_of_day(day_of(2027, 1, 3)).name(), "2026-W53");
  EXPECT_EQ(week_of_day(day_of(2027, 1, 4)).name(), "2027-W01");
  // 2025-12-29 (a Monday) starts 2026-W01.
  EXPECT_EQ(week_of_day(day_of(2025, 12, 29)).name(), "2026-W01");
  EXPECT_EQ(week_of_day(day_of(2025, 12, 28)).name(), "2025-W52");
}

TEST(SeasonPeriod, Months) {
  const SeasonPeriod nov = month_of_day(day_of(2026, 11, 30));
  EXPECT_EQ(nov.name(), "2026-11");
  EXPECT_EQ(nov.start_day, day_of(2026, 11, 1));
  EXPECT_EQ(nov.end_day, day_of(2026, 12, 1));
  EXPECT_EQ(month_of_day(day_of(2026, 12, 1)).name(), "2026-12");
  EXPECT_EQ(month_of_day(day_of(2026, 12, 31)).end_day, day_of(2027, 1, 1));
}

TEST(SeasonPeriod, ParsesNamesAndRefusesOthers) {
  const auto w = parse_season_period("2026-W53");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->kind, PeriodKind::week);
  EXPECT_EQ(w->start_day, day_of(2026, 12, 28));
  EXPECT_EQ(w->end_day, day_of(2027, 1, 4));
  const auto m = parse_season_period("2027-02");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->kind, PeriodKind::month);
  EXPECT_EQ(m->end_day - m->start_day, 28);
  EXPECT_EQ(parse_season_period("2026-W48")->name(), "2026-W48");
  for (const char* bad : {"2027-W53", "2026-W00", "2026-W54", "2026-13", "2026-00", "2026-1",
                          "26-11", "2026-w48", "1999-12", "2026-11x", "", "2026-W4"}) {
    EXPECT_FALSE(parse_season_period(bad)) << bad;
  }
}

TEST(SeasonPeriod, Previous) {
  EXPECT_EQ(previous_period(*parse_season_period("2027-W01")).name(), "2026-W53");
  EXPECT_EQ(previous_period(*parse_season_period("2027-01")).name(), "2026-12");
}

}  // namespace
}  // namespace tilecrush::game
