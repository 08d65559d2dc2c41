// Server settings from command-line flags and TILECRUSH_* environment
// variables (a flag wins over the environment, which wins over the default).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilecrush::server {

struct Config {
  std::string bind = "0.0.0.0";
  unsigned short port = 8080;
  std::string db = "data/tilecrush.db";
  // This node's name among several on one PostgreSQL database: rooms record
  // their owner by it, and a client sent elsewhere is told it ("moved").
  // Letters, digits, '-' and '_'; empty on a single node.
  std::string node_id;
  std::string static_dir = "web-client";
  unsigned threads = 0;  // 0: one per CPU the process may run on
  std::string log_level = "info";
  std::size_t max_connections = 10000;
  std::size_t max_connections_per_address = 256;
  double rate_per_second = 100;
  double rate_burst = 200;
  unsigned idle_timeout_s = 60;
  // A running game untouched this long leaves memory (it reloads from
  // storage when asked for); a finished one leaves within a second.
  unsigned game_idle_s = 300;
  // An HTTP request's header and body (and each answer's write) must take
  // no longer than this; slow headers are cut off.
  unsigned http_timeout_s = 15;
  bool db_full_sync = false;
  // The writer's linger bound in microseconds (storage::Linger::bound: the
  // longest a busy writer waits to commit more operations at once; 0 off);
  // nullopt: the backend's default.
  std::optional<unsigned> db_linger_us;
  // Operator actions instead of serving: --add-organiser NAME creates an
  // organiser, prints its token once and exits.
  std::string add_organiser;
  // The operator's bearer token for the competitions API (manages every
  // competition); empty: no operator access over HTTP. Only its hash is kept.
  std::string operator_token;
  // Attempts per player on a daily board, by mode (same, match3, hidden);
  // nullopt: unlimited. Past them a daily game is unranked practice.
  std::array<std::optional<int>, 3> daily_attempts{std::nullopt, 1, 1};

  // Not options: for tests only. The clock (default: the system's) and the
  // source of board keys (default: OpenSSL's RAND_bytes).
  std::function<std::int64_t()> now;
  std::function<std::array<std::uint8_t, 32>(const std::string& scope, int mode,
                                             const std::string& preset, const std::string& seed)>
      board_key_source;
};

struct ConfigResult {
  std::optional<Config> config;  // nullopt: print `message` and exit
  std::string message;
  int exit_code = 0;
};

// getenv is passed in so tests need not touch the process environment.
ConfigResult parse_config(const std::vector<std::string>& args,
                          const char* (*get_env)(const char*));

std::string usage();

}  // namespace tilecrush::server
