// Reading a results export and replaying one entry (verify.hpp).
#include "verify.hpp"

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

// "#3 carol" or "#- mallory" for an entry without a rank.
std::string who(const Entry& e) {
  return "#" + (e.rank ? std::to_string(*e.rank) : std::string("-")) + " " + printable(e.player);
}

std::string flags_suffix(const Entry& e) {
  if (e.flags.empty()) return {};
  std::string out = " (";
  for (std::size_t i = 0; i < e.flags.size(); ++i) {
    out += (i ? ", " : "") + printable(e.flags[i]);
  }
  return out + ")";
}

}  // namespace

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

EntryCheck check_entry(const game::GameSetup& setup, const Entry& entry) {
  const std::string game = "game " + printable(entry.game_id);
  const std::string flags = flags_suffix(entry);
  const MovesResult parsed = parse_moves(entry.moves);
  if (!parsed.ok()) {
    return {Verdict::malformed,
            "MALFORMED " + who(entry) + " " + parsed.error + " (" + game + ")" + flags};
  }
  const game::ReplayResult replayed = game::replay(setup, parsed.moves);
  if (!replayed.game) {
    return {Verdict::refused,
            "REFUSED   " + who(entry) + " " + replayed.error + " (" + game + ")" + flags};
  }
  const std::int64_t score = replayed.game->score();
  const std::int64_t count = replayed.game->move_count();
  const auto moves_text = [](std::int64_t n) { return std::to_string(n) + " moves"; };
  if (score == entry.score && count == entry.move_count) {
    return {Verdict::ok, "ok        " + who(entry) + " " + std::to_string(score) + " (" +
                             moves_text(count) + ") " + game + flags};
  }
  std::string claim, replay;
  if (score != entry.score && count != entry.move_count) {
    claim = std::to_string(entry.score) + " in " + moves_text(entry.move_count);
    replay = std::to_string(score) + " in " + moves_text(count);
  } else if (score != entry.score) {
    claim = std::to_string(entry.score);
    replay = std::to_string(score);
  } else {
    claim = moves_text(entry.move_count);
    replay = moves_text(count);
  }
  return {Verdict::mismatch, "MISMATCH  " + who(entry) + " claims " + claim + ", replay gives " +
                                 replay + " (" + game + ")" + flags};
}

}  // namespace tilecrush::verify
