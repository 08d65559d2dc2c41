// The bench tools' command lines: "--key value" pairs, each read by the
// tool's own `take(key, value)`, and the readers of their numbers.
//
// Thread safety: free functions without state.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::bench {

// `text`, all of it, as a number of at least `min` (strtod's syntax).
inline bool number_at_least(const std::string& text, double min, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && out >= min;
}

// `text`, all of it, as a whole number, brought into [min, max].
inline bool whole_number_in(const std::string& text, long min, long max, long& out) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') return false;
  out = std::clamp(value, min, max);
  return true;
}

inline bool whole_number_in(const std::string& text, int min, int max, int& out) {
  long value = 0;
  if (!whole_number_in(text, static_cast<long>(min), static_cast<long>(max), value)) return false;
  out = static_cast<int>(value);
  return true;
}

// A whole-number option: its key, the range its value is brought into, and
// where the value goes.
struct WholeOption {
  std::string_view key;
  int min;
  int max;
  int* out;
};

// When `key` is one of `options`: whether `text` is a whole number (then
// stored, brought into the option's range). nullopt for any other key.
inline std::optional<bool> read_whole_option(std::initializer_list<WholeOption> options,
                                             const std::string& key, const std::string& text) {
  for (const WholeOption& option : options) {
    if (key == option.key) return whole_number_in(text, option.min, option.max, *option.out);
  }
  return std::nullopt;
}

// The options both load tools take (the server they load and how): --port,
// --server-pid, --mode, --db. Whether the value is good for a key among
// them; nullopt for any other key.
inline std::optional<bool> read_server_option(const std::string& key, const std::string& text,
                                              unsigned short& port, long& server_pid,
                                              std::string& mode, std::string& db) {
  if (key == "--port") {
    long value = 0;  // a port out of range is refused, not brought into it
    if (!whole_number_in(text, 0L, 65536L, value) || value > 65535) return false;
    port = static_cast<unsigned short>(value);
    return true;
  }
  if (key == "--server-pid") return whole_number_in(text, 0L, 1L << 30, server_pid);
  if (key == "--mode") {
    mode = text;
    return true;
  }
  if (key == "--db") {
    db = text;
    return true;
  }
  return std::nullopt;
}

// Hands each pair of argv[1..] to take(key, value): false when a key has no
// value or `take` refuses the pair (an unknown key, a bad value). With a
// `usage`, "--help" or "-h" prints it to stdout and exits 0.
template <class Take>
bool read_pairs(int argc, char** argv, Take&& take, void (*usage)(std::FILE*) = nullptr) {
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (usage != nullptr && (key == "--help" || key == "-h")) {
      usage(stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) return false;
    if (!take(key, std::string(argv[++i]))) return false;
  }
  return true;
}

}  // namespace tilecrush::bench
