#include "tilecrush/protocol/history_body.hpp"

#include <charconv>

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

bool id_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '-';
}

}  // namespace

std::string history_cursor_text(const HistoryCursor& cursor) {
  return std::to_string(cursor.finished_at) + "." + cursor.game_id;
}

std::optional<HistoryCursor> parse_history_cursor(std::string_view text) {
  const std::size_t dot = text.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 18) return std::nullopt;
  HistoryCursor cursor;
  const char* first = text.data();
  const char* last = text.data() + dot;
  for (const char* p = first; p != last; ++p) {
    if (*p < '0' || *p > '9') return std::nullopt;
  }
  const auto [end, error] = std::from_chars(first, last, cursor.finished_at);
  if (error != std::errc() || end != last) return std::nullopt;
  const std::string_view id = text.substr(dot + 1);
  if (id.empty() || id.size() > 64) return std::nullopt;
  for (const char c : id) {
    if (!id_char(c)) return std::nullopt;
  }
  cursor.game_id = std::string(id);
  return cursor;
}

json history_body(std::string_view player, const std::vector<HistoryRow>& games,
                  const std::optional<HistoryCursor>& next) {
  json rows = json::array();
  for (const HistoryRow& g : games) {
    json competition = nullptr;
    if (g.competition) {
      competition = {{"id", g.competition->id},
                     {"name", g.competition->name},
                     {"daily", g.competition->daily},
                     {"closed", g.competition->closed},
                     {"unlisted", g.competition->unlisted}};
    }
    rows.push_back({{"game_id", g.game_id},
                    {"mode", game::to_string(g.mode)},
                    {"preset", or_null(g.preset)},
                    {"seed", g.seed},
                    {"competition", std::move(competition)},
                    {"ranked", g.ranked},
                    {"attempt", or_null(g.attempt)},
                    {"score", g.score},
                    {"move_count", g.move_count},
                    {"finished_at", g.finished_at},
                    {"rank", or_null(g.rank)},
                    {"field", or_null(g.field)},
                    {"entry", g.entry},
                    {"moves_public", g.moves_public}});
  }
  return {{"player", player},
          {"games", std::move(rows)},
          {"next", next ? json(history_cursor_text(*next)) : json(nullptr)}};
}

json calendar_body(std::string_view player, std::string_view month,
                   const std::vector<CalendarDay>& days) {
  json out = json::array();
  for (const CalendarDay& d : days) out.push_back({{"date", d.date}, {"games", d.games}});
  return {{"player", player}, {"month", month}, {"days", std::move(out)}};
}

}  // namespace tilecrush::protocol
