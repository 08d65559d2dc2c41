// The bench tools' command lines: "--key value" pairs, each read by the
// tool's own `take(key, value)`, and the readers of their numbers.
//
// Thread safety: free functions without state.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

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

// The options both load tools take: the server they load (--port,
// --server-pid, --mode, --db) and for how long with how many threads
// (--seconds, --threads). Each tool gives its own default mode and length.
struct LoadOptions {
  LoadOptions(std::string default_mode, int default_seconds)
      : mode(std::move(default_mode)), seconds(default_seconds) {}

  unsigned short port = 0;  // required: 0 until --port is read
  long server_pid = 0;      // for the server's CPU and RSS; 0: not sampled
  std::string mode;         // same, match3, hidden or mix (modes in turn)
  std::string db;           // the server's database, for board keys (local_copies.hpp)
  int seconds;
  int threads = 1;
};

// When `key` is one of LoadOptions' keys or of `whole` (the tool's own
// whole-number options): whether `text` is good for it (then stored).
// nullopt for any other key.
inline std::optional<bool> read_load_option(const std::string& key, const std::string& text,
                                            LoadOptions& load,
                                            std::initializer_list<WholeOption> whole) {
  if (const auto own = read_whole_option(whole, key, text)) return own;
  if (const auto shared = read_whole_option(
          {{"--seconds", 1, 600, &load.seconds}, {"--threads", 1, 64, &load.threads}}, key, text)) {
    return shared;
  }
  if (key == "--port") {
    long value = 0;  // a port out of range is refused, not brought into it
    if (!whole_number_in(text, 0L, 65536L, value) || value > 65535) return false;
    load.port = static_cast<unsigned short>(value);
    return true;
  }
  if (key == "--server-pid") return whole_number_in(text, 0L, 1L << 30, load.server_pid);
  if (key == "--mode") {
    load.mode = text;
    return true;
  }
  if (key == "--db") {
    load.db = text;
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

// The main() of a tool that reads its Options with `parse(argc, argv,
// options)` and then does its work with `run(options)`: stdout is line
// buffered (each line as it comes, also through a pipe such as tee: a fill
// takes minutes); a command line `parse` refuses prints `usage` to stderr
// and returns 2; an exception `run` lets escape is printed after `name` and
// returns 1; otherwise run's status.
template <class Options, class Run>
int tool_main(const char* name, int argc, char** argv, bool (*parse)(int, char**, Options&),
              void (*usage)(std::FILE*), Run&& run) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options options;
  if (!parse(argc, argv, options)) {
    usage(stderr);
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}

}  // namespace tilecrush::bench
