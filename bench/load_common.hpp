// Small pieces shared by the load tools (tilecrush_load, tilecrush_room_load):
// a run tag that keeps player names unique across runs on one database, a
// cheap field reader for the server's flat JSON messages, the text of a move
// request, and samples of the server process from /proc.
//
// Thread safety: free functions without shared state (run_tag's static is
// initialised once, thread-safely).
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "tilecrush/game/game.hpp"

namespace tilecrush::bench {

// Seconds since the epoch, modulo 100000: part of every simulated player's
// name, so that a second run against the same database does not meet the
// names (and tokens) of the first.
inline long run_tag() {
  static const long tag = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count() %
                          100000;
  return tag;
}

// The first `"key":` value in `text`, unquoted when it is a string; empty
// when absent. Only for messages whose fields the caller knows: no escapes,
// and no nested object that repeats the key before the wanted one.
inline std::string json_field(const std::string& text, const std::string& key) {
  const std::string needle = "\"" + key + "\":";
  const auto at = text.find(needle);
  if (at == std::string::npos) return {};
  std::size_t begin = at + needle.size();
  if (text[begin] == '"') {
    const auto end = text.find('"', begin + 1);
    return text.substr(begin + 1, end - begin - 1);
  }
  std::size_t end = begin;
  while (end < text.size() && text[end] != ',' && text[end] != '}') ++end;
  return text.substr(begin, end - begin);
}

// The request for `move` in game `game_id` (click, swap, peek, select or
// unselect), with request id `id`.
inline std::string move_request(const std::string& game_id, const game::Move& move, int id) {
  std::string text = "{\"type\":\"" + std::string(game::to_string(move.kind)) +
                     "\",\"id\":" + std::to_string(id) + ",\"game_id\":\"" + game_id + "\"";
  if (move.kind == game::MoveKind::swap) {
    text += ",\"a\":[" + std::to_string(move.a.x) + "," + std::to_string(move.a.y) + "],\"b\":[" +
            std::to_string(move.b.x) + "," + std::to_string(move.b.y) + "]}";
  } else {
    text += ",\"x\":" + std::to_string(move.a.x) + ",\"y\":" + std::to_string(move.a.y) + "}";
  }
  return text;
}

struct ProcessSample {
  long rss_kb = 0;   // VmRSS
  long hwm_kb = 0;   // VmHWM: the peak resident set so far
  double cpu_s = 0;  // utime + stime
  // Time its threads were runnable but waiting for a CPU (schedstat): on a
  // shared machine, what tells a slow server from a starved one.
  double wait_s = 0;
};

// Zeros when pid <= 0 or the process is gone.
inline ProcessSample sample_process(long pid) {
  ProcessSample s;
  if (pid <= 0) return s;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kb = std::stol(line.substr(6));
    if (line.rfind("VmHWM:", 0) == 0) s.hwm_kb = std::stol(line.substr(6));
  }
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string content((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close_paren = content.rfind(')');
  if (close_paren != std::string::npos) {
    std::istringstream fields(content.substr(close_paren + 2));
    std::string field;
    long utime = 0, stime = 0;
    for (int i = 3; fields >> field; ++i) {
      if (i == 14) utime = std::stol(field);
      if (i == 15) {
        stime = std::stol(field);
        break;
      }
    }
    s.cpu_s = static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  std::error_code ec;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream schedstat(task.path() / "schedstat");
    long long run_ns = 0, wait_ns = 0;
    if (schedstat >> run_ns >> wait_ns) s.wait_s += static_cast<double>(wait_ns) / 1e9;
  }
  return s;
}

}  // namespace tilecrush::bench
