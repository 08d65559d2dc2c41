#include "tilecrush/protocol/season_bodies.hpp"

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

json period_json(const SeasonPeriodView& p, game::Mode mode) {
  return {{"period", p.period},
          {"kind", game::to_string(p.kind)},
          {"starts_at", p.starts_at},
          {"ends_at", p.ends_at},
          {"href", "/api/seasons/" + p.period + "?mode=" + std::string(game::to_string(mode))}};
}

}  // namespace

json season_standings_body(const SeasonStandingsView& page) {
  json entries = json::array();
  for (const SeasonEntryView& e : page.entries) {
    entries.push_back(
        {{"rank", e.rank}, {"player", e.player}, {"points", e.points}, {"boards", e.boards}});
  }
  return {{"mode", game::to_string(page.mode)},
          {"period", page.period.period},
          {"kind", game::to_string(page.period.kind)},
          {"starts_at", page.period.starts_at},
          {"ends_at", page.period.ends_at},
          {"total", page.total},
          {"entries", std::move(entries)}};
}

json season_index_body(const SeasonIndexView& index) {
  json week = period_json(index.week, index.mode);
  week["ends_in_s"] = index.week_ends_in_s;
  json month = period_json(index.month, index.mode);
  month["ends_in_s"] = index.month_ends_in_s;
  json past = json::array();
  for (const auto& [period, total] : index.past) {
    json p = period_json(period, index.mode);
    p["total"] = total;
    past.push_back(std::move(p));
  }
  return {{"mode", game::to_string(index.mode)},
          {"points_rule", "max(1, floor(100 * (field - rank + 1) / field))"},
          {"week", std::move(week)},
          {"month", std::move(month)},
          {"past", std::move(past)}};
}

}  // namespace tilecrush::protocol
