#include "ops/clock.hpp"

#include <cstdio>

namespace tilecrush::server {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string utc_date(std::int64_t ms) {
  using namespace std::chrono;
  const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(ms)));
  const year_month_day ymd(day);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

std::int64_t seconds_to_next_utc_day(std::int64_t ms) {
  std::int64_t into_day = ms % kDayMs;
  if (into_day < 0) into_day += kDayMs;
  return (kDayMs - into_day + 999) / 1000;
}

}  // namespace tilecrush::server

namespace tilecrush::server {

std::string iso_time(std::int64_t ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds(ms)};
  const sys_days day = floor<days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss<milliseconds> tod(t - day);
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<int>(tod.hours().count()),
                static_cast<int>(tod.minutes().count()), static_cast<int>(tod.seconds().count()),
                static_cast<int>(tod.subseconds().count()));
  return text;
}

}  // namespace tilecrush::server

namespace tilecrush::server {

std::optional<std::int64_t> parse_iso_time(std::string_view text) {
  using namespace std::chrono;
  // YYYY-MM-DDTHH:MM:SS[.sss]Z
  if (text.size() != 20 && text.size() != 24) return std::nullopt;
  auto digits = [&](std::size_t at, std::size_t n, int& out) {
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      out = out * 10 + (text[i] - '0');
    }
    return true;
  };
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
  if (!digits(0, 4, y) || text[4] != '-' || !digits(5, 2, mo) || text[7] != '-' ||
      !digits(8, 2, d) || text[10] != 'T' || !digits(11, 2, h) || text[13] != ':' ||
      !digits(14, 2, mi) || text[16] != ':' || !digits(17, 2, s)) {
    return std::nullopt;
  }
  if (text.size() == 24 && (text[19] != '.' || !digits(20, 3, ms))) return std::nullopt;
  if (text.back() != 'Z') return std::nullopt;
  const year_month_day ymd{year(y), month(static_cast<unsigned>(mo)),
                           day(static_cast<unsigned>(d))};
  if (y < 2000 || !ymd.ok() || h > 23 || mi > 59 || s > 59) return std::nullopt;
  const auto t = sys_days(ymd) + hours(h) + minutes(mi) + seconds(s) + milliseconds(ms);
  return duration_cast<milliseconds>(t.time_since_epoch()).count();
}

}  // namespace tilecrush::server
