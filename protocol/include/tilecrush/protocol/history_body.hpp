// The bodies of a player's history (protocol.md, "History"):
// GET /api/players/{name}/games and GET /api/players/{name}/calendar, and
// the page cursor they exchange.
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::protocol {

// A place in a history: the finish time (ms) and id of the last game of a
// page. Written "<finished_at>.<game_id>"; clients pass it back unread.
struct HistoryCursor {
  std::int64_t finished_at = 0;
  std::string game_id;
};

std::string history_cursor_text(const HistoryCursor& cursor);
// nullopt unless the text is a cursor history_cursor_text() could write
// (digits, '.', then 1..64 of [0-9A-Za-z_-]).
std::optional<HistoryCursor> parse_history_cursor(std::string_view text);

struct HistoryCompetition {
  std::string id;
  std::string name;
  bool daily = false;
  bool closed = false;  // its close has passed
  bool unlisted = false;
};

struct HistoryRow {
  std::string game_id;
  game::Mode mode = game::Mode::same;
  std::optional<std::string> preset;  // nullopt: custom parameters
  std::string seed;
  std::optional<HistoryCompetition> competition;
  bool ranked = false;
  std::optional<std::int64_t> attempt;  // a competition game's counted attempt
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::string finished_at;  // ISO 8601 UTC
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> field;
  bool entry = false;         // the game is the player's entry on its board
  bool moves_public = false;  // its replay is open to anyone
};

// {player, games: [...], next: cursor text | null}
nlohmann::json history_body(std::string_view player, const std::vector<HistoryRow>& games,
                            const std::optional<HistoryCursor>& next);

struct CalendarDay {
  std::string date;  // YYYY-MM-DD
  std::int64_t games = 0;
};

// {player, month: "YYYY-MM", days: [{date, games}]}
nlohmann::json calendar_body(std::string_view player, std::string_view month,
                             const std::vector<CalendarDay>& days);

}  // namespace tilecrush::protocol
