#include "tilecrush/game/season_period.hpp"

// Only <chrono>'s calendar (year_month_day, sys_days): date arithmetic on
// day numbers the caller gives. No clock is read here: the engine stays
// pure, and "today" comes from the server.
#include <chrono>
#include <string>

namespace tilecrush::game {
namespace {

using std::chrono::day;
using std::chrono::days;
using std::chrono::month;
using std::chrono::sys_days;
using std::chrono::year;
using std::chrono::year_month_day;

constexpr int kMinYear = 2000;
constexpr int kMaxYear = 9999;

std::int64_t day_number(int y, unsigned m, unsigned d) {
  return sys_days(year_month_day(year(y), month(m), day(d))).time_since_epoch().count();
}

year_month_day date_of(std::int64_t d) {
  return year_month_day(sys_days(days(d)));
}

// 0 for Monday .. 6 for Sunday; 1970-01-01 was a Thursday.
std::int64_t weekday_from_monday(std::int64_t d) {
  return ((d + 3) % 7 + 7) % 7;
}

// The Monday of ISO week 1 of `iso_year`: the week holding January 4th.
std::int64_t first_monday(int iso_year) {
  const std::int64_t jan4 = day_number(iso_year, 1, 4);
  return jan4 - weekday_from_monday(jan4);
}

bool digits(std::string_view s) {
  for (const char ch : s) {
    if (ch < '0' || ch > '9') return false;
  }
  return !s.empty();
}

int number_of(std::string_view s) {
  int n = 0;
  for (const char ch : s) n = n * 10 + (ch - '0');
  return n;
}

SeasonPeriod month_period(int y, int m) {
  SeasonPeriod p;
  p.kind = PeriodKind::month;
  p.year = y;
  p.number = m;
  p.start_day = day_number(y, static_cast<unsigned>(m), 1);
  p.end_day = m == 12 ? day_number(y + 1, 1, 1) : day_number(y, static_cast<unsigned>(m + 1), 1);
  return p;
}

// `value` in decimal, zero-padded to `width` characters as printf's "%0*d"
// would (the sign counts towards the width).
std::string padded(int value, std::size_t width) {
  const bool negative = value < 0;
  std::string digits = std::to_string(negative ? -static_cast<long long>(value) : value);
  const std::size_t used = digits.size() + (negative ? 1 : 0);
  if (used < width) digits.insert(0, width - used, '0');
  return negative ? "-" + digits : digits;
}

}  // namespace

std::string SeasonPeriod::name() const {
  std::string text = padded(year, 4);
  text += kind == PeriodKind::week ? "-W" : "-";
  text += padded(number, 2);
  return text;
}

std::string_view to_string(PeriodKind kind) {
  return kind == PeriodKind::week ? "week" : "month";
}

SeasonPeriod week_of_day(std::int64_t d) {
  const std::int64_t monday = d - weekday_from_monday(d);
  const int iso_year = static_cast<int>(date_of(monday + 3).year());
  SeasonPeriod p;
  p.kind = PeriodKind::week;
  p.year = iso_year;
  p.number = static_cast<int>((monday - first_monday(iso_year)) / 7 + 1);
  p.start_day = monday;
  p.end_day = monday + 7;
  return p;
}

SeasonPeriod month_of_day(std::int64_t d) {
  const year_month_day date = date_of(d);
  return month_period(static_cast<int>(date.year()), static_cast<int>(unsigned(date.month())));
}

std::optional<SeasonPeriod> parse_season_period(std::string_view text) {
  if (text.size() < 7 || !digits(text.substr(0, 4)) || text[4] != '-') return std::nullopt;
  const int y = number_of(text.substr(0, 4));
  if (y < kMinYear || y > kMaxYear) return std::nullopt;
  if (text.size() == 8 && text[5] == 'W' && digits(text.substr(6))) {
    const int w = number_of(text.substr(6));
    if (w < 1 || w > 53) return std::nullopt;
    const SeasonPeriod p = week_of_day(first_monday(y) + 7 * static_cast<std::int64_t>(w - 1));
    if (p.year != y || p.number != w) return std::nullopt;  // no week 53 that year
    return p;
  }
  if (text.size() == 7 && digits(text.substr(5))) {
    const int m = number_of(text.substr(5));
    if (m < 1 || m > 12) return std::nullopt;
    return month_period(y, m);
  }
  return std::nullopt;
}

SeasonPeriod previous_period(const SeasonPeriod& period) {
  return period.kind == PeriodKind::week ? week_of_day(period.start_day - 1)
                                         : month_of_day(period.start_day - 1);
}

}  // namespace tilecrush::game
