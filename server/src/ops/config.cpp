#include "ops/config.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <limits>
#include <map>
#include <type_traits>

namespace tilecrush::server {
namespace {

template <typename T>
bool parse_number(const std::string& text, T& out) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return false;
  out = value;
  return true;
}

bool parse_bool(const std::string& text, bool& out) {
  if (text == "1" || text == "true" || text == "on") return out = true, true;
  if (text == "0" || text == "false" || text == "off") return out = false, true;
  return false;
}

// "same=0,match3=1,hidden=1": attempts per mode, 0 for unlimited, 1..100.
bool parse_daily_attempts(const std::string& text, std::array<std::optional<int>, 3>& out) {
  std::array<std::optional<int>, 3> result = out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) return false;
    const std::string mode = item.substr(0, eq);
    int n = 0;
    if (!parse_number(item.substr(eq + 1), n) || n < 0 || n > 100) return false;
    const std::optional<int> value = n == 0 ? std::nullopt : std::optional<int>(n);
    if (mode == "same") {
      result[0] = value;
    } else if (mode == "match3") {
      result[1] = value;
    } else if (mode == "hidden") {
      result[2] = value;
    } else {
      return false;
    }
    start = end + 1;
  }
  out = result;
  return true;
}

using Setter = std::function<bool(Config&, const std::string&)>;

// The setter of a whole-number option that must lie in [min, max].
template <typename T>
Setter number_in(T Config::*field, std::type_identity_t<T> min,
                 std::type_identity_t<T> max = std::numeric_limits<T>::max()) {
  return [field, min, max](Config& c, const std::string& v) {
    return parse_number(v, c.*field) && c.*field >= min && c.*field <= max;
  };
}

const std::map<std::string, std::pair<const char*, Setter>>& options() {
  static const std::map<std::string, std::pair<const char*, Setter>> table = {
      {"bind",
       {"TILECRUSH_BIND",
        [](Config& c, const std::string& v) {
          c.bind = v;
          return !v.empty();
        }}},
      {"port", {"TILECRUSH_PORT", number_in(&Config::port, 0)}},
      {"db",
       {"TILECRUSH_DB",
        [](Config& c, const std::string& v) {
          c.db = v;
          return !v.empty();
        }}},
      {"static",
       {"TILECRUSH_STATIC",
        [](Config& c, const std::string& v) {
          c.static_dir = v;
          return true;
        }}},
      {"threads", {"TILECRUSH_THREADS", number_in(&Config::threads, 0, 256)}},
      {"log-level",
       {"TILECRUSH_LOG_LEVEL",
        [](Config& c, const std::string& v) {
          c.log_level = v;
          return v == "debug" || v == "info" || v == "warn" || v == "error";
        }}},
      {"max-connections", {"TILECRUSH_MAX_CONNECTIONS", number_in(&Config::max_connections, 1)}},
      {"max-connections-per-address",
       {"TILECRUSH_MAX_CONNECTIONS_PER_ADDRESS",
        number_in(&Config::max_connections_per_address, 1)}},
      {"rate",
       {"TILECRUSH_RATE",
        [](Config& c, const std::string& v) {
          unsigned r = 0;
          if (!parse_number(v, r) || r < 100) return false;  // never below protocol.md's floor
          c.rate_per_second = r;
          c.rate_burst = 2.0 * r;
          return true;
        }}},
      {"idle-timeout", {"TILECRUSH_IDLE_TIMEOUT", number_in(&Config::idle_timeout_s, 2)}},
      {"game-idle", {"TILECRUSH_GAME_IDLE", number_in(&Config::game_idle_s, 1)}},
      {"http-timeout", {"TILECRUSH_HTTP_TIMEOUT", number_in(&Config::http_timeout_s, 1)}},
      {"node-id",
       {"TILECRUSH_NODE_ID",
        [](Config& c, const std::string& v) {
          c.node_id = v;
          return !v.empty() && v.size() <= 32 && std::all_of(v.begin(), v.end(), [](char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                   (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
          });
        }}},
      {"db-full-sync",
       {"TILECRUSH_DB_FULL_SYNC",
        [](Config& c, const std::string& v) { return parse_bool(v, c.db_full_sync); }}},
      {"db-linger",
       {"TILECRUSH_DB_LINGER",
        [](Config& c, const std::string& v) {
          unsigned us = 0;
          if (!parse_number(v, us) || us > 100'000) return false;
          c.db_linger_us = us;
          return true;
        }}},
      {"add-organiser",
       {"TILECRUSH_ADD_ORGANISER",
        [](Config& c, const std::string& v) {
          c.add_organiser = v;
          return !v.empty() && v.size() <= 32;
        }}},
      {"operator-token",
       {"TILECRUSH_OPERATOR_TOKEN",
        [](Config& c, const std::string& v) {
          c.operator_token = v;
          return v.size() >= 16;  // a guessable operator token is refused
        }}},
      {"daily-attempts",
       {"TILECRUSH_DAILY_ATTEMPTS",
        [](Config& c, const std::string& v) { return parse_daily_attempts(v, c.daily_attempts); }}},
  };
  return table;
}

}  // namespace

std::string usage() {
  return "usage: tilecrush_server [options]\n"
         "  --bind ADDR          address to listen on (default 0.0.0.0)\n"
         "  --port N             TCP port, 0 for any free port (default 8080)\n"
         "  --db PATH|URL        SQLite database file (default data/tilecrush.db), or a\n"
         "                       PostgreSQL URL postgresql://user@host:port/database\n"
         "  --node-id ID         this node's name when several share one PostgreSQL\n"
         "                       database (letters, digits, - and _; at most 32)\n"
         "  --static DIR         web client folder served at / (default web-client)\n"
         "  --threads N          network threads, 0 = one per usable CPU (default 0)\n"
         "  --log-level LEVEL    debug, info, warn or error (default info)\n"
         "  --max-connections N  open connections overall (default 10000)\n"
         "  --max-connections-per-address N  per remote address (default 256)\n"
         "  --rate N             messages per second per connection, >= 100, burst 2N (default "
         "100)\n"
         "  --idle-timeout S     WebSocket idle timeout in seconds, >= 2; pings go out at\n"
         "                       half of it (default 60)\n"
         "  --game-idle S        a running game untouched for S seconds leaves memory (it\n"
         "                       reloads from storage when asked for), >= 1 (default 300)\n"
         "  --http-timeout S     time allowed for an HTTP request's header and body, >= 1\n"
         "                       (default 15)\n"
         "  --db-full-sync BOOL  fsync every commit (default false: durable against crashes\n"
         "                       of the process, not of the machine)\n"
         "  --db-linger US       while writes arrive fast, the writer waits up to US\n"
         "                       microseconds after a commit, to commit more at once;\n"
         "                       0 = never, <= 100000 (default 1000)\n"
         "  --daily-attempts LIST  attempts per player on a daily board, e.g.\n"
         "                       same=0,match3=1,hidden=1 (the default; 0 = unlimited); past\n"
         "                       them a daily game is unranked practice\n"
         "  --operator-token T   the operator's bearer token for the competitions API\n"
         "                       (at least 16 characters; manages every competition)\n"
         "  --add-organiser NAME  create an organiser, print its token once, and exit\n"
         "  --help               this text\n"
         "Each option can also be set by the environment variable TILECRUSH_<NAME>\n"
         "(upper case, dashes as underscores), e.g. TILECRUSH_PORT=9000.\n";
}

ConfigResult parse_config(const std::vector<std::string>& args,
                          const char* (*get_env)(const char*)) {
  ConfigResult result;
  Config config;
  for (const auto& [name, option] : options()) {
    const char* value = get_env ? get_env(option.first) : nullptr;
    if (value != nullptr && !option.second(config, value)) {
      result.message = std::string("invalid value for ") + option.first + "\n";
      result.exit_code = 2;
      return result;
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--help" || arg == "-h") {
      result.message = usage();
      return result;
    }
    if (!arg.starts_with("--")) {
      result.message = "unexpected argument: " + arg + "\n" + usage();
      result.exit_code = 2;
      return result;
    }
    arg = arg.substr(2);
    std::string value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      result.message = "missing value for --" + arg + "\n";
      result.exit_code = 2;
      return result;
    }
    const auto it = options().find(arg);
    if (it == options().end()) {
      result.message = "unknown option --" + arg + "\n" + usage();
      result.exit_code = 2;
      return result;
    }
    if (!it->second.second(config, value)) {
      result.message = "invalid value for --" + arg + ": " + value + "\n";
      result.exit_code = 2;
      return result;
    }
  }
  result.config = config;
  return result;
}

}  // namespace tilecrush::server
