// Client -> server messages of protocol.md as typed values, and the parser
// that turns one WebSocket text frame into one of them.
//
// parse_client_message() validates everything the protocol itself decides
// (types, lengths, ranges, known presets, custom board limits); what depends
// on server state (the game's mode, who owns a game, whether a room is full)
// is left to the server. It never throws on any input and never recurses
// into client-controlled nesting deeper than kMaxDepth.
//
// Thread safety: free functions over values; safe to call concurrently.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/errors.hpp"

namespace tilecrush::protocol {

// Limits of protocol.md, plus bounds it leaves to us (see README.md).
inline constexpr std::size_t kMaxNameChars = 32;  // code points
inline constexpr std::size_t kMaxSeedChars = 64;  // code points
inline constexpr std::size_t kMaxIdChars = 64;    // a string `id`, code points
inline constexpr std::size_t kMaxKeyChars = 64;   // game_id, room code, preset
inline constexpr std::size_t kMaxTokenChars = 256;
inline constexpr std::size_t kMaxRecoveryChars = 64;  // as typed: spaces, dashes
inline constexpr int kMaxDepth = 32;                  // nested arrays/objects

struct Hello {
  std::string name;                  // 1-32 code points, no control characters
  std::optional<std::string> token;  // absent or null: none
  // A recovery code instead of a token (never both): 1-64 code points, no
  // control characters; its spelling is checked by the server.
  std::optional<std::string> recovery;
};

// Asks for a new recovery code (the old one stops working).
struct RecoveryCode {};

// `setup.seed` is empty when the server must pick it: a random seed, or
// today's UTC date when `daily` is true. Everything else in `setup` is final
// and already checked against the mode's presets and custom limits.
struct NewGame {
  game::GameSetup setup;
  bool daily = false;
  // An attempt in this competition: its mode, preset and board are the
  // competition's, so no other field may be given with it.
  std::optional<std::string> competition;
};

struct Resume {
  std::string game_id;
};

// click, swap, peek, select, unselect. Whether the kind exists in the game's
// mode is the engine's decision (Status::wrong_mode -> bad_request).
// `seen`: the moves the sender's view of the game holds (optional field
// `move_count`); when given and the game holds another number, the move is
// refused as `stale` and changes nothing (the game moved on elsewhere: in
// another tab or device of the same player). Undo likewise.
struct MoveCommand {
  std::string game_id;
  game::Move move;
  std::optional<std::int64_t> seen;
};

struct Preview {
  std::string game_id;
  game::Point point;
};

struct HintRequest {
  std::string game_id;
};

struct Undo {
  std::string game_id;
  std::optional<std::int64_t> seen;  // as MoveCommand's
};

struct Resign {
  std::string game_id;
};

struct CreateRoom {
  game::Mode mode = game::Mode::same;
  std::string preset;               // exists for `mode`
  std::optional<std::string> seed;  // none: the server picks one
};

struct JoinRoom {
  std::string code;
  bool spectator = false;  // "as": "spectator"
};

struct LeaveRoom {
  std::string code;
};

struct StartRoom {
  std::string code;
};

struct Ping {};

// The sender's running competition attempts (answer: `running`).
struct Running {};

using Command =
    std::variant<Hello, NewGame, Resume, MoveCommand, Preview, HintRequest, Undo, Resign,
                 CreateRoom, JoinRoom, LeaveRoom, StartRoom, Ping, Running, RecoveryCode>;

// The wire `type` of a command ("hello", "click", "swap", ...).
std::string_view type_name(const Command& command);

// A parsed frame: either a command, or the error to answer with. `id` is the
// request's id when it was present and valid (a number, or a string of at
// most 64 code points), else null; both replies and errors echo it.
struct ParseResult {
  nlohmann::json id;
  std::optional<Command> command;
  Error error;  // meaningful only when !ok()

  bool ok() const { return command.has_value(); }
};

ParseResult parse_client_message(std::string_view text);

}  // namespace tilecrush::protocol
