// Wall-clock helpers: the only place the server reads the time of day.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::server {

// A UTC day (no leap seconds: Unix time), in milliseconds.
inline constexpr std::int64_t kDayMs = 86'400'000;

// Milliseconds since the Unix epoch.
std::int64_t now_ms();

// The UTC date of `ms` as YYYY-MM-DD: the daily seed (rules.md).
std::string utc_date(std::int64_t ms);

// Seconds until the next 00:00 UTC after `ms` (1..86400).
std::int64_t seconds_to_next_utc_day(std::int64_t ms);

}  // namespace tilecrush::server

namespace tilecrush::server {
// ISO 8601 UTC with milliseconds: "2026-11-22T07:31:38.123Z".
std::string iso_time(std::int64_t ms);
// The inverse, also without milliseconds ("2026-11-22T07:31:38Z"); only UTC
// ("Z"), years 2000-9999; nullopt for anything else.
std::optional<std::int64_t> parse_iso_time(std::string_view text);
}  // namespace tilecrush::server
