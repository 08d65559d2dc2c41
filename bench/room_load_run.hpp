// What one run of tilecrush_room_load is given (RoomLoadOptions) and what
// all its room groups count together (RoomLoadStats).
//
// Thread safety: RoomLoadOptions is set before the run and only read during
// it; RoomLoadStats is shared by all groups and is thread-safe.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "bench_args.hpp"
#include "latency_histogram.hpp"
#include "local_copies.hpp"

namespace tilecrush::bench {

struct RoomLoadOptions {
  // Its db is needed for match-3 and hidden rooms: the board keys of the
  // members' copies of their games.
  LoadOptions load{"same", 20};
  int rooms = 200;
  int players_per_room = 4;
  int spectators_per_room = 0;
  int think_ms = 0;                     // pause between a move's answer and the next move
  std::string preset;                   // empty: the mode's default
  const LocalCopies* copies = nullptr;  // set by main from `load.db`
};

struct RoomLoadStats {
  LatencyHistogram reply;          // move sent -> its `events` answer
  LatencyHistogram broadcast;      // both of the next two
  LatencyHistogram to_players;     // move sent -> room_progress at another player
  LatencyHistogram to_spectators;  // move sent -> room_events at a spectator
  std::atomic<long> moves{0};
  std::atomic<long> connected{0};
  std::atomic<long> groups_playing{0};  // groups whose first room has started
  std::atomic<long> rooms_started{0};
  std::atomic<long> rooms_finished{0};
  std::atomic<long> games_finished{0};
  std::atomic<long> resigns{0};
  std::atomic<long> mismatches{0};    // state_hash of an answer differs from the local game
  std::atomic<long> out_of_order{0};  // a push that is not the next move of its player
  std::atomic<long> unmatched{0};     // a push for a move this tool did not send
  std::atomic<long> stalled{0};       // groups stopped by an error
  std::atomic<bool> measuring{false};
  std::atomic<bool> stopping{false};

  // Counts one error of kind `kind`; the first few are printed with `detail`.
  void error(const std::string& kind, const std::string& detail);
  std::map<std::string, long> errors() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, long> errors_;
  long printed_ = 0;
};

}  // namespace tilecrush::bench
