// The bodies of the seasons' HTTP API (protocol.md, "Seasons"): a page of a
// period's standings, and the index of a mode's periods.
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/season_period.hpp"
#include "tilecrush/game/types.hpp"

namespace tilecrush::protocol {

// A period as shown: its name, kind and bounds (ISO 8601 UTC times, the
// end exclusive).
struct SeasonPeriodView {
  std::string period{};
  game::PeriodKind kind = game::PeriodKind::week;
  std::string starts_at{};
  std::string ends_at{};
};

struct SeasonEntryView {
  std::int64_t rank = 0;
  std::string player{};
  std::int64_t points = 0;
  std::int64_t boards = 0;
};

struct SeasonStandingsView {
  game::Mode mode = game::Mode::same;
  SeasonPeriodView period{};
  std::int64_t total = 0;
  std::vector<SeasonEntryView> entries{};
};

// {mode, period, kind, starts_at, ends_at, total, entries: [{rank, player,
// points, boards}]}.
nlohmann::json season_standings_body(const SeasonStandingsView& page);

struct SeasonIndexView {
  game::Mode mode = game::Mode::same;
  SeasonPeriodView week{};  // the current ones
  SeasonPeriodView month{};
  std::int64_t week_ends_in_s = 0;
  std::int64_t month_ends_in_s = 0;
  // Periods with standings, latest first, the current ones left out, each
  // with its number of players.
  std::vector<std::pair<SeasonPeriodView, std::int64_t>> past{};
};

// {mode, points_rule, week: Current, month: Current, past: [Period & {total}]},
// Period = {period, kind, starts_at, ends_at, href}, Current = Period &
// {ends_in_s}. href: the standings' path (/api/seasons/{period}?mode=).
nlohmann::json season_index_body(const SeasonIndexView& index);

}  // namespace tilecrush::protocol
