// The failover test's reconnect times (issue #25): per kill, each player
// whose connection broke, the time from the kill until its first move
// acknowledged afterwards, kept apart for the tracked players and the
// background load, and split into three parts (the break noticed, back
// in, the first move); with the quantiles and the lines the test prints.
//
// Thread safety: none; the test's main thread only.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tracked_player.hpp"

namespace tilecrush::testing {

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

inline double seconds_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e9;
}

class ReconnectTimes {
 public:
  // One kill's reconnects, in seconds.
  struct Cycle {
    std::vector<double> tracked;
    std::vector<double> load;
    int load_not_back = 0;
  };

  // `players[i]` (the first `tracked` of them tracked, the rest the load)
  // was back at `back_at[i]` (0: not back within `bound`) after the kill
  // at `killed_at`. A player whose connection did not break at this kill
  // is not counted; a player of the load not back is counted at `bound`,
  // so that its p99 shows it (a tracked player not back fails the test).
  Cycle add_cycle(const std::vector<TrackedPlayer*>& players, std::size_t tracked,
                  std::int64_t killed_at, const std::vector<std::int64_t>& back_at,
                  std::chrono::seconds bound) {
    Cycle cycle;
    for (std::size_t i = 0; i < players.size(); ++i) {
      if (players[i]->broke_ns() < killed_at) continue;
      if (back_at[i] == 0) {
        if (i >= tracked) {
          ++cycle.load_not_back;
          cycle.load.push_back(std::chrono::duration<double>(bound).count());
        }
        continue;
      }
      (i < tracked ? cycle.tracked : cycle.load).push_back(seconds_between(killed_at, back_at[i]));
      const std::int64_t broke = players[i]->broke_ns();
      const std::int64_t rejoined = players[i]->rejoined_ns();
      if (broke <= rejoined && rejoined <= back_at[i]) {
        noticed_.push_back(seconds_between(killed_at, broke));
        rejoined_.push_back(seconds_between(broke, rejoined));
        first_move_.push_back(seconds_between(rejoined, back_at[i]));
      }
    }
    tracked_.insert(tracked_.end(), cycle.tracked.begin(), cycle.tracked.end());
    load_.insert(load_.end(), cycle.load.begin(), cycle.load.end());
    load_not_back_ += cycle.load_not_back;
    return cycle;
  }

  const std::vector<double>& tracked() const { return tracked_; }
  const std::vector<double>& load() const { return load_; }
  int load_not_back() const { return load_not_back_; }
  std::vector<double> everyone() const {
    std::vector<double> all = tracked_;
    all.insert(all.end(), load_.begin(), load_.end());
    return all;
  }

  // Everyone's reconnects in their three parts, p50 / p99 of each.
  std::string describe_parts() const {
    char text[320];
    std::snprintf(text, sizeof text,
                  "everyone's reconnects in parts (p50 / p99, over %zu): the break noticed %.2f / "
                  "%.2f s after the kill, back in (connected, signed in, resumed or joined) %.2f "
                  "/ %.2f s later, the first move acknowledged %.2f / %.2f s after that",
                  noticed_.size(), quantile_of(noticed_, 0.5), quantile_of(noticed_, 0.99),
                  quantile_of(rejoined_, 0.5), quantile_of(rejoined_, 0.99),
                  quantile_of(first_move_, 0.5), quantile_of(first_move_, 0.99));
    return text;
  }

 private:
  std::vector<double> tracked_;
  std::vector<double> load_;
  int load_not_back_ = 0;
  std::vector<double> noticed_;
  std::vector<double> rejoined_;
  std::vector<double> first_move_;
};

}  // namespace tilecrush::testing
