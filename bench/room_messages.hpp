// The room protocol as tilecrush_room_load speaks it: the ids of its
// requests, and cheap readers for the server's flat messages (beside
// load_common.hpp's json_field).
//
// Thread safety: free functions without shared state.
#pragma once

#include <exception>
#include <string>

namespace tilecrush::bench {

// Request ids, so that an answer (or an error) says what it answers.
inline constexpr int kHello = 1, kCreate = 2, kJoin = 3, kStart = 4, kMove = 5, kResign = 6;

inline const char* request_name(const std::string& id) {
  static const char* kNames[] = {"?",          "hello", "create_room", "join_room",
                                 "start_room", "move",  "resign"};
  const int n = id.size() == 1 ? id[0] - '0' : 0;
  return kNames[n >= 1 && n <= 6 ? n : 0];
}

// The server writes keys in ascending order, so `type` is the last
// top-level key and no nested object of a message has one.
inline std::string message_type(const std::string& text) {
  static const std::string kNeedle = "\"type\":\"";
  const auto at = text.rfind(kNeedle);
  if (at == std::string::npos) return {};
  const auto begin = at + kNeedle.size();
  return text.substr(begin, text.find('"', begin) - begin);
}

inline long to_long(const std::string& text) {
  try {
    return std::stol(text);
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace tilecrush::bench
