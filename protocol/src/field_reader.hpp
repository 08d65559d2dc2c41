// Typed reads of one JSON object's fields that record the first failure
// instead of throwing. After a failure every further read is a no-op that
// returns a default, so a parser can read all fields and check failed() once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tilecrush/game/types.hpp"

namespace tilecrush::protocol::detail {

struct TextRule {
  std::size_t min_chars = 1;  // code points
  std::size_t max_chars = 64;
  bool allow_control = false;
  bool shown_name = false;  // names.hpp's checks too
};

class FieldReader {
 public:
  explicit FieldReader(const nlohmann::json& object) : object_(object) {}

  bool failed() const { return error_.has_value(); }
  const std::string& error() const { return *error_; }
  void fail(std::string message);

  // The field, or null when it is absent or JSON null (both mean "not given").
  const nlohmann::json* find(const char* key) const;
  bool has(const char* key) const { return find(key) != nullptr; }

  std::string string(const char* key, const TextRule& rule);
  std::optional<std::string> optional_string(const char* key, const TextRule& rule);
  std::optional<bool> optional_bool(const char* key);
  // A JSON integer (no fraction, no exponent) within [min, max].
  std::int64_t integer(const char* key, std::int64_t min, std::int64_t max);
  // integer(), or nullopt when absent or null.
  std::optional<std::int64_t> optional_integer(const char* key, std::int64_t min, std::int64_t max);
  // A coordinate: a JSON integer that fits in 32 bits.
  int coordinate(const char* key);
  // [x, y]: an array of exactly two coordinates.
  game::Point point(const char* key);

 private:
  std::optional<std::int64_t> checked_integer(const nlohmann::json& value, std::int64_t min,
                                              std::int64_t max);
  std::string checked_text(const char* key, const nlohmann::json& value, const TextRule& rule);

  const nlohmann::json& object_;
  std::optional<std::string> error_;
};

// The value as an integer within [min, max], or nullopt when it is not a
// JSON integer in that range.
std::optional<std::int64_t> integer_in(const nlohmann::json& value, std::int64_t min,
                                       std::int64_t max);

}  // namespace tilecrush::protocol::detail
