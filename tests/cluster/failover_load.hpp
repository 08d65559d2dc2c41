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
// load.
//
// Thread safety: a plain value.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

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

}  // namespace tilecrush::testing
