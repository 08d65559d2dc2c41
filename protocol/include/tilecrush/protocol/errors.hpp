// The error codes of protocol.md ("Errors") and how engine refusals map to
// them. Every failure the protocol layer reports is an Error value; nothing
// in this module lets an exception escape on bad client input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tilecrush/game/types.hpp"

namespace tilecrush::protocol {

enum class ErrorCode : std::uint8_t {
  bad_request,
  unauthorized,
  not_found,
  invalid_move,
  not_allowed,
  rate_limited,
  internal,
  // Several nodes: the room is served by another node (the error names it).
  moved,
  // Several nodes: the game changed through another node since this one
  // loaded it; the request changed nothing and a resume shows the game.
  stale,
};

// The wire spelling: "bad_request", "unauthorized", ...
std::string_view to_string(ErrorCode code);
std::optional<ErrorCode> parse_error_code(std::string_view text);

// A failure to report to the client: a code and a short English message.
struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;
};

// Engine refusal -> wire code: wrong_mode -> bad_request (a move of another
// mode), invalid_move -> invalid_move, not_allowed -> not_allowed. `ok` is
// not a refusal; it maps to internal so that a caller's mistake is visible.
ErrorCode error_code(game::Status status);

// The code above with the engine's reason as the message.
Error error_from(const game::Outcome& outcome);

}  // namespace tilecrush::protocol
