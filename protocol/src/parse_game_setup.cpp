#include "parse_game_setup.hpp"

#include <string>

#include "tilecrush/game/presets.hpp"

namespace tilecrush::protocol::detail {
namespace {

std::optional<game::Mode> read_mode(FieldReader& fields) {
  const std::string text = fields.string("mode", kKeyRule);
  if (fields.failed()) return std::nullopt;
  auto mode = game::parse_mode(text);
  if (!mode) fields.fail("mode must be same, match3 or hidden");
  return mode;
}

// The preset name when given; fails when it does not exist for the mode.
std::optional<std::string> read_preset(FieldReader& fields, game::Mode mode, bool required) {
  std::optional<std::string> name;
  if (required) {
    name = fields.string("preset", kKeyRule);
  } else {
    name = fields.optional_string("preset", kKeyRule);
  }
  if (fields.failed() || !name) return std::nullopt;
  if (game::find_preset(mode, *name) == nullptr) {
    fields.fail("unknown preset for mode " + std::string(game::to_string(mode)));
    return std::nullopt;
  }
  return name;
}

std::string limit_text(long lo, long hi) {
  return std::to_string(lo) + " to " + std::to_string(hi);
}

// `board`: rows top first, rectangular, within the mode's custom limits,
// at least one tile.
std::optional<game::Board> read_board(FieldReader& fields, const game::CustomLimits& limits) {
  const nlohmann::json& rows = *fields.find("board");
  const std::string sides = limit_text(limits.min_side, limits.max_side);
  if (!rows.is_array() || rows.size() < static_cast<std::size_t>(limits.min_side) ||
      rows.size() > static_cast<std::size_t>(limits.max_side)) {
    fields.fail("board must be an array of " + sides + " rows");
    return std::nullopt;
  }
  const nlohmann::json& first = rows.front();
  if (!first.is_array() || first.size() < static_cast<std::size_t>(limits.min_side) ||
      first.size() > static_cast<std::size_t>(limits.max_side)) {
    fields.fail("board rows must be arrays of " + sides + " cells");
    return std::nullopt;
  }
  const int width = static_cast<int>(first.size());
  const int height = static_cast<int>(rows.size());
  game::Board board(width, height);
  for (int y = 0; y < height; ++y) {
    const nlohmann::json& row = rows[static_cast<std::size_t>(y)];
    if (!row.is_array() || row.size() != first.size()) {
      fields.fail("board must be rectangular: every row has the same length");
      return std::nullopt;
    }
    for (int x = 0; x < width; ++x) {
      const auto cell = integer_in(row[static_cast<std::size_t>(x)], 0, limits.max_cell);
      if (!cell) {
        fields.fail("board cells must be integers from " + limit_text(0, limits.max_cell));
        return std::nullopt;
      }
      board.set(x, y, static_cast<std::uint8_t>(*cell));
    }
  }
  if (board.empty()) {
    fields.fail("board has no tile");
    return std::nullopt;
  }
  return board;
}

void read_custom(FieldReader& fields, game::GameSetup& setup) {
  const game::CustomLimits limits = game::custom_limits(setup.mode);
  if (fields.has("board")) {
    if (fields.has("width") || fields.has("height") || fields.has("colors")) {
      fields.fail("a custom board gives its own width, height and colors");
      return;
    }
    setup.board = read_board(fields, limits);
    return;
  }
  setup.width = static_cast<int>(fields.integer("width", limits.min_side, limits.max_side));
  setup.height = static_cast<int>(fields.integer("height", limits.min_side, limits.max_side));
  setup.colors = static_cast<int>(fields.integer("colors", limits.min_colors, limits.max_colors));
}

void read_practice_options(FieldReader& fields, game::GameSetup& setup) {
  // A default value is no option at all, so it is accepted in every mode.
  if (const auto refill = fields.optional_bool("refill")) {
    if (!*refill && setup.mode != game::Mode::match3) {
      fields.fail("refill is a match3 option");
    }
    setup.refill = *refill;
  }
  if (const auto compress = fields.optional_bool("compress")) {
    if (*compress && setup.mode != game::Mode::hidden) {
      fields.fail("compress is a hidden option");
    }
    setup.compress = *compress;
  }
}

}  // namespace

NewGame parse_new_game(FieldReader& fields) {
  NewGame out;
  if (fields.has("competition")) {
    out.competition = fields.optional_string("competition", kKeyRule);
    for (const char* other : {"mode", "preset", "seed", "daily", "width", "height", "colors",
                              "board", "moves", "refill", "compress"}) {
      if (fields.has(other)) {
        fields.fail(std::string("a competition's board is its own: ") + other +
                    " cannot be given with competition");
        return out;
      }
    }
    return out;
  }
  const auto mode = read_mode(fields);
  if (!mode) return out;
  out.setup.mode = *mode;

  const auto preset = read_preset(fields, *mode, false);
  const auto seed = fields.optional_string("seed", kSeedRule);
  out.daily = fields.optional_bool("daily").value_or(false);
  if (fields.failed()) return out;

  if (preset) {
    if (fields.has("width") || fields.has("height") || fields.has("colors") ||
        fields.has("board") || fields.has("moves")) {
      fields.fail("give either a preset or custom parameters, not both");
      return out;
    }
    out.setup.preset = *preset;
  } else if (fields.has("board") || fields.has("width") || fields.has("height") ||
             fields.has("colors")) {
    read_custom(fields, out.setup);
  } else {
    fields.fail("preset is required (or width, height and colors, or board)");
    return out;
  }

  if (fields.has("moves")) {
    if (*mode != game::Mode::match3) {
      fields.fail("moves is a match3 option");
    } else {
      out.setup.moves =
          static_cast<int>(fields.integer("moves", game::kMinMoveBudget, game::kMaxMoveBudget));
    }
  }
  read_practice_options(fields, out.setup);
  if (fields.failed()) return out;

  if (out.daily) {
    if (seed) {
      fields.fail("daily and seed exclude each other: the daily seed is today's date");
    } else if (!preset) {
      fields.fail("daily boards exist only for presets");
    } else if (!out.setup.refill || out.setup.compress) {
      fields.fail("a daily board is played as it is: no practice options");
    }
  } else if (seed) {
    out.setup.seed = *seed;
  }
  return out;
}

CreateRoom parse_create_room(FieldReader& fields) {
  CreateRoom out;
  const auto mode = read_mode(fields);
  if (!mode) return out;
  out.mode = *mode;
  out.preset = read_preset(fields, *mode, true).value_or(std::string());
  out.seed = fields.optional_string("seed", kSeedRule);
  return out;
}

}  // namespace tilecrush::protocol::detail
