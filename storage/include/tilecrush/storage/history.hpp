// A player's history of finished games (Database::player_history) and the
// days they finished games on (Database::player_calendar).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::storage {

// A place in a player's history, newest first: the games after it are
// those finished earlier, or at the same time with a smaller id.
struct HistoryCursor {
  std::int64_t finished_at = 0;
  std::string game_id;
};

// Which of a player's games a read shows.
enum class HistoryView : std::uint8_t {
  own,            // every finished game (the player themself)
  closed_boards,  // only games on listed competitions (dailies included) closed at `now`
};

struct HistoryQuery {
  PlayerId player = 0;
  HistoryView view = HistoryView::own;
  std::int64_t now = 0;                 // closed_boards: what has closed
  std::optional<HistoryCursor> before;  // nullopt: from the newest
  std::int64_t limit = 20;              // games returned, at most (>= 1)
  // The player's finished games looked at, at most, from `before` on (at
  // least limit + 1): what bounds the read whatever the history holds.
  std::int64_t scan = 21;
};

struct HistoryGame {
  std::string game_id;
  game::Mode mode = game::Mode::same;
  std::string preset;  // empty: custom parameters
  std::string seed;
  int rules_version = 2;
  bool keyed = false;  // dealt from a board with a secret key
  std::optional<std::string> competition;
  std::string competition_name;  // when competition
  bool daily = false;
  bool unlisted = false;
  std::int64_t closes_at = 0;  // when competition
  bool ranked = false;
  std::int64_t attempt = 0;  // a competition's counted attempt, 0 otherwise
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t duration_ms = 0;
  std::int64_t finished_at = 0;
  // A ranked game on a board where the player has an entry: the entry's
  // rank when this game is the entry, else the rank its result would take
  // among the other players' entries (the player's own entry not counted);
  // `field` the board's entries. nullopt for other games (practice, custom
  // parameters, an entry taken off the board).
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> field;
  bool is_entry = false;  // this game is the player's entry on its board
};

struct HistoryPage {
  std::vector<HistoryGame> games;  // newest finish first
  // Where the next (older) page starts; nullopt when nothing older can
  // follow. A closed_boards page may hold fewer than `limit` games (none,
  // even) and still have a next: its scan ran out before its limit.
  std::optional<HistoryCursor> next;
};

// The number of games a player finished on one UTC day.
struct HistoryDay {
  std::int64_t day = 0;  // days since 1970-01-01
  std::int64_t games = 0;
};

}  // namespace tilecrush::storage
