// The background load of the failover test (issue #25): many more solo
// players than the tracked ones, playing through nginx across every kill
// (each reconnects and carries on, checked as a tracked player is: a move
// acknowledged and then missing, or a fork, fails the test), so that the
// offered load is there during each kill and each reconnect window. Its
// level comes from the environment:
//
//   TILECRUSH_FAILOVER_LOAD_PLAYERS  players (default 48; 0: no load)
//   TILECRUSH_FAILOVER_LOAD_RATE     moves per second per player (default
//                                    8; 0: a closed loop, each player's next
//                                    move as soon as the last is answered)
//
// A move is two requests (a hint, then the click it names), as for the
// tracked players. bench/failover_load.sh runs the test at the full
// load. Also here: the summary of reconnect times the test prints.
//
// Thread safety: plain values and free functions.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace tilecrush::testing {

struct FailoverLoadLevel {
  int players = 48;
  double rate = 8;  // moves/s per player; 0: closed loop

  static FailoverLoadLevel from_env() {
    FailoverLoadLevel level;
    if (const char* v = std::getenv("TILECRUSH_FAILOVER_LOAD_PLAYERS")) {
      level.players = std::clamp(std::atoi(v), 0, 5000);
    }
    if (const char* v = std::getenv("TILECRUSH_FAILOVER_LOAD_RATE")) {
      level.rate = std::clamp(std::atof(v), 0.0, 100.0);
    }
    return level;
  }

  std::string describe() const {
    char text[160];
    if (rate > 0) {
      std::snprintf(text, sizeof text, "%d players paced at %.1f moves/s (offered %.0f moves/s)",
                    players, rate, rate * players);
    } else {
      std::snprintf(text, sizeof text, "%d players in a closed loop", players);
    }
    return text;
  }
};

// The `p` quantile (0..1) of `v`, nearest rank; 0 when empty.
inline double quantile_of(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// "N reconnects, p50 A s, p99 B s, max C s" (and "K not back" when some
// were not), for the test's lines.
inline std::string describe_reconnects(const std::vector<double>& seconds, int not_back) {
  char text[160];
  std::snprintf(text, sizeof text, "%zu reconnects, p50 %.2f s, p99 %.2f s, max %.2f s",
                seconds.size(), quantile_of(seconds, 0.50), quantile_of(seconds, 0.99),
                seconds.empty() ? 0.0 : *std::max_element(seconds.begin(), seconds.end()));
  std::string out = text;
  if (not_back > 0) out += ", " + std::to_string(not_back) + " not back";
  return out;
}

}  // namespace tilecrush::testing
