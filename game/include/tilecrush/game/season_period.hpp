// Season periods (docs/rules.md, "Seasons"): ISO weeks ("2026-W48",
// Monday 00:00 UTC to the next Monday) and UTC months ("2026-11"). A daily
// belongs to the week and the month of its UTC date. Days are whole days
// since 1970-01-01 (UTC); `end_day` is the first day after the period.
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::game {

enum class PeriodKind : std::uint8_t { week, month };

struct SeasonPeriod {
  PeriodKind kind = PeriodKind::week;
  int year = 1970;  // the ISO week-numbering year for a week
  int number = 1;   // week 1..53, or month 1..12
  std::int64_t start_day = 0;
  std::int64_t end_day = 0;  // exclusive

  // "2026-W48" or "2026-11".
  std::string name() const;
};

std::string_view to_string(PeriodKind kind);  // "week", "month"

// The ISO week holding `day`: the week of its Thursday's year.
SeasonPeriod week_of_day(std::int64_t day);
// The UTC month holding `day`.
SeasonPeriod month_of_day(std::int64_t day);
// "YYYY-Www" (a week that exists in that ISO year: W53 only in long years)
// or "YYYY-MM", years 2000..9999; nullopt for anything else.
std::optional<SeasonPeriod> parse_season_period(std::string_view text);
// The period right before `period` (of the same kind).
SeasonPeriod previous_period(const SeasonPeriod& period);

}  // namespace tilecrush::game
