// A player's history over HTTP (protocol.md, "History"): their finished
// games newest first, paged by cursor, and the days of a month they
// finished games on. The player themself (their token in Authorization)
// sees every finished game; anyone else only games on closed boards: a
// listed competition's (dailies included) once its close has passed.
#include <chrono>

#include "http/api_json.hpp"
#include "http/http_api.hpp"
#include "ops/clock.hpp"
#include "tilecrush/protocol/history_body.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;
using namespace api;

// Games looked at per page of another player's history, beyond the page:
// a page of theirs may come back short (with `next`) when their latest
// games are mostly on boards not shown.
constexpr std::int64_t kScanFactor = 5;
constexpr std::int64_t kScanExtra = 50;

// "YYYY-MM" (a year 2000-9999) as [first day, first day of the next month)
// in milliseconds.
std::optional<std::pair<std::int64_t, std::int64_t>> month_range(std::string_view text) {
  if (text.size() != 7 || text[4] != '-') return std::nullopt;
  int year = 0;
  int month = 0;
  for (std::size_t i = 0; i < 7; ++i) {
    if (i == 4) continue;
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    (i < 4 ? year : month) = (i < 4 ? year : month) * 10 + (text[i] - '0');
  }
  if (year < 2000 || month < 1 || month > 12) return std::nullopt;
  using namespace std::chrono;
  const year_month first{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)}};
  const auto start = sys_days{first / 1};
  const auto end = sys_days{(first + months{1}) / 1};
  return std::pair{static_cast<std::int64_t>(start.time_since_epoch().count()) * kDayMs,
                   static_cast<std::int64_t>(end.time_since_epoch().count()) * kDayMs};
}

protocol::HistoryRow row_of(const storage::HistoryGame& g, std::int64_t now) {
  protocol::HistoryRow row{
      .game_id = g.game_id,
      .mode = g.mode,
      .preset = g.preset.empty() ? std::nullopt : std::optional(g.preset),
      .seed = g.seed,
      .competition = std::nullopt,
      .ranked = g.ranked,
      .attempt = g.competition ? std::optional(g.attempt) : std::nullopt,
      .score = g.score,
      .move_count = g.move_count,
      .finished_at = iso_time(g.finished_at),
      .rank = g.rank,
      .field = g.field,
      .entry = g.is_entry,
  };
  if (g.competition) {
    row.competition = protocol::HistoryCompetition{g.competition.value(), g.competition_name,
                                                   g.daily, now >= g.closes_at, g.unlisted};
    // As HttpApi::moves_secrecy: a competition game's moves from its close.
    row.moves_public = !g.competition_name.empty() && now >= g.closes_at;
  } else {
    // A casual keyed board's hidden or match-3 moves never are.
    row.moves_public = !(g.keyed && g.mode != game::Mode::same);
  }
  return row;
}

}  // namespace

std::optional<storage::PlayerRecord> HttpApi::history_subject(const std::string& name,
                                                              std::string_view authorization,
                                                              storage::HistoryView& view) {
  auto record = db_.find_player_by_name(name);
  if (!record) return std::nullopt;
  view = !authorization.empty() && is_player_token(authorization, record->id)
             ? storage::HistoryView::own
             : storage::HistoryView::closed_boards;
  return record;
}

HttpAnswer HttpApi::player_games(const ApiRequest& request, const std::string& name,
                                 const protocol::RequestTarget& target) {
  const auto limit = protocol::int_param(target, "limit", 20, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const auto before = protocol::string_param(target, "before", false, 100);
  if (!before.ok()) return error_answer(*before.error);
  std::optional<protocol::HistoryCursor> cursor;
  if (before.value) {
    cursor = protocol::parse_history_cursor(*before.value);
    if (!cursor) {
      return error_answer(400, ErrorCode::bad_request,
                          "before must be the next of an earlier page");
    }
  }
  storage::HistoryView view = storage::HistoryView::closed_boards;
  const auto record = history_subject(name, request.authorization, view);
  if (!record) return error_answer(404, ErrorCode::not_found, "no such player");
  const std::int64_t now = now_();
  storage::HistoryQuery query{
      .player = record->id,
      .view = view,
      .now = now,
      .before = cursor ? std::optional(storage::HistoryCursor{cursor->finished_at, cursor->game_id})
                       : std::nullopt,
      .limit = limit.value,
      .scan = view == storage::HistoryView::own ? limit.value + 1
                                                : limit.value * kScanFactor + kScanExtra,
  };
  const storage::HistoryPage page = db_.player_history(query);
  std::vector<protocol::HistoryRow> rows;
  rows.reserve(page.games.size());
  for (const auto& g : page.games) rows.push_back(row_of(g, now));
  std::optional<protocol::HistoryCursor> next;
  if (page.next) next = protocol::HistoryCursor{page.next->finished_at, page.next->game_id};
  return ok_json(protocol::history_body(record->name, rows, next));
}

HttpAnswer HttpApi::player_calendar(const ApiRequest& request, const std::string& name,
                                    const protocol::RequestTarget& target) {
  const auto month = protocol::string_param(target, "month", false, 7);
  if (!month.ok()) return error_answer(*month.error);
  const std::int64_t now = now_();
  const std::string month_text = month.value ? *month.value : utc_date(now).substr(0, 7);
  const auto range = month_range(month_text);
  if (!range) return error_answer(400, ErrorCode::bad_request, "month must be YYYY-MM");
  storage::HistoryView view = storage::HistoryView::closed_boards;
  const auto record = history_subject(name, request.authorization, view);
  if (!record) return error_answer(404, ErrorCode::not_found, "no such player");
  std::vector<protocol::CalendarDay> days;
  for (const auto& d : db_.player_calendar(record->id, view, now, range->first, range->second)) {
    days.push_back({utc_date(d.day * kDayMs), d.games});
  }
  return ok_json(protocol::calendar_body(record->name, month_text, days));
}

}  // namespace tilecrush::server
