#include <algorithm>
#include <array>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "field_reader.hpp"
#include "move_fast_path.hpp"
#include "parse_game_setup.hpp"
#include "text.hpp"
#include "tilecrush/protocol/commands.hpp"

namespace tilecrush::protocol {
namespace {

using detail::FieldReader;
using detail::kKeyRule;

// A `move_count` beyond any game's moves (a game is far below 2^31 moves)
// is bad_request, like a coordinate that does not fit in 32 bits.
constexpr std::int64_t kMaxSeenMoves = 2'147'483'647;

constexpr detail::TextRule kNameRule{1, kMaxNameChars, false, true};
constexpr detail::TextRule kTokenRule{1, kMaxTokenChars, false};
constexpr detail::TextRule kRecoveryRule{1, kMaxRecoveryChars, false};

// A number no double can hold (see parse_message) stands in the parsed
// message as an empty binary value, which JSON text never produces.
bool is_overflow(const nlohmann::json& value) {
  return value.is_binary();
}

// Parses `text` like nlohmann::json::parse, except that a number no double
// can hold (1e999, an integer of 400 digits) does not make the whole text
// invalid: it is parsed as an overflow marker (is_overflow), so that the id
// and the type can still be read and the field named in the refusal.
// Discarded when the text is not JSON.
nlohmann::json parse_message(std::string_view text) {
  nlohmann::json message = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (!message.is_discarded()) return message;
  const detail::OverflowingNumbers overflowing = detail::find_overflowing_numbers(text);
  if (overflowing.ordinals.empty()) return message;
  // The patched text has a 0 in place of each such number; the callback sees
  // every number in text order and turns those back into markers.
  std::size_t ordinal = 0;
  auto next = overflowing.ordinals.begin();
  const auto mark = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::value && parsed.is_number()) {
      if (next != overflowing.ordinals.end() && *next == ordinal) {
        parsed = nlohmann::json::binary({});
        ++next;
      }
      ++ordinal;
    }
    return true;
  };
  return nlohmann::json::parse(overflowing.patched, mark, false);
}

// A key is named in an error message only when it is short printable ASCII:
// the message must stay short valid text whatever the client sent.
bool nameable(std::string_view key) {
  return !key.empty() && key.size() <= 64 && std::all_of(key.begin(), key.end(), [](char c) {
    return c > 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
}

// Where the first overflow marker is in `value` (`board[0][1]`, `a[0]`), or
// nullopt when there is none. A key that cannot be named shows as `?`.
std::optional<std::string> find_overflow(const nlohmann::json& value, const std::string& path) {
  if (is_overflow(value)) return path;
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      const std::string name = nameable(key) ? key : "?";
      if (auto found = find_overflow(member, path.empty() ? name : path + "." + name)) {
        return found;
      }
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (auto found = find_overflow(value[i], path + "[" + std::to_string(i) + "]")) {
        return found;
      }
    }
  }
  return std::nullopt;
}

// An id is echoed verbatim, so only a number or a short string is accepted.
// Returns false when an id is present but unusable (a number no double can
// hold included: it could not be echoed by value).
bool read_id(const nlohmann::json& message, nlohmann::json& id) {
  const auto it = message.find("id");
  if (it == message.end() || it->is_null()) return true;
  if (it->is_number()) {
    id = *it;
    return true;
  }
  if (it->is_string()) {
    const auto info = detail::inspect_text(it->get_ref<const std::string&>());
    if (info.valid_utf8 && info.code_points <= kMaxIdChars) {
      id = *it;
      return true;
    }
  }
  return false;
}

MoveCommand read_move(FieldReader& fields, game::MoveKind kind) {
  MoveCommand out;
  out.game_id = fields.string("game_id", kKeyRule);
  out.move.kind = kind;
  if (kind == game::MoveKind::swap) {
    out.move.a = fields.point("a");
    out.move.b = fields.point("b");
  } else {
    out.move.a.x = fields.coordinate("x");
    out.move.a.y = fields.coordinate("y");
  }
  out.seen = fields.optional_integer("move_count", 0, kMaxSeenMoves);
  return out;
}

template <typename T>
T read_game_id(FieldReader& fields) {
  T out;
  out.game_id = fields.string("game_id", kKeyRule);
  return out;
}

template <typename T>
T read_code(FieldReader& fields) {
  T out;
  out.code = fields.string("code", kKeyRule);
  return out;
}

Command read_join(FieldReader& fields) {
  JoinRoom out = read_code<JoinRoom>(fields);
  if (const auto as = fields.optional_string("as", kKeyRule)) {
    if (*as == "spectator") {
      out.spectator = true;
    } else if (*as != "player") {
      fields.fail("as must be player or spectator");
    }
  }
  return out;
}

using Reader = Command (*)(FieldReader&);

constexpr std::array<std::pair<std::string_view, Reader>, 19> kReaders{{
    {"hello",
     [](FieldReader& f) -> Command {
       Hello out;
       out.name = f.string("name", kNameRule);
       out.token = f.optional_string("token", kTokenRule);
       out.recovery = f.optional_string("recovery", kRecoveryRule);
       if (out.token && out.recovery) f.fail("token and recovery cannot both be given");
       return out;
     }},
    {"new_game", [](FieldReader& f) -> Command { return detail::parse_new_game(f); }},
    {"resume", [](FieldReader& f) -> Command { return read_game_id<Resume>(f); }},
    {"click", [](FieldReader& f) -> Command { return read_move(f, game::MoveKind::click); }},
    {"swap", [](FieldReader& f) -> Command { return read_move(f, game::MoveKind::swap); }},
    {"peek", [](FieldReader& f) -> Command { return read_move(f, game::MoveKind::peek); }},
    {"select", [](FieldReader& f) -> Command { return read_move(f, game::MoveKind::select); }},
    {"unselect", [](FieldReader& f) -> Command { return read_move(f, game::MoveKind::unselect); }},
    {"preview",
     [](FieldReader& f) -> Command {
       Preview out = read_game_id<Preview>(f);
       out.point.x = f.coordinate("x");
       out.point.y = f.coordinate("y");
       return out;
     }},
    {"hint", [](FieldReader& f) -> Command { return read_game_id<HintRequest>(f); }},
    {"undo",
     [](FieldReader& f) -> Command {
       Undo out = read_game_id<Undo>(f);
       out.seen = f.optional_integer("move_count", 0, kMaxSeenMoves);
       return out;
     }},
    {"resign", [](FieldReader& f) -> Command { return read_game_id<Resign>(f); }},
    {"create_room", [](FieldReader& f) -> Command { return detail::parse_create_room(f); }},
    {"join_room", read_join},
    {"leave_room", [](FieldReader& f) -> Command { return read_code<LeaveRoom>(f); }},
    {"start_room", [](FieldReader& f) -> Command { return read_code<StartRoom>(f); }},
    {"ping", [](FieldReader&) -> Command { return Ping{}; }},
    {"running", [](FieldReader&) -> Command { return Running{}; }},
    {"recovery_code", [](FieldReader&) -> Command { return RecoveryCode{}; }},
}};

ParseResult refuse(ParseResult result, ErrorCode code, std::string message) {
  result.command.reset();
  result.error = Error{code, std::move(message)};
  return result;
}

ParseResult parse_checked(std::string_view text) {
  ParseResult result;
  if (!detail::nesting_within(text, kMaxDepth)) {
    return refuse(std::move(result), ErrorCode::bad_request,
                  "message nests deeper than " + std::to_string(kMaxDepth) + " levels");
  }
  const nlohmann::json message = parse_message(text);
  if (message.is_discarded()) {
    return refuse(std::move(result), ErrorCode::bad_request, "message is not valid JSON");
  }
  if (!message.is_object()) {
    return refuse(std::move(result), ErrorCode::bad_request, "message must be a JSON object");
  }
  if (!read_id(message, result.id)) {
    const auto it = message.find("id");
    return refuse(std::move(result), ErrorCode::bad_request,
                  is_overflow(*it) ? "id is a number out of range (magnitude over 1.8e308)"
                                   : "id must be a number or a string of at most 64 characters");
  }
  // Anywhere, an unknown field included: the message cannot be read as sent.
  if (const auto where = find_overflow(message, "")) {
    // Deep nesting could make the path long: past 200 bytes it is not named.
    const std::string subject = where->size() <= 200 ? *where : "a field";
    return refuse(std::move(result), ErrorCode::bad_request,
                  subject + " is a number out of range (magnitude over 1.8e308)");
  }
  const auto type = message.find("type");
  if (type == message.end() || !type->is_string()) {
    return refuse(std::move(result), ErrorCode::bad_request, "type is required");
  }
  const auto& name = type->get_ref<const std::string&>();
  for (const auto& [wire, reader] : kReaders) {
    if (wire != name) continue;
    FieldReader fields(message);
    Command command = reader(fields);
    if (fields.failed()) return refuse(std::move(result), ErrorCode::bad_request, fields.error());
    result.command = std::move(command);
    return result;
  }
  return refuse(std::move(result), ErrorCode::bad_request, "unknown type");
}

}  // namespace

std::string_view type_name(const Command& command) {
  struct Visitor {
    std::string_view operator()(const Hello&) const { return "hello"; }
    std::string_view operator()(const NewGame&) const { return "new_game"; }
    std::string_view operator()(const Resume&) const { return "resume"; }
    std::string_view operator()(const MoveCommand& m) const { return game::to_string(m.move.kind); }
    std::string_view operator()(const Preview&) const { return "preview"; }
    std::string_view operator()(const HintRequest&) const { return "hint"; }
    std::string_view operator()(const Undo&) const { return "undo"; }
    std::string_view operator()(const Resign&) const { return "resign"; }
    std::string_view operator()(const CreateRoom&) const { return "create_room"; }
    std::string_view operator()(const JoinRoom&) const { return "join_room"; }
    std::string_view operator()(const LeaveRoom&) const { return "leave_room"; }
    std::string_view operator()(const StartRoom&) const { return "start_room"; }
    std::string_view operator()(const Ping&) const { return "ping"; }
    std::string_view operator()(const Running&) const { return "running"; }
    std::string_view operator()(const RecoveryCode&) const { return "recovery_code"; }
  };
  return std::visit(Visitor{}, command);
}

namespace detail {

ParseResult parse_full(std::string_view text) {
  try {
    return parse_checked(text);
  } catch (const std::bad_alloc&) {
    ParseResult result;
    result.error = Error{ErrorCode::internal, "out of memory while reading the message"};
    return result;
  } catch (const std::exception&) {
    // Only a defect of this parser can get here; the client still gets an answer.
    ParseResult result;
    result.error = Error{ErrorCode::internal, "the message could not be read"};
    return result;
  }
}

}  // namespace detail

ParseResult parse_client_message(std::string_view text) {
  // Clicks and swaps in their plainest form skip the JSON document; any
  // other text, refusals included, is the full parser's.
  try {
    if (auto fast = detail::parse_move_fast(text)) return std::move(*fast);
  } catch (const std::exception&) {
    // Out of memory for the game id: the full parser answers for it.
  }
  return detail::parse_full(text);
}

}  // namespace tilecrush::protocol
