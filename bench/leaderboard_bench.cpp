// leaderboard_bench: the read latency of one big leaderboard while games keep
// finishing on it ("Leaderboards for a million players").
//
// Fills one casual board (Same Game, preset classic, seed "bench": the board
// GET /api/leaderboard?mode=same&preset=classic&seed=bench serves, which
// bench/leaderboard_http.sh measures over HTTP) to --entries entries through
// the public storage API, then measures, one request at a time on the main
// thread while a background thread records finished games on the same board
// (new players, and improvements of entries already there):
//   - top 20 (limit 20, offset 0),
//   - a page of 20 at a random offset, uniform over the board,
//   - the last page of 20,
//   - around a random player on the board (radius 5, by name),
//   - around the last player (radius 5): the baseline's worst case.
// Each phase runs --seconds (or until 1,000,000 samples) after one unmeasured
// request, so a slow read path bounds the time, not the sample count.
//
//   leaderboard_bench --db PATH [--entries N] [--seconds S] [--writers-rate R]
//
// The database file is kept: a later run on the same file skips the fill when
// the board already holds --entries entries (or tops it up when it holds
// fewer). Only SQLite files for now; a PostgreSQL URL is refused.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <semaphore>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "footprint.hpp"
#include "latency_histogram.hpp"
#include "leaderboard_board.hpp"
#include "leaderboard_writer.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/storage/database.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace {

using namespace leaderboard_bench;
using tilecrush::bench::number_at_least;
using tilecrush::bench::print_footprint;
using tilecrush::bench::read_pairs;

constexpr std::int64_t kPageSize = 20;
constexpr std::int64_t kRadius = 5;
constexpr std::size_t kMaxSamples = 1'000'000;

struct Options {
  std::string db;
  std::int64_t entries = 1'000'000;
  double seconds = 5;
  double writers_rate = 2000;
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: leaderboard_bench --db PATH [--entries N] [--seconds S] "
               "[--writers-rate R]\n"
               "  --db PATH          SQLite file, kept for later runs (created when missing)\n"
               "  --entries N        entries on the board (default 1000000)\n"
               "  --seconds S        per measured query (default 5)\n"
               "  --writers-rate R   finished games/s recorded meanwhile (default 2000, 0: "
               "none)\n");
}

// Only a plain path is a database this build can open; say so for a URL
// rather than creating a file named like one.
std::optional<std::string> check_db(const std::string& db) {
  if (db.empty() || db == ":memory:") return "--db needs a file path (the readers share it)";
  const auto scheme_end = db.find("://");
  if (scheme_end == std::string::npos) return std::nullopt;
  const std::string scheme = db.substr(0, scheme_end);
  if (scheme == "postgresql" || scheme == "postgres") {
    return "--db " + scheme +
           "://...: the PostgreSQL backend is not built yet; give a SQLite file path";
  }
  return "--db " + scheme + "://...: unknown database URL; give a SQLite file path";
}

bool parse(int argc, char** argv, Options& o) {
  const auto take = [&o](const std::string& k, const std::string& v) {
    double x = 0;
    if (k == "--db") {
      o.db = v;
    } else if (k == "--entries" && number_at_least(v, 1, x)) {
      o.entries = static_cast<std::int64_t>(x);
    } else if (k == "--seconds" && number_at_least(v, 0.001, x)) {
      o.seconds = x;
    } else if (k == "--writers-rate" && number_at_least(v, 0, x)) {
      o.writers_rate = x;
    } else {
      return false;
    }
    return true;
  };
  if (!read_pairs(argc, argv, take, usage)) return false;
  return !o.db.empty();
}

struct PhaseResult {
  std::string label;
  std::vector<std::int64_t> ns;  // sorted
  std::uint64_t misses = 0;      // around-me: the player was not found
};

// Runs `request` one at a time for `seconds` (after one unmeasured call).
// It returns false for a miss, which is timed all the same.
template <class Request>
PhaseResult measure(std::string label, double seconds, Request&& request) {
  PhaseResult out{std::move(label), {}, 0};
  request();
  const auto start = Clock::now();
  while (seconds_since(start) < seconds && out.ns.size() < kMaxSamples) {
    const auto t0 = Clock::now();
    const bool hit = request();
    out.ns.push_back(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
    if (!hit) ++out.misses;
  }
  std::sort(out.ns.begin(), out.ns.end());
  return out;
}

// The sample of rank floor(p * n), as LatencyHistogram and tilecrush_load.
double percentile_ms(const std::vector<std::int64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank =
      std::min(sorted.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted.size())));
  return static_cast<double>(sorted[rank]) / 1e6;
}

void print_table(const std::vector<PhaseResult>& phases) {
  std::printf("%-34s %9s %10s %10s %10s %10s %7s\n", "query", "count", "p50 ms", "p90 ms", "p99 ms",
              "max ms", "misses");
  for (const auto& p : phases) {
    std::printf("%-34s %9zu %10.3f %10.3f %10.3f %10.3f %7llu\n", p.label.c_str(), p.ns.size(),
                percentile_ms(p.ns, 0.50), percentile_ms(p.ns, 0.90), percentile_ms(p.ns, 0.99),
                p.ns.empty() ? 0.0 : static_cast<double>(p.ns.back()) / 1e6,
                (unsigned long long)p.misses);
  }
}

int run(const Options& o) {
  std::mt19937_64 rng(1);
  const std::string run = run_id();
  storage::Options db_options;
  db_options.path = o.db;
  Database db(db_options);

  std::printf("leaderboard_bench: db %s, board mode=%s preset=%s seed=%s (casual)\n", o.db.c_str(),
              std::string(game::to_string(kBoard.mode)).c_str(), kBoard.preset.c_str(),
              kBoard.seed.c_str());
  const game::BoardSecret key = ensure_board(db);
  const std::int64_t had = db.leaderboard(kBoard, 0, 0).total;
  if (had >= o.entries) {
    std::printf("fill: skipped, the board already holds %lld entries (>= %lld)\n", (long long)had,
                (long long)o.entries);
  } else {
    std::printf("fill: the board holds %lld entries, adding %lld\n", (long long)had,
                (long long)(o.entries - had));
    if (!fill(db, key, o.entries - had, run)) return 1;
  }

  std::int64_t total = db.leaderboard(kBoard, 0, 0).total;
  const auto sample_start = Clock::now();
  const std::vector<Sampled> pool = sample_players(db, total, rng);
  std::printf("sampled %zu players on the board (64 slices at random offsets) in %.1f s\n",
              pool.size(), seconds_since(sample_start));
  if (pool.empty()) {
    std::printf("the board is empty\n");
    return 1;
  }

  BackgroundWriter writer(db, key, pool, o.writers_rate, run);
  std::printf(
      "measuring: %.1f s per query, one request at a time; background writer: %.0f finished "
      "games/s (1/4 new players, 3/4 improvements)\n\n",
      o.seconds, o.writers_rate);
  const std::int64_t total_before = total;
  const storage::WriterMetrics metrics_before = db.metrics();
  writer.start();

  std::vector<PhaseResult> phases;
  phases.push_back(measure("top 20 (offset 0)", o.seconds, [&] {
    total = db.leaderboard(kBoard, kPageSize, 0).total;
    return true;
  }));
  std::uniform_int_distribution<std::int64_t> unit(0, INT64_MAX);
  phases.push_back(measure("page of 20 at a random offset", o.seconds, [&] {
    total = db.leaderboard(kBoard, kPageSize, unit(rng) % std::max<std::int64_t>(1, total)).total;
    return true;
  }));
  phases.push_back(measure("last page of 20", o.seconds, [&] {
    total = db.leaderboard(kBoard, kPageSize, std::max<std::int64_t>(0, total - kPageSize)).total;
    return true;
  }));
  phases.push_back(measure("around a random player (r=5)", o.seconds, [&] {
    const auto page = db.leaderboard_around(kBoard, pool[unit(rng) % pool.size()].name, kRadius);
    if (page) total = page->total;
    return page.has_value();
  }));
  const auto last = db.leaderboard(kBoard, 1, std::max<std::int64_t>(0, total - 1));
  const std::string last_name = last.entries.empty() ? pool.front().name : last.entries[0].player;
  phases.push_back(measure("around the last player (r=5)", o.seconds, [&] {
    const auto page = db.leaderboard_around(kBoard, last_name, kRadius);
    if (page) total = page->total;
    return page.has_value();
  }));

  writer.stop();
  print_table(phases);
  std::printf("\n");
  if (writer.rate() > 0) {
    const auto& l = writer.latency();
    std::printf(
        "writer: %llu finished games in %.1f s = %.0f/s (target %.0f/s, at most %llu in "
        "flight), %llu new players, %llu refused%s%s\n",
        (unsigned long long)writer.finished_by_stop(), writer.ran_s(),
        static_cast<double>(writer.finished_by_stop()) / writer.ran_s(), writer.rate(),
        (unsigned long long)writer.max_outstanding(), (unsigned long long)writer.new_players(),
        (unsigned long long)writer.outcomes().failed(), writer.outcomes().failed() ? ": " : "",
        writer.outcomes().first_error().c_str());
    std::printf("writer latency (queued -> committed) ms: p50 %.3f, p90 %.3f, p99 %.3f, max %.3f\n",
                l.percentile_ms(0.50), l.percentile_ms(0.90), l.percentile_ms(0.99), l.max_ms());
    // The store's side: how the writer thread grouped and committed them.
    const storage::WriterMetrics m = db.metrics();
    const auto batches = m.batches_committed - metrics_before.batches_committed;
    std::printf(
        "store writer: %llu batches, %.1f ops per batch (max %llu), commit %.3f ms avg, %llu "
        "checkpoints\n",
        (unsigned long long)batches,
        batches ? static_cast<double>(m.ops_committed - metrics_before.ops_committed) /
                      static_cast<double>(batches)
                : 0.0,
        (unsigned long long)m.max_batch_size,
        batches ? static_cast<double>(m.total_commit_latency_ns -
                                      metrics_before.total_commit_latency_ns) /
                      1e6 / static_cast<double>(batches)
                : 0.0,
        (unsigned long long)(m.checkpoints - metrics_before.checkpoints));
  } else {
    std::printf("writer: none (--writers-rate 0)\n");
  }
  std::printf("board: %lld entries before the measurement, %lld after\n", (long long)total_before,
              (long long)db.leaderboard(kBoard, 0, 0).total);
  db.close();
  print_footprint(o.db);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return tilecrush::bench::tool_main(
      "leaderboard_bench", argc, argv, parse, usage, [](const Options& options) {
        if (const auto problem = check_db(options.db)) {
          std::fprintf(stderr, "leaderboard_bench: %s\n", problem->c_str());
          return 2;
        }
        return run(options);
      });
}
