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
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
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

#include "latency_histogram.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/storage/database.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace {

namespace storage = tilecrush::storage;
namespace game = tilecrush::game;
using Clock = std::chrono::steady_clock;
using storage::BoardKey;
using storage::Database;
using storage::PlayerId;
using storage::WriteResult;

// The casual board (scope "") of a preset: the one the HTTP endpoint reads
// with rules_version 2 (its default). leaderboard_http.sh uses the same.
const BoardKey kBoard{game::Mode::same, "classic", "bench", ""};

constexpr std::int64_t kPageSize = 20;
constexpr std::int64_t kRadius = 5;
constexpr std::size_t kMaxSamples = 1'000'000;
// Writes in flight during the fill: enough to keep the writer's batches full
// (Options::max_batch is 1024), few enough to bound the queue's memory.
constexpr std::ptrdiff_t kFillWindow = 16384;
// 2026-01-01T00:00:00Z: the fill's finish times count from there.
constexpr std::int64_t kFillEpochMs = 1'767'225'600'000;

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
  auto number = [](const std::string& text, double min, double& out) {
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && out >= min;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--help" || k == "-h") {
      usage(stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) return false;
    const std::string v = argv[++i];
    double x = 0;
    if (k == "--db") {
      o.db = v;
    } else if (k == "--entries" && number(v, 1, x)) {
      o.entries = static_cast<std::int64_t>(x);
    } else if (k == "--seconds" && number(v, 0.001, x)) {
      o.seconds = x;
    } else if (k == "--writers-rate" && number(v, 0, x)) {
      o.writers_rate = x;
    } else {
      return false;
    }
  }
  return !o.db.empty();
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Names and game ids carry this, so runs on one file never collide.
std::string run_id() {
  std::string id;
  for (auto t = static_cast<std::uint64_t>(now_ms()); t > 0; t /= 36) {
    id.insert(id.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[t % 36]);
  }
  return id;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A finished game's figures. Scores come from 4,000 values, skewed low as
// real boards are, and move counts from 60, so most entries tie on score
// and many on both: the order then rests on the later keys too.
struct Result {
  std::int64_t score = 0;
  std::int64_t moves = 0;
  std::int64_t duration_ms = 0;
};

Result result_from(std::uint64_t h) {
  const double u = static_cast<double>(h % 1'000'000) / 1'000'000.0;
  Result r;
  r.score = 100 + static_cast<std::int64_t>(3999.0 * u * u);
  r.moves = 20 + static_cast<std::int64_t>((h >> 20) % 60);
  r.duration_ms = 30'000 + static_cast<std::int64_t>((h >> 32) % 600) * 1000;
  return r;
}

// Ranked casual games carry their board's key (rules version 2), as the
// server's do: the board's row must exist. A fixed key, since nobody plays
// these boards.
game::BoardSecret ensure_board(Database& db) {
  if (auto stored = db.find_board(kBoard)) return stored->key;
  storage::BoardRecord record;
  record.scope = kBoard.scope;
  record.mode = kBoard.mode;
  record.preset = kBoard.preset;
  record.seed = kBoard.seed;
  const game::Digest digest = game::sha256("tilecrush leaderboard_bench board key");
  std::copy(digest.begin(), digest.end(), record.key.begin());
  record.commitment = game::commitment(record.key);
  record.created_at = now_ms();
  db.create_board(record);
  db.flush();
  // Another process may have created it meanwhile: the stored key wins.
  if (auto stored = db.find_board(kBoard)) return stored->key;
  throw std::runtime_error("cannot create the benchmark's board row");
}

storage::GameRecord ranked_game(std::string id, PlayerId player, const game::BoardSecret& key,
                                std::int64_t created_at) {
  storage::GameRecord g;
  g.id = std::move(id);
  g.player_id = player;
  g.setup.mode = kBoard.mode;
  g.setup.preset = kBoard.preset;
  g.setup.seed = kBoard.seed;
  g.setup.board_key = key;
  g.ranked = true;
  g.created_at = created_at;
  return g;
}

storage::GameResult game_result(std::string id, const Result& r, std::int64_t finished_at) {
  storage::GameResult result;
  result.game_id = std::move(id);
  result.score = r.score;
  result.move_count = r.moves;
  result.over_reason = game::OverReason::no_moves;
  result.finished_at = finished_at;
  result.duration_ms = r.duration_ms;
  return result;
}

// Counts the outcomes of queued writes and keeps the first refusal's text.
class Outcomes {
 public:
  void count(const WriteResult& r) {
    if (r.ok()) {
      ok_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    failed_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    if (first_error_.empty()) {
      first_error_ = std::string(storage::to_string(r.status)) + ": " + r.message;
    }
  }
  std::uint64_t ok() const { return ok_.load(); }
  std::uint64_t failed() const { return failed_.load(); }
  std::string first_error() const {
    std::lock_guard lock(mutex_);
    return first_error_;
  }

 private:
  std::atomic<std::uint64_t> ok_{0};
  std::atomic<std::uint64_t> failed_{0};
  mutable std::mutex mutex_;
  std::string first_error_;
};

// Adds `count` entries: all players first (their ids are needed by their
// games), then each one's game, created and finished. A window of writes in
// flight keeps the writer thread busy without queueing millions at once.
bool fill(Database& db, const game::BoardSecret& key, std::int64_t count, const std::string& run) {
  std::counting_semaphore<kFillWindow> window(kFillWindow);
  // One token hash for all: nobody logs in as these players, and hashing a
  // million tokens would only slow the fill.
  const std::string token_hash = storage::hash_token("leaderboard_bench");
  const auto step = std::max<std::int64_t>(1, count / 10);

  const auto start = Clock::now();
  std::vector<PlayerId> ids(static_cast<std::size_t>(count), 0);
  Outcomes players;
  for (std::int64_t i = 0; i < count; ++i) {
    window.acquire();
    db.create_player("lb" + run + "-" + std::to_string(i), token_hash, kFillEpochMs,
                     [&, i](const WriteResult& r) {
                       ids[static_cast<std::size_t>(i)] = r.id;
                       players.count(r);
                       window.release();
                     });
    if ((i + 1) % step == 0) std::fprintf(stderr, "  players: %lld\n", (long long)(i + 1));
  }
  db.flush();
  const double players_s = seconds_since(start);
  if (players.failed() > 0) {
    std::printf("fill: %llu of %lld players refused (%s)\n", (unsigned long long)players.failed(),
                (long long)count, players.first_error().c_str());
    return false;
  }

  const auto games_start = Clock::now();
  Outcomes games;
  auto done = [&](const WriteResult& r) {
    games.count(r);
    window.release();
  };
  for (std::int64_t i = 0; i < count; ++i) {
    const std::uint64_t h = splitmix64(static_cast<std::uint64_t>(i));
    const Result r = result_from(h);
    // 64 entries share each finish time: ties down to the player id.
    const std::int64_t finished_at = kFillEpochMs + (i / 64) * 1000;
    std::string id = "f" + run + "-" + std::to_string(i);
    window.acquire();
    db.create_game(
        ranked_game(id, ids[static_cast<std::size_t>(i)], key, finished_at - r.duration_ms), done);
    window.acquire();
    db.finish_game(game_result(std::move(id), r, finished_at), done);
    if ((i + 1) % step == 0) std::fprintf(stderr, "  games: %lld\n", (long long)(i + 1));
  }
  db.flush();
  const double games_s = seconds_since(games_start);
  const double total_s = seconds_since(start);
  if (games.failed() > 0) {
    std::printf("fill: %llu of %lld game writes refused (%s)\n", (unsigned long long)games.failed(),
                (long long)(2 * count), games.first_error().c_str());
    return false;
  }
  std::printf(
      "fill: %lld entries in %.1f s = %.0f entries/s (players %.1f s = %.0f/s; games created "
      "and finished %.1f s = %.0f/s)\n",
      (long long)count, total_s, static_cast<double>(count) / total_s, players_s,
      static_cast<double>(count) / players_s, games_s, static_cast<double>(count) / games_s);
  return true;
}

struct Sampled {
  PlayerId id = 0;
  std::string name;
  std::int64_t score = 0;
};

// Players on the board, read in slices at random offsets so their ranks
// spread over the whole board (a player's rank is what around-me's cost
// depends on).
std::vector<Sampled> sample_players(Database& db, std::int64_t total, std::mt19937_64& rng) {
  constexpr std::int64_t kSlices = 64;
  constexpr std::int64_t kPerSlice = 256;
  std::vector<Sampled> out;
  std::uniform_int_distribution<std::int64_t> offset(0,
                                                     std::max<std::int64_t>(0, total - kPerSlice));
  for (std::int64_t s = 0; s < kSlices; ++s) {
    for (const auto& e : db.leaderboard(kBoard, kPerSlice, offset(rng)).entries) {
      out.push_back({e.player_id, e.player, e.score});
    }
  }
  return out;
}

// Records finished games on the board at a steady rate on a thread of its
// own: a quarter by new players, the rest improvements of sampled entries.
class BackgroundWriter {
 public:
  BackgroundWriter(Database& db, game::BoardSecret key, std::vector<Sampled> pool, double rate,
                   std::string run)
      : db_(db), key_(key), pool_(std::move(pool)), rate_(rate), run_(std::move(run)) {}
  ~BackgroundWriter() { stop(); }

  void start() {
    if (rate_ <= 0) return;
    started_ = Clock::now();
    thread_ = std::thread([this] { run(); });
  }

  // Stops issuing, then waits for what is in flight.
  void stop() {
    if (!thread_.joinable()) return;
    stop_.store(true);
    thread_.join();
    ran_s_ = seconds_since(started_);
    finished_by_stop_ = outcomes_.ok();
    db_.flush();
  }

  double rate() const { return rate_; }
  double ran_s() const { return ran_s_; }
  std::uint64_t finished_by_stop() const { return finished_by_stop_; }
  const Outcomes& outcomes() const { return outcomes_; }
  const tilecrush::bench::LatencyHistogram& latency() const { return latency_; }
  std::uint64_t new_players() const { return new_players_; }
  // Beyond a second's worth of games in flight the store cannot keep up:
  // issuing more would only grow its queue; the achieved rate says so.
  std::uint64_t max_outstanding() const {
    return static_cast<std::uint64_t>(std::max(1000.0, rate_));
  }

 private:
  struct Ready {
    PlayerId id;
    Clock::time_point issued;  // when its create_player was queued
  };

  void run() {
    std::mt19937_64 rng(7);
    const std::string token_hash = storage::hash_token("leaderboard_bench");
    const std::uint64_t max_outstanding = this->max_outstanding();
    std::uint64_t issued = 0;
    std::uint64_t k = 0;
    while (!stop_.load()) {
      std::deque<Ready> ready;
      {
        std::lock_guard lock(ready_mutex_);
        ready.swap(ready_);
      }
      for (auto& p : ready) issue_game(p.id, result_from(rng()), p.issued);

      const auto due = static_cast<std::uint64_t>(seconds_since(started_) * rate_);
      while (issued < due && issued - completed_.load() < max_outstanding) {
        ++issued;
        const auto now = Clock::now();
        if (issued % 4 == 0 || pool_.empty()) {
          ++new_players_;
          std::string name = "w" + run_ + "-" + std::to_string(++k);
          db_.create_player(name, token_hash, now_ms(), [this, now](const WriteResult& r) {
            if (!r.ok()) {
              outcomes_.count(r);
              completed_.fetch_add(1);
              return;
            }
            std::lock_guard lock(ready_mutex_);
            ready_.push_back({r.id, now});
          });
        } else {
          Sampled& s = pool_[rng() % pool_.size()];
          Result r = result_from(rng());
          s.score += 1 + static_cast<std::int64_t>(rng() % 20);
          r.score = s.score;
          issue_game(s.id, r, now);
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  void issue_game(PlayerId player, const Result& r, Clock::time_point issued) {
    std::string id = "w" + run_ + "-g" + std::to_string(++games_);
    const std::int64_t finished_at = now_ms();
    db_.create_game(ranked_game(id, player, key_, finished_at - r.duration_ms),
                    [this](const WriteResult& w) {
                      if (!w.ok()) outcomes_.count(w);
                    });
    db_.finish_game(game_result(std::move(id), r, finished_at), [this,
                                                                 issued](const WriteResult& w) {
      latency_.record(static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - issued).count()));
      outcomes_.count(w);
      completed_.fetch_add(1);
    });
  }

  Database& db_;
  const game::BoardSecret key_;
  std::vector<Sampled> pool_;
  const double rate_;
  const std::string run_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  Clock::time_point started_;
  double ran_s_ = 0;
  std::uint64_t finished_by_stop_ = 0;
  std::uint64_t new_players_ = 0;
  std::uint64_t games_ = 0;
  std::atomic<std::uint64_t> completed_{0};
  Outcomes outcomes_;
  tilecrush::bench::LatencyHistogram latency_;
  std::mutex ready_mutex_;
  std::deque<Ready> ready_;
};

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
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(o.db, ec);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  // The machine's load says whether other work shared the cores meanwhile.
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) load[0] = -1;
  std::printf("db file: %.1f MiB; peak RSS: %.1f MiB; load average (1 min): %.2f\n",
              ec ? 0.0 : static_cast<double>(bytes) / (1024.0 * 1024.0),
              static_cast<double>(usage.ru_maxrss) / 1024.0, load[0]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Each line as it comes, also through a pipe (tee): a fill takes minutes.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options options;
  if (!parse(argc, argv, options)) {
    usage(stderr);
    return 2;
  }
  if (const auto problem = check_db(options.db)) {
    std::fprintf(stderr, "leaderboard_bench: %s\n", problem->c_str());
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "leaderboard_bench: %s\n", e.what());
    return 1;
  }
}
