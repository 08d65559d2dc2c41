#include "tilecrush/protocol/errors.hpp"

namespace tilecrush::protocol {
namespace {

constexpr game::EnumNames kNames(ErrorCode::stale,
                                 {"bad_request", "unauthorized", "not_found", "invalid_move",
                                  "not_allowed", "rate_limited", "internal", "moved", "stale"});

}  // namespace

std::string_view to_string(ErrorCode code) {
  return game::name_of(kNames, code, "internal");
}

std::optional<ErrorCode> parse_error_code(std::string_view text) {
  return game::value_named(kNames, text);
}

ErrorCode error_code(game::Status status) {
  switch (status) {
    case game::Status::wrong_mode:
      return ErrorCode::bad_request;
    case game::Status::invalid_move:
      return ErrorCode::invalid_move;
    case game::Status::not_allowed:
      return ErrorCode::not_allowed;
    case game::Status::ok:
      return ErrorCode::internal;
  }
  return ErrorCode::internal;
}

Error error_from(const game::Outcome& outcome) {
  return Error{error_code(outcome.status), outcome.reason ? outcome.reason : ""};
}

}  // namespace tilecrush::protocol
