// Pieces of JSON several of the protocol's messages share, written once.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "tilecrush/game/types.hpp"

namespace tilecrush::protocol::detail {

// The value, or null when there is none: optional fields are written as
// null, never left out.
template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// [x, y]: a cell in events, selections, previews and hints.
inline nlohmann::json point_json(game::Point p) {
  return nlohmann::json::array({p.x, p.y});
}

// `cells` row by row, width * height of them, top row first: GameView's
// `board` and a finished practice game's starting board are written alike.
nlohmann::json board_rows(const std::vector<int>& cells, int width, int height);

}  // namespace tilecrush::protocol::detail

// nlohmann 3.11.3's writer-only form of NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE,
// for the 3.11.2 this tree builds with (a newer library brings its own):
// `to_json` writes each member named, under its own name. The records
// written so are only ever written, never read back.
#ifndef NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_ONLY_SERIALIZE
#define NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_ONLY_SERIALIZE(Type, ...)                  \
  inline void to_json(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) { \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))          \
  }
#endif

// How such a record's members of these types are written. Only the
// protocol's writers see these: no other module turns a mode or an optional
// into JSON by itself.
namespace nlohmann {

// Null when empty, never left out (detail::or_null).
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& out, const std::optional<T>& value) {
    out = tilecrush::protocol::detail::or_null(value);
  }
};

// By its name ("same", "match3", "hidden"), as everywhere in the protocol.
template <>
struct adl_serializer<tilecrush::game::Mode> {
  static void to_json(json& out, tilecrush::game::Mode mode) {
    out = tilecrush::game::to_string(mode);
  }
};

}  // namespace nlohmann
