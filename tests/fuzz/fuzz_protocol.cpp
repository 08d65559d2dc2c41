// fuzz_protocol: parse_client_message on arbitrary bytes. Beyond "never
// crashes, never throws", every accepted message is checked against the
// raw JSON and protocol.md's limits (an accepted name is 1-32 code points
// without control characters, an id is a number or a short string, a
// new_game setup is one create_game accepts), then written back as JSON
// and parsed again, which must give the same command and id. Every refusal
// is a bad_request whose error reply dumps to valid JSON echoing the id.
// The parser's fast path for plain moves is checked against the full parser.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

#include "fuzz_check.hpp"
#include "move_fast_path.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::fuzz {
namespace {

using nlohmann::json;
using namespace protocol;

bool text_ok(std::string_view text, std::size_t min, std::size_t max) {
  const auto info = read_utf8(text);
  return info && !info->control && info->code_points >= min && info->code_points <= max;
}

bool id_ok(const json& id) {
  if (id.is_null() || id.is_number()) return true;
  if (!id.is_string()) return false;
  const auto info = read_utf8(id.get_ref<const std::string&>());
  return info && info->code_points <= kMaxIdChars;
}

json point(game::Point p) {
  return json::array({p.x, p.y});
}

// The command as a client would send it.
struct ToJson {
  json& j;
  void operator()(const Hello& c) const {
    j["name"] = c.name;
    if (c.token) j["token"] = *c.token;
    if (c.recovery) j["recovery"] = *c.recovery;
  }
  void operator()(const NewGame& c) const {
    const game::GameSetup& s = c.setup;
    j["mode"] = game::to_string(s.mode);
    if (!s.preset.empty()) {
      j["preset"] = s.preset;
    } else if (s.board) {
      json rows = json::array();
      for (int y = 0; y < s.board->height(); ++y) {
        json row = json::array();
        for (int x = 0; x < s.board->width(); ++x) row.push_back(s.board->at(x, y));
        rows.push_back(row);
      }
      j["board"] = rows;
    } else {
      j["width"] = s.width;
      j["height"] = s.height;
      j["colors"] = s.colors;
    }
    if (!s.seed.empty()) j["seed"] = s.seed;
    if (c.daily) j["daily"] = true;
    if (s.moves) j["moves"] = *s.moves;
    if (!s.refill) j["refill"] = false;
    if (s.compress) j["compress"] = true;
  }
  void operator()(const Resume& c) const { j["game_id"] = c.game_id; }
  void operator()(const MoveCommand& c) const {
    j["game_id"] = c.game_id;
    if (c.move.kind == game::MoveKind::swap) {
      j["a"] = point(c.move.a);
      j["b"] = point(c.move.b);
    } else {
      j["x"] = c.move.a.x;
      j["y"] = c.move.a.y;
    }
  }
  void operator()(const Preview& c) const {
    j["game_id"] = c.game_id;
    j["x"] = c.point.x;
    j["y"] = c.point.y;
  }
  void operator()(const HintRequest& c) const { j["game_id"] = c.game_id; }
  void operator()(const Undo& c) const { j["game_id"] = c.game_id; }
  void operator()(const Resign& c) const { j["game_id"] = c.game_id; }
  void operator()(const CreateRoom& c) const {
    j["mode"] = game::to_string(c.mode);
    j["preset"] = c.preset;
    if (c.seed) j["seed"] = *c.seed;
  }
  void operator()(const JoinRoom& c) const {
    j["code"] = c.code;
    j["as"] = c.spectator ? "spectator" : "player";
  }
  void operator()(const LeaveRoom& c) const { j["code"] = c.code; }
  void operator()(const StartRoom& c) const { j["code"] = c.code; }
  void operator()(const Ping&) const {}
  void operator()(const Running&) const {}
  void operator()(const RecoveryCode&) const {}
};

bool same_setup(const game::GameSetup& a, const game::GameSetup& b) {
  return a.mode == b.mode && a.preset == b.preset && a.seed == b.seed && a.width == b.width &&
         a.height == b.height && a.colors == b.colors && a.moves == b.moves && a.board == b.board &&
         a.refill == b.refill && a.compress == b.compress;
}

struct Same {
  bool operator()(const Hello& a, const Hello& b) const {
    return a.name == b.name && a.token == b.token && a.recovery == b.recovery;
  }
  bool operator()(const NewGame& a, const NewGame& b) const {
    return a.daily == b.daily && same_setup(a.setup, b.setup);
  }
  bool operator()(const Resume& a, const Resume& b) const { return a.game_id == b.game_id; }
  bool operator()(const MoveCommand& a, const MoveCommand& b) const {
    const bool swap = a.move.kind == game::MoveKind::swap;
    return a.game_id == b.game_id && a.move.kind == b.move.kind && a.move.a == b.move.a &&
           (!swap || a.move.b == b.move.b) && a.seen == b.seen;
  }
  bool operator()(const Preview& a, const Preview& b) const {
    return a.game_id == b.game_id && a.point == b.point;
  }
  bool operator()(const HintRequest& a, const HintRequest& b) const {
    return a.game_id == b.game_id;
  }
  bool operator()(const Undo& a, const Undo& b) const {
    return a.game_id == b.game_id && a.seen == b.seen;
  }
  bool operator()(const Resign& a, const Resign& b) const { return a.game_id == b.game_id; }
  bool operator()(const CreateRoom& a, const CreateRoom& b) const {
    return a.mode == b.mode && a.preset == b.preset && a.seed == b.seed;
  }
  bool operator()(const JoinRoom& a, const JoinRoom& b) const {
    return a.code == b.code && a.spectator == b.spectator;
  }
  bool operator()(const LeaveRoom& a, const LeaveRoom& b) const { return a.code == b.code; }
  bool operator()(const StartRoom& a, const StartRoom& b) const { return a.code == b.code; }
  bool operator()(const Ping&, const Ping&) const { return true; }
  bool operator()(const Running&, const Running&) const { return true; }
  bool operator()(const RecoveryCode&, const RecoveryCode&) const { return true; }
  template <typename A, typename B>
  bool operator()(const A&, const B&) const {
    return false;
  }
};

// Field checks against the raw message and protocol.md's limits.
struct Check {
  const json& msg;
  void key(const std::string& k) const {
    FUZZ_CHECK(text_ok(k, 1, kMaxKeyChars), "a key is 1-64 characters");
  }
  void operator()(const Hello& c) const {
    FUZZ_CHECK(text_ok(c.name, 1, kMaxNameChars),
               "an accepted name is 1-32 code points, no control");
    FUZZ_CHECK(msg["name"] == c.name, "the name is the one sent");
    if (c.token) FUZZ_CHECK(text_ok(*c.token, 1, kMaxTokenChars), "a token is 1-256 characters");
    if (c.recovery) {
      FUZZ_CHECK(text_ok(*c.recovery, 1, kMaxRecoveryChars), "a recovery is 1-64 characters");
    }
    FUZZ_CHECK(!(c.token && c.recovery), "never a token and a recovery code together");
  }
  void operator()(const NewGame& c) const {
    FUZZ_CHECK(msg["mode"] == game::to_string(c.setup.mode), "the mode is the one sent");
    if (c.daily) {
      FUZZ_CHECK(c.setup.seed.empty() && !c.setup.preset.empty(), "daily: a preset, no seed");
    } else if (!c.setup.seed.empty()) {
      FUZZ_CHECK(text_ok(c.setup.seed, 1, kMaxSeedChars) && msg["seed"] == c.setup.seed,
                 "a seed is 1-64 characters");
    }
    game::GameSetup setup = c.setup;
    if (setup.seed.empty()) setup.seed = "server-picked";
    const game::CreateResult created = game::create_game(setup);
    FUZZ_CHECK(created.game != nullptr, "every accepted new_game creates a game");
  }
  void operator()(const Resume& c) const { key(c.game_id); }
  void operator()(const MoveCommand& c) const { key(c.game_id); }
  void operator()(const Preview& c) const { key(c.game_id); }
  void operator()(const HintRequest& c) const { key(c.game_id); }
  void operator()(const Undo& c) const { key(c.game_id); }
  void operator()(const Resign& c) const { key(c.game_id); }
  void operator()(const CreateRoom& c) const {
    FUZZ_CHECK(game::find_preset(c.mode, c.preset) != nullptr, "a room's preset exists");
    if (c.seed) FUZZ_CHECK(text_ok(*c.seed, 1, kMaxSeedChars), "a seed is 1-64 characters");
  }
  void operator()(const JoinRoom& c) const {
    key(c.code);
    FUZZ_CHECK(c.spectator == (msg.contains("as") && msg["as"] == "spectator"), "as: spectator");
  }
  void operator()(const LeaveRoom& c) const { key(c.code); }
  void operator()(const StartRoom& c) const { key(c.code); }
  void operator()(const Ping&) const {}
  void operator()(const Running&) const {}
  void operator()(const RecoveryCode&) const {}
};

void check_accepted(std::string_view text, const ParseResult& r) {
  const json msg = json::parse(text.begin(), text.end(), nullptr, false);
  FUZZ_CHECK(msg.is_object(), "an accepted message is a JSON object");
  FUZZ_CHECK(msg["type"] == type_name(*r.command), "the command is of the type sent");
  const bool has_id = msg.contains("id") && !msg["id"].is_null();
  FUZZ_CHECK(has_id ? r.id == msg["id"] : r.id.is_null(), "the id is the one sent");
  std::visit(Check{msg}, *r.command);

  json again{{"type", type_name(*r.command)}};
  if (!r.id.is_null()) again["id"] = r.id;
  std::visit(ToJson{again}, *r.command);
  const std::string text2 = dump(again);
  const ParseResult r2 = parse_client_message(text2);
  FUZZ_CHECK(r2.ok(), "a re-serialised command parses");
  FUZZ_CHECK(std::visit(Same{}, *r.command, *r2.command),
             "a re-serialised command is the same command");
  FUZZ_CHECK(r2.id == r.id, "a re-serialised id is the same id");

  if (const auto* hello = std::get_if<Hello>(&*r.command)) {
    const json reply = json::parse(dump(welcome(r.id, 1, hello->name, "t")), nullptr, false);
    FUZZ_CHECK(reply.is_object() && reply["player"]["name"] == hello->name,
               "welcome echoes the name");
  }
}

void check_refused(const ParseResult& r) {
  FUZZ_CHECK(r.error.code == ErrorCode::bad_request, "bad input is a bad_request, never internal");
  FUZZ_CHECK(text_ok(r.error.message, 1, 1000), "an error message is short valid text");
  const std::string text = dump(error_reply(r.id, r.error));
  const json reply = json::parse(text, nullptr, false);
  FUZZ_CHECK(reply.is_object(), "an error reply dumps to valid JSON");
  FUZZ_CHECK(reply["type"] == "error" && reply["code"] == "bad_request" &&
                 reply["message"] == r.error.message,
             "an error reply carries the code and message");
  FUZZ_CHECK(reply.contains("id") && reply["id"] == r.id, "an error reply echoes the id");
}

}  // namespace
}  // namespace tilecrush::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilecrush;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const protocol::ParseResult r = protocol::parse_client_message(text);
  // The fast path for plain moves must read what it takes as the full
  // parser does, and give the rest to it.
  const protocol::ParseResult full = protocol::detail::parse_full(text);
  FUZZ_CHECK(r.ok() == full.ok(), "the fast path accepts what the full parser accepts");
  FUZZ_CHECK(r.id == full.id && r.id.type() == full.id.type(),
             "the fast path reads the id the full parser reads");
  if (r.ok()) {
    FUZZ_CHECK(std::visit(fuzz::Same{}, *r.command, *full.command),
               "the fast path reads the command the full parser reads");
  } else {
    FUZZ_CHECK(r.error.message == full.error.message, "a refusal is the full parser's");
  }
  FUZZ_CHECK(fuzz::id_ok(r.id), "an echoed id is null, a number or a string of at most 64");
  if (r.ok()) {
    fuzz::check_accepted(text, r);
  } else {
    fuzz::check_refused(r);
  }
  return 0;
}
