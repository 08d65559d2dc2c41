#include "field_reader.hpp"

#include <limits>

#include "text.hpp"
#include "tilecrush/protocol/names.hpp"

namespace tilecrush::protocol::detail {

std::optional<std::int64_t> integer_in(const nlohmann::json& value, std::int64_t min,
                                       std::int64_t max) {
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    if (max < 0 || v > static_cast<std::uint64_t>(max)) return std::nullopt;
    const auto s = static_cast<std::int64_t>(v);
    return s < min ? std::nullopt : std::optional<std::int64_t>(s);
  }
  if (value.is_number_integer()) {
    const auto v = value.get<std::int64_t>();
    if (v < min || v > max) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

void FieldReader::fail(std::string message) {
  if (!error_) error_ = std::move(message);
}

const nlohmann::json* FieldReader::find(const char* key) const {
  const auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string FieldReader::checked_text(const char* key, const nlohmann::json& value,
                                      const TextRule& rule) {
  if (!value.is_string()) {
    fail(std::string(key) + " must be a string");
    return {};
  }
  const auto& text = value.get_ref<const std::string&>();
  const TextInfo info = inspect_text(text);
  if (!info.valid_utf8) {
    fail(std::string(key) + " must be valid UTF-8");
  } else if (info.code_points < rule.min_chars || info.code_points > rule.max_chars) {
    fail(std::string(key) + " must have " + std::to_string(rule.min_chars) + " to " +
         std::to_string(rule.max_chars) + " characters");
  } else if (info.has_control && !rule.allow_control) {
    fail(std::string(key) + " must not contain control characters");
  } else if (const NameProblem problem = rule.shown_name ? name_problem(text) : NameProblem::none;
             problem != NameProblem::none) {
    fail(std::string(name_problem_message(problem)));
  }
  return failed() ? std::string() : text;
}

std::string FieldReader::string(const char* key, const TextRule& rule) {
  if (failed()) return {};
  const nlohmann::json* value = find(key);
  if (value == nullptr) {
    fail(std::string(key) + " is required");
    return {};
  }
  return checked_text(key, *value, rule);
}

std::optional<std::string> FieldReader::optional_string(const char* key, const TextRule& rule) {
  if (failed()) return std::nullopt;
  const nlohmann::json* value = find(key);
  if (value == nullptr) return std::nullopt;
  std::string text = checked_text(key, *value, rule);
  if (failed()) return std::nullopt;
  return text;
}

std::optional<bool> FieldReader::optional_bool(const char* key) {
  if (failed()) return std::nullopt;
  const nlohmann::json* value = find(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_boolean()) {
    fail(std::string(key) + " must be true or false");
    return std::nullopt;
  }
  return value->get<bool>();
}

std::optional<std::int64_t> FieldReader::optional_integer(const char* key, std::int64_t min,
                                                          std::int64_t max) {
  if (failed() || find(key) == nullptr) return std::nullopt;
  const std::int64_t v = integer(key, min, max);
  if (failed()) return std::nullopt;
  return v;
}

std::int64_t FieldReader::integer(const char* key, std::int64_t min, std::int64_t max) {
  if (failed()) return 0;
  const nlohmann::json* value = find(key);
  if (value == nullptr) {
    fail(std::string(key) + " is required");
    return 0;
  }
  const auto v = integer_in(*value, min, max);
  if (!v) {
    fail(std::string(key) + " must be an integer from " + std::to_string(min) + " to " +
         std::to_string(max));
    return 0;
  }
  return *v;
}

int FieldReader::coordinate(const char* key) {
  if (failed()) return 0;
  const nlohmann::json* value = find(key);
  if (value == nullptr) {
    fail(std::string(key) + " is required");
    return 0;
  }
  const auto v = integer_in(*value, std::numeric_limits<std::int32_t>::min(),
                            std::numeric_limits<std::int32_t>::max());
  if (!v) {
    fail(std::string(key) + " must be an integer that fits in 32 bits");
    return 0;
  }
  return static_cast<int>(*v);
}

game::Point FieldReader::point(const char* key) {
  if (failed()) return {};
  const nlohmann::json* value = find(key);
  if (value == nullptr) {
    fail(std::string(key) + " is required");
    return {};
  }
  constexpr auto kMin = std::numeric_limits<std::int32_t>::min();
  constexpr auto kMax = std::numeric_limits<std::int32_t>::max();
  if (value->is_array() && value->size() == 2) {
    const auto x = integer_in((*value)[0], kMin, kMax);
    const auto y = integer_in((*value)[1], kMin, kMax);
    if (x && y) return game::Point{static_cast<int>(*x), static_cast<int>(*y)};
  }
  fail(std::string(key) + " must be [x, y]: two integers that fit in 32 bits");
  return {};
}

}  // namespace tilecrush::protocol::detail
