// Request targets of the HTTP API (protocol.md, "HTTP API"): path and query
// parsing with percent-decoding, typed parameter reads, and the error body
// {"error": {"code", "message"}}.
//
// Decoding rules: %XX (hex, either case) in the path and the query; '+' is
// a space in query keys and values only (it stays '+' in the path); a '%'
// not followed by two hex digits, a decoded NUL, or decoded bytes that are
// not valid UTF-8 make the whole target a 400. A '#fragment' is dropped.
//
// Thread safety: free functions over values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilecrush/protocol/errors.hpp"

namespace tilecrush::protocol {

struct HttpError {
  int status = 400;
  ErrorCode code = ErrorCode::bad_request;
  std::string message;
};

// {"error":{"code":"<code>","message":"<message>"}}
std::string http_error_body(ErrorCode code, std::string_view message);
std::string http_error_body(const HttpError& error);

struct RequestTarget {
  std::string path;  // decoded whole path, e.g. "/api/players/a b"
  // The path split at '/' *before* decoding, each part decoded: "/api/players/a%2Fb"
  // gives {"api", "players", "a/b"}. The leading empty part is left out; a
  // trailing '/' gives a trailing empty segment.
  std::vector<std::string> segments;
  // Query pairs in order; a key without '=' has an empty value; empty pairs
  // ("a=1&&b=2") are skipped.
  std::vector<std::pair<std::string, std::string>> query;

  // Every value given for `name`, in order.
  std::vector<const std::string*> values(std::string_view name) const;
};

struct TargetResult {
  RequestTarget target;
  std::optional<HttpError> error;
  bool ok() const { return !error; }
};

// `target` is the origin-form request target ("/api/daily?x=1"); anything
// not starting with '/' is a 400.
TargetResult parse_target(std::string_view target);

// Percent-decodes by the rules above ('+' is a space when plus_is_space):
// nullopt for a bad escape, a decoded NUL or bytes that are not UTF-8. The
// static files' paths are decoded by it too (plus_is_space false).
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

struct IntParam {
  std::int64_t value = 0;
  std::optional<HttpError> error;
  bool ok() const { return !error; }
};

struct StringParam {
  std::optional<std::string> value;
  std::optional<HttpError> error;
  bool ok() const { return !error; }
};

// A decimal integer ('-' allowed, no '+', no spaces) within [min, max];
// absent or empty: `fallback`. Given twice, not a number or out of range:
// 400 bad_request naming the parameter.
IntParam int_param(const RequestTarget& target, std::string_view name, std::int64_t fallback,
                   std::int64_t min, std::int64_t max);
// As int_param, but absent or empty is a 400.
IntParam required_int_param(const RequestTarget& target, std::string_view name, std::int64_t min,
                            std::int64_t max);
// A text parameter of at most max_chars code points without control
// characters; absent or empty: nullopt, or a 400 when `required`. Given
// twice: 400.
StringParam string_param(const RequestTarget& target, std::string_view name, bool required,
                         std::size_t max_chars = 64);

}  // namespace tilecrush::protocol
