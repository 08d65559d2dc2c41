// Reading a results export: its fields, its entries and their move lists
// (export_reader.hpp).
#include "export_reader.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <utility>

namespace tilecrush::verify {

using nlohmann::json;

namespace {

// An integer that fits std::int64_t; floats, huge values and other types: nullopt.
std::optional<std::int64_t> as_int64(const json& j) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return {};
    return static_cast<std::int64_t>(u);
  }
  if (j.is_number_integer()) return j.get<std::int64_t>();
  return {};
}

std::optional<int> as_int(const json& j) {
  const auto v = as_int64(j);
  if (!v || *v < INT_MIN || *v > INT_MAX) return {};
  return static_cast<int>(*v);
}

// Field readers: a message naming the field on a missing field or wrong type.
struct Reader {
  const json& object;
  std::string where;
  std::string error;

  const json* field(const char* name) {
    const auto it = object.find(name);
    if (it == object.end()) {
      if (error.empty()) error = where + ": missing field \"" + name + "\"";
      return nullptr;
    }
    return &*it;
  }
  void wrong(const char* name, const char* expected) {
    if (error.empty()) error = where + ": \"" + name + "\" must be " + expected;
  }
  std::string text(const char* name) {
    const json* j = field(name);
    if (j && j->is_string()) return j->get<std::string>();
    if (j) wrong(name, "a string");
    return {};
  }
  std::int64_t integer(const char* name) {
    const json* j = field(name);
    if (!j) return 0;
    if (const auto v = as_int64(*j)) return *v;
    wrong(name, "an integer");
    return 0;
  }
  // Absent or null: nullopt.
  std::optional<std::string> optional_text(const char* name) {
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) return {};
    if (it->is_string()) return it->get<std::string>();
    wrong(name, "a string or null");
    return {};
  }
};

// The deepest nesting of arrays and objects in JSON text (strings skipped).
// An export nests 5 deep; parsing is iterative but copying and comparing
// json values recurse, so a deeper file is refused before it is parsed.
std::size_t nesting_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

constexpr std::size_t kMaxDepth = 64;

// Moves the entry's move list out of `j`.
std::optional<Entry> read_entry(json& j, std::size_t index, std::string& error) {
  const std::string where = "entries[" + std::to_string(index) + "]";
  if (!j.is_object()) {
    error = where + " must be an object";
    return {};
  }
  Reader r{j, where, {}};
  Entry e;
  if (const json* rank = r.field("rank"); rank && !rank->is_null()) {
    e.rank = as_int64(*rank);
    if (!e.rank) r.wrong("rank", "an integer or null");
  }
  e.player = r.text("player");
  e.score = r.integer("score");
  e.move_count = r.integer("move_count");
  e.game_id = r.text("game_id");
  if (const json* moves = r.field("moves")) {
    if (moves->is_array() || moves->is_null()) {
      e.moves = std::move(j["moves"]);
    } else {
      r.wrong("moves", "an array or null");
    }
  }
  e.duration_ms = r.integer("duration_ms");
  e.player_id = r.integer("player_id");
  if (const json* finished = r.field("finished_at")) {
    const auto at = finished->is_string() ? parse_utc_time(finished->get_ref<const std::string&>())
                                          : std::nullopt;
    if (at) {
      e.finished_at = *at;
    } else {
      r.wrong("finished_at", "a UTC time like 2026-11-24T18:00:00.000Z");
    }
  }
  if (const json* flags = r.field("flags")) {
    bool all_text = flags->is_array();
    for (std::size_t i = 0; all_text && i < flags->size(); ++i) {
      all_text = (*flags)[i].is_string();
      if (all_text) e.flags.push_back((*flags)[i].get<std::string>());
    }
    if (!all_text) r.wrong("flags", "an array of strings");
  }
  if (!r.error.empty()) {
    error = r.error;
    return {};
  }
  return e;
}

std::optional<game::MoveKind> parse_kind(std::string_view name) {
  using game::MoveKind;
  for (MoveKind k :
       {MoveKind::click, MoveKind::swap, MoveKind::peek, MoveKind::select, MoveKind::unselect}) {
    if (game::to_string(k) == name) return k;
  }
  return {};
}

}  // namespace

std::optional<std::int64_t> parse_utc_time(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.sss]Z
  if (text.size() != 20 && text.size() != 24) return {};
  auto digits = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return {};
      v = v * 10 + (text[i] - '0');
    }
    return v;
  };
  const auto year = digits(0, 4), month = digits(5, 2), day = digits(8, 2);
  const auto hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2);
  if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' || text[7] != '-' ||
      text[10] != 'T' || text[13] != ':' || text[16] != ':' || text.back() != 'Z') {
    return {};
  }
  std::optional<int> millis = 0;
  if (text.size() == 24) {
    if (text[19] != '.') return {};
    millis = digits(20, 3);
    if (!millis) return {};
  }
  const bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (*month < 1 || *month > 12 || *day < 1 ||
      *day > kDays[*month - 1] + (*month == 2 && leap ? 1 : 0) || *hour > 23 || *minute > 59 ||
      *second > 59) {
    return {};
  }
  // Days since 1970-01-01 (H. Hinnant's days_from_civil).
  const std::int64_t y = *year - (*month <= 2 ? 1 : 0);
  const std::int64_t era = y / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (*month + (*month > 2 ? -3 : 9)) + 2) / 5 + *day - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = era * 146097 + doe - 719468;
  return ((days * 24 + *hour) * 60 + *minute) * 60'000 + *second * 1000LL + *millis;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  return out;
}

ExportResult parse_export(std::string_view text) {
  ExportResult result;
  if (nesting_depth(text) > kMaxDepth) {
    result.error = "the file nests arrays or objects deeper than " + std::to_string(kMaxDepth) +
                   " levels: not an export";
    return result;
  }
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    result.error = "the file is not valid JSON";
    return result;
  }
  if (!doc.is_object()) {
    result.error = "the export must be a JSON object";
    return result;
  }
  const auto comp = doc.find("competition");
  if (comp == doc.end() || !comp->is_object()) {
    result.error = "\"competition\" is missing or not an object";
    return result;
  }
  auto entries = doc.find("entries");
  if (entries == doc.end() || !entries->is_array()) {
    result.error = "\"entries\" is missing or not an array";
    return result;
  }
  Reader r{*comp, "competition", {}};
  Export ex;
  ex.id = r.text("id");
  const std::string mode = r.text("mode");
  ex.preset = r.text("preset");
  ex.seed = r.text("seed");
  ex.rules_version = r.integer("rules_version");
  ex.commitment = r.optional_text("commitment");
  ex.key = r.optional_text("key");
  if (const auto state = r.optional_text("state")) ex.state = *state;
  if (r.error.empty()) {
    if (const auto m = game::parse_mode(mode)) {
      ex.mode = *m;
    } else {
      r.error = "competition: unknown mode \"" + printable(mode) + "\"";
    }
  }
  if (!r.error.empty()) {
    result.error = r.error;
    return result;
  }
  for (std::size_t i = 0; i < entries->size(); ++i) {
    auto entry = read_entry((*entries)[i], i, result.error);
    if (!entry) return result;
    ex.entries.push_back(std::move(*entry));
  }
  result.value = std::move(ex);
  return result;
}

MovesResult parse_moves(const json& moves) {
  MovesResult result;
  if (!moves.is_array()) {
    result.error = "the move list is not an array";
    return result;
  }
  result.moves.reserve(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const json& m = moves[i];
    const std::string where = "move " + std::to_string(i + 1) + ": ";
    if (!m.is_array() || m.empty() || !m[0].is_string()) {
      result.error = where + "not an array starting with the move's kind";
      return result;
    }
    const auto kind = parse_kind(m[0].get_ref<const std::string&>());
    if (!kind) {
      result.error = where + "unknown kind \"" + printable(m[0].get<std::string>()) + "\"";
      return result;
    }
    const std::size_t want = *kind == game::MoveKind::swap ? 5 : 3;
    if (m.size() != want) {
      result.error = where + std::string(game::to_string(*kind)) + " takes " +
                     std::to_string(want - 1) + " coordinates";
      return result;
    }
    int c[4] = {0, 0, 0, 0};
    for (std::size_t k = 1; k < want; ++k) {
      const auto v = as_int(m[k]);
      if (!v) {
        result.error = where + "coordinate " + std::to_string(k) + " is not an int";
        return result;
      }
      c[k - 1] = *v;
    }
    result.moves.push_back(game::Move{*kind, {c[0], c[1]}, {c[2], c[3]}});
  }
  return result;
}

}  // namespace tilecrush::verify
