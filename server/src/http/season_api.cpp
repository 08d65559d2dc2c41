// The seasons' HTTP API (protocol.md, "Seasons"): a mode's current and past
// periods, and a period's standings by offset and around a player, each
// page served as every leaderboard page is (cached_page: ETag from the
// standings' revision, 304, the rendering kept per revision).
#include "http/api_json.hpp"
#include "http/http_api.hpp"
#include "ops/clock.hpp"
#include "tilecrush/game/season_period.hpp"
#include "tilecrush/protocol/season_bodies.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;
using namespace api;

// Past periods listed by GET /api/seasons: about a year of weeks and months.
constexpr std::int64_t kPastPeriods = 66;

protocol::SeasonPeriodView period_view(const game::SeasonPeriod& p) {
  return {p.name(), p.kind, iso_time(p.start_day * kDayMs), iso_time(p.end_day * kDayMs)};
}

std::optional<game::Mode> mode_of(const protocol::RequestTarget& target,
                                  protocol::HttpError& error) {
  const auto mode = protocol::string_param(target, "mode", true);
  if (!mode.ok()) {
    error = *mode.error;
    return std::nullopt;
  }
  const auto parsed = game::parse_mode(*mode.value);
  if (!parsed) error = {400, ErrorCode::bad_request, "unknown mode"};
  return parsed;
}

}  // namespace

HttpAnswer HttpApi::seasons_route(const ApiRequest& request,
                                  const protocol::RequestTarget& target) {
  const auto& seg = target.segments;
  if (seg.size() == 2) return season_index(target);
  if (seg.size() == 3) return season_standings(request, target, seg[2], false);
  if (seg.size() == 4 && seg[3] == "around") return season_standings(request, target, seg[2], true);
  return error_answer(404, ErrorCode::not_found, "no such API path");
}

HttpAnswer HttpApi::season_index(const protocol::RequestTarget& target) {
  protocol::HttpError error;
  const auto mode = mode_of(target, error);
  if (!mode) return error_answer(error);
  const std::int64_t now = now_();
  const std::int64_t today = now / kDayMs;
  const game::SeasonPeriod week = game::week_of_day(today);
  const game::SeasonPeriod month = game::month_of_day(today);
  protocol::SeasonIndexView index;
  index.mode = *mode;
  index.week = period_view(week);
  index.month = period_view(month);
  index.week_ends_in_s = (week.end_day * kDayMs - now) / 1000;
  index.month_ends_in_s = (month.end_day * kDayMs - now) / 1000;
  for (const storage::SeasonPeriodRecord& p : db_.season_periods(*mode, kPastPeriods + 2)) {
    if (p.period == index.week.period || p.period == index.month.period) continue;
    const auto parsed = game::parse_season_period(p.period);
    // Only periods that have begun (a clock moved back shows no future).
    if (!parsed || parsed->start_day > today) continue;
    if (static_cast<std::int64_t>(index.past.size()) == kPastPeriods) break;
    index.past.emplace_back(period_view(*parsed), p.entries);
  }
  return ok_json(protocol::season_index_body(index));
}

HttpAnswer HttpApi::season_standings(const ApiRequest& request,
                                     const protocol::RequestTarget& target,
                                     const std::string& period_name, bool around) {
  const auto period = game::parse_season_period(period_name);
  if (!period) {
    return error_answer(400, ErrorCode::bad_request,
                        "period must be an ISO week (2026-W48) or a month (2026-11)");
  }
  protocol::HttpError error;
  const auto mode = mode_of(target, error);
  if (!mode) return error_answer(error);
  const storage::SeasonKey key{period->name(), *mode};
  const std::string mode_name(game::to_string(*mode));
  // Its last dailies close at its end: a day later its standings change
  // only by a disqualification.
  const bool closed = now_() >= (period->end_day + 1) * kDayMs;
  auto render = [&](const storage::SeasonPage& page) {
    protocol::SeasonStandingsView view{*mode, period_view(*period), page.total, {}};
    view.entries.reserve(page.entries.size());
    for (const storage::SeasonEntry& e : page.entries) {
      view.entries.push_back({e.rank, e.player, e.points, e.boards});
    }
    return std::pair{storage::BoardRevision{page.total, page.revision},
                     protocol::dump(protocol::season_standings_body(view))};
  };
  if (!around) {
    const auto limit = protocol::int_param(target, "limit", 20, 1, 100);
    if (!limit.ok()) return error_answer(*limit.error);
    const auto offset = protocol::int_param(target, "offset", 0, 0, INT64_MAX / 2);
    if (!offset.ok()) return error_answer(*offset.error);
    const CachedPage what{
        closed, true,
        PageCache::key_of({"season", key.period, mode_name, std::to_string(limit.value),
                           std::to_string(offset.value)})};
    return cached_page(request, what, db_.season_revision(key), "player not in these standings",
                       [&]() -> std::optional<std::pair<storage::BoardRevision, std::string>> {
                         return render(db_.season_standings(key, limit.value, offset.value));
                       });
  }
  const auto player = protocol::string_param(target, "player", true, 32);
  if (!player.ok()) return error_answer(*player.error);
  const auto radius = protocol::int_param(target, "radius", 5, 0, 50);
  if (!radius.ok()) return error_answer(*radius.error);
  const CachedPage what{closed, false,
                        PageCache::key_of({"season-around", key.period, mode_name, *player.value,
                                           std::to_string(radius.value)})};
  return cached_page(request, what, db_.season_revision(key), "player not in these standings",
                     [&]() -> std::optional<std::pair<storage::BoardRevision, std::string>> {
                       const auto page = db_.season_around(key, *player.value, radius.value);
                       if (!page) return std::nullopt;
                       return render(*page);
                     });
}

}  // namespace tilecrush::server
