// tilecrush_room_load: drives R rooms of P players (and S spectators each)
// against a running server on 127.0.0.1 and prints the broadcast latency
// (a move sent -> the room_progress / room_events it causes at each other
// member), moves/s, the move answer's latency, errors by kind, and the
// server's CPU and RSS. Rooms that end before the run does are followed by
// new ones. See room_load_group.hpp for what one room does.
//
//   tilecrush_room_load --port P [--rooms R] [--players-per-room P]
//       [--spectators-per-room S] [--seconds S] [--threads T] [--think-ms MS]
//       [--server-pid PID] [--mode same|match3|hidden|mix] [--preset NAME]
//
// Only loopback addresses are ever targeted; every count and the duration
// are bounded, and the run stops by itself.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "load_common.hpp"
#include "load_window.hpp"
#include "room_load_group.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::bench {
namespace {

constexpr int kMaxConnections = 20000;

bool parse(int argc, char** argv, RoomLoadOptions& o) {
  const auto take = [&o](const std::string& k, const std::string& v) {
    const auto known = read_load_option(k, v, o.load,
                                        {{"--rooms", 1, 5000, &o.rooms},
                                         {"--players-per-room", 1, 8, &o.players_per_room},
                                         {"--spectators-per-room", 0, 32, &o.spectators_per_room},
                                         {"--think-ms", 0, 60000, &o.think_ms}});
    if (known) return *known;
    if (k != "--preset") return false;
    o.preset = v;
    return true;
  };
  if (!read_pairs(argc, argv, take) || o.load.port == 0) return false;
  if (o.rooms * (o.players_per_room + o.spectators_per_room) > kMaxConnections) {
    std::cerr << "at most " << kMaxConnections << " connections\n";
    return false;
  }
  if (o.load.mode != "same" && o.load.db.empty()) {
    std::cerr << "match-3 and hidden rooms need --db SERVER_DB_FILE: their boards' keys are "
                 "secret (rules version 2), and a member's copy of its game needs one\n";
    return false;
  }
  if (o.load.mode == "mix") return o.preset.empty();  // each mode with its default preset
  const auto mode = game::parse_mode(o.load.mode);
  if (!mode) return false;
  return o.preset.empty() || game::find_preset(*mode, o.preset) != nullptr;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

void print_latency(const char* label, const LatencyHistogram& h) {
  std::printf("%-34s p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  (samples %llu)\n", label,
              h.percentile_ms(0.50), h.percentile_ms(0.90), h.percentile_ms(0.99), h.max_ms(),
              static_cast<unsigned long long>(h.count()));
}

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: tilecrush_room_load --port P [--rooms R (200)] [--players-per-room N (4)]\n"
               "         [--spectators-per-room N (0)] [--seconds S (20)] [--threads T (1)]\n"
               "         [--think-ms MS (0)] [--server-pid PID]\n"
               "         [--mode same|match3|hidden|mix (same)] [--preset NAME (mode's default)]\n"
               "         [--db SERVER_DB_FILE (board keys; needed unless --mode same)]\n");
}

int run(RoomLoadOptions& options) {
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);  // see server/src/main.cpp
  const std::string load_before = load_average();
  boost::asio::io_context ioc;
  RoomLoadStats stats;
  const LocalCopies copies(options.load.db);
  options.copies = &copies;
  std::vector<std::shared_ptr<RoomGroup>> groups;
  for (int i = 0; i < options.rooms; ++i) {
    groups.push_back(std::make_shared<RoomGroup>(ioc, options, stats, i));
    groups.back()->start();
  }
  // Ramp-up: until every group's first room plays (at most 60 s); then measure.
  ProcessSample before;
  ProcessSample after;
  ProcessSample tool_before;
  ProcessSample tool_after;
  std::string load_after;
  const LoadTimes times = run_load_window(
      ioc, options.load.threads, std::chrono::seconds(60), options.load.seconds, stats.measuring,
      stats.stopping, [&] { return stats.groups_playing + stats.stalled >= options.rooms; },
      [&] {
        before = sample_process(options.load.server_pid);
        tool_before = sample_process(getpid());
      },
      [&] {
        after = sample_process(options.load.server_pid);
        tool_after = sample_process(getpid());
        load_after = load_average();
      },
      [&] {
        for (auto& g : groups) g->stop();
      });
  const double ramp_s = times.ramp_s;
  const double elapsed = times.measured_s;
  groups.clear();

  const long connections =
      static_cast<long>(options.rooms) * (options.players_per_room + options.spectators_per_room);
  std::printf(
      "rooms %d x (%d players + %d spectators), connections %ld/%ld, %.1f s after %.1f s "
      "ramp-up, mode %s%s%s, think %d ms, tool threads %d\n",
      options.rooms, options.players_per_room, options.spectators_per_room, stats.connected.load(),
      connections, elapsed, ramp_s, options.load.mode.c_str(), options.preset.empty() ? "" : "/",
      options.preset.c_str(), options.think_ms, options.load.threads);
  std::printf(
      "groups playing %ld  stalled %ld  rooms started %ld  finished %ld  games finished %ld  "
      "resigns %ld\n",
      stats.groups_playing.load(), stats.stalled.load(), stats.rooms_started.load(),
      stats.rooms_finished.load(), stats.games_finished.load(), stats.resigns.load());
  std::printf("moves %ld  moves/s %.0f  deliveries %llu  deliveries/s %.0f\n", stats.moves.load(),
              static_cast<double>(stats.moves.load()) / elapsed,
              static_cast<unsigned long long>(stats.broadcast.count()),
              static_cast<double>(stats.broadcast.count()) / elapsed);
  print_latency("move answer ms", stats.reply);
  print_latency("broadcast ms (all deliveries)", stats.broadcast);
  print_latency("  to players (room_progress)", stats.to_players);
  if (options.spectators_per_room > 0)
    print_latency("  to spectators (room_events)", stats.to_spectators);
  std::printf("state_hash mismatches %ld  out-of-order pushes %ld  unmatched pushes %ld\n",
              stats.mismatches.load(), stats.out_of_order.load(), stats.unmatched.load());
  const auto errors = stats.errors();
  std::printf("errors:%s", errors.empty() ? " none" : "");
  for (const auto& [kind, count] : errors) std::printf("  %s %ld", kind.c_str(), count);
  std::printf("\n");
  if (options.load.server_pid > 0) {
    std::printf(
        "server CPU %.0f%% of one core  waiting for a CPU %.0f%%  RSS %.1f MiB  "
        "peak RSS (VmHWM) %.1f MiB\n",
        100.0 * (after.cpu_s - before.cpu_s) / elapsed,
        100.0 * (after.wait_s - before.wait_s) / elapsed, after.rss_kb / 1024.0,
        after.hwm_kb / 1024.0);
  }
  std::printf("tool CPU %.0f%% of one core  waiting for a CPU %.0f%%\n",
              100.0 * (tool_after.cpu_s - tool_before.cpu_s) / elapsed,
              100.0 * (tool_after.wait_s - tool_before.wait_s) / elapsed);
  std::printf("load average %s (before) -> %s (end), %u cores\n", load_before.c_str(),
              load_after.c_str(), std::thread::hardware_concurrency());
  const bool clean = stats.mismatches == 0 && stats.out_of_order == 0 && stats.stalled == 0;
  return clean ? 0 : 1;
}

}  // namespace
}  // namespace tilecrush::bench

int main(int argc, char** argv) {
  using namespace tilecrush::bench;
  return tool_main("tilecrush_room_load", argc, argv, parse, usage, run);
}
