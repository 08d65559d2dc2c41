// Reading a competition's results export (GET /api/competitions/{id}/results)
// for tilecrush_verify (README.md in this folder): its fields, its entries
// and their move lists, as typed values. No server, no database: only
// tilecrush_game and nlohmann_json.
//
// Nothing here throws on bad input: every problem is a message.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::verify {

struct Entry {
  std::optional<std::int64_t> rank;  // null for disqualified entries
  std::string player;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::string game_id;
  nlohmann::json moves;  // as exported: an array, or null while not closed
  std::vector<std::string> flags;
  // What the ranking uses besides the score and move count.
  std::int64_t duration_ms = 0;
  std::int64_t finished_at = 0;  // ms since the epoch, read from the ISO text
  std::int64_t player_id = 0;    // grows with registration
};

struct Export {
  std::string id;
  std::string state;  // empty when the export has none
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  std::int64_t rules_version = 0;
  std::optional<std::string> commitment;  // absent or null: nullopt
  std::optional<std::string> key;         // absent or null: nullopt
  std::vector<Entry> entries;
};

struct ExportResult {
  std::optional<Export> value;
  std::string error;  // why the export is unusable when value is empty
};

// Parses the export's JSON text: structure and types only (the moves are
// read per entry by parse_moves). Unknown fields are ignored.
ExportResult parse_export(std::string_view text);

struct MovesResult {
  std::vector<game::Move> moves;
  std::string error;  // "move N: ..." when the list is malformed
  bool ok() const { return error.empty(); }
};

// One exported move list: an array of ["kind", x, y] (click, peek, select,
// unselect) and ["swap", x1, y1, x2, y2], every coordinate an int.
MovesResult parse_moves(const nlohmann::json& moves);

// "YYYY-MM-DDTHH:MM:SSZ" or with .sss milliseconds (UTC), as ms since the
// epoch; nullopt for anything else.
std::optional<std::int64_t> parse_utc_time(std::string_view text);

// Text from the export, safe to print on one line: control characters
// become '?'.
std::string printable(std::string_view text);

}  // namespace tilecrush::verify
