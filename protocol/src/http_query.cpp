#include "tilecrush/protocol/http_query.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "text.hpp"
#include "tilecrush/game/hex.hpp"

namespace tilecrush::protocol {

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int hi = game::hex_digit(text[i + 1]);
      const int lo = game::hex_digit(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (c == '\0') return std::nullopt;
    out.push_back(c);
  }
  if (!detail::inspect_text(out).valid_utf8) return std::nullopt;
  return out;
}

namespace {

bool decode(std::string_view text, bool plus_is_space, std::string& out) {
  auto decoded = percent_decode(text, plus_is_space);
  if (!decoded) return false;
  out = std::move(*decoded);
  return true;
}

HttpError bad_request(std::string message) {
  return HttpError{400, ErrorCode::bad_request, std::move(message)};
}

// The single value of `name`, or nullptr; an error when given twice.
const std::string* single(const RequestTarget& target, std::string_view name,
                          std::optional<HttpError>& error) {
  const auto all = target.values(name);
  if (all.size() > 1) {
    error = bad_request(std::string(name) + " is given more than once");
    return nullptr;
  }
  return all.empty() || all.front()->empty() ? nullptr : all.front();
}

IntParam read_int(const RequestTarget& target, std::string_view name,
                  std::optional<std::int64_t> fallback, std::int64_t min, std::int64_t max) {
  IntParam out;
  const std::string* text = single(target, name, out.error);
  if (out.error) return out;
  const std::string range =
      " must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (text == nullptr) {
    if (fallback) {
      out.value = *fallback;
    } else {
      out.error = bad_request(std::string(name) + " is required");
    }
    return out;
  }
  std::int64_t value = 0;
  const char* first = text->data();
  const char* last = first + text->size();
  const auto res = std::from_chars(first, last, value);
  if (res.ec != std::errc() || res.ptr != last || value < min || value > max) {
    out.error = bad_request(std::string(name) + range);
    return out;
  }
  out.value = value;
  return out;
}

}  // namespace

std::string http_error_body(ErrorCode code, std::string_view message) {
  const nlohmann::json body{{"error", {{"code", to_string(code)}, {"message", message}}}};
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string http_error_body(const HttpError& error) {
  return http_error_body(error.code, error.message);
}

std::vector<const std::string*> RequestTarget::values(std::string_view name) const {
  std::vector<const std::string*> out;
  for (const auto& [key, value] : query) {
    if (key == name) out.push_back(&value);
  }
  return out;
}

TargetResult parse_target(std::string_view target) {
  TargetResult result;
  if (const auto hash = target.find('#'); hash != std::string_view::npos) {
    target = target.substr(0, hash);
  }
  if (target.empty() || target.front() != '/') {
    result.error = bad_request("the request target must start with '/'");
    return result;
  }
  const auto question = target.find('?');
  const std::string_view raw_path = target.substr(0, question);
  const std::string_view raw_query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);

  RequestTarget& out = result.target;
  if (!decode(raw_path, false, out.path)) {
    result.error = bad_request("the path has an invalid percent escape");
    return result;
  }
  std::string part;
  for (std::size_t start = 1; start <= raw_path.size();) {
    const auto slash = std::min(raw_path.find('/', start), raw_path.size());
    // Cannot fail: the whole path decoded, and '/' never splits a UTF-8 sequence.
    decode(raw_path.substr(start, slash - start), false, part);
    out.segments.push_back(part);
    start = slash + 1;
  }

  std::size_t start = 0;
  while (start < raw_query.size()) {
    const auto amp = std::min(raw_query.find('&', start), raw_query.size());
    const std::string_view pair = raw_query.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    std::string key;
    std::string value;
    if (!decode(pair.substr(0, eq), true, key) ||
        (eq != std::string_view::npos && !decode(pair.substr(eq + 1), true, value))) {
      result.error = bad_request("the query has an invalid percent escape");
      return result;
    }
    out.query.emplace_back(std::move(key), std::move(value));
  }
  return result;
}

IntParam int_param(const RequestTarget& target, std::string_view name, std::int64_t fallback,
                   std::int64_t min, std::int64_t max) {
  return read_int(target, name, fallback, min, max);
}

IntParam required_int_param(const RequestTarget& target, std::string_view name, std::int64_t min,
                            std::int64_t max) {
  return read_int(target, name, std::nullopt, min, max);
}

StringParam string_param(const RequestTarget& target, std::string_view name, bool required,
                         std::size_t max_chars) {
  StringParam out;
  const std::string* text = single(target, name, out.error);
  if (out.error) return out;
  if (text == nullptr) {
    if (required) out.error = bad_request(std::string(name) + " is required");
    return out;
  }
  const detail::TextInfo info = detail::inspect_text(*text);
  if (info.code_points > max_chars || info.has_control) {
    out.error = bad_request(std::string(name) + " must have at most " + std::to_string(max_chars) +
                            " characters and no control characters");
    return out;
  }
  out.value = *text;
  return out;
}

}  // namespace tilecrush::protocol
