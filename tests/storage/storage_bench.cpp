// Storage throughput figures (not a test): append_move through group commit,
// one-at-a-time commits for comparison, and leaderboard reads. Prints one
// line per scenario. Usage: storage_bench [directory for the temp files]
#include <chrono>
#include <cstdio>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace tilecrush::storage;
namespace ts = tilecrush::storage::testing;
using tilecrush::game::Mode;
using Clock = std::chrono::steady_clock;

const BoardKey kBoard{Mode::same, "normal", "bench", ""};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Options bench_options(const std::string& path, Synchronous sync) {
  Options options;
  options.path = path;
  options.synchronous = sync;
  return options;
}

// `threads` producers each append `per_thread` moves to their own games, then
// one flush: the writer groups whatever is queued. Moves go game after game,
// or, `interleaved`, one move per game in turn, as a server's live games do.
void grouped_appends(const std::string& path, Synchronous sync, int threads, int per_thread,
                     bool print = true, bool interleaved = false) {
  Database db(bench_options(path, sync));
  const PlayerId p = ts::make_player(db, "bench");
  constexpr int kMovesPerGame = 200;
  const int games_per_thread = per_thread / kMovesPerGame;
  for (int t = 0; t < threads; ++t) {
    for (int g = 0; g < games_per_thread; ++g) {
      db.create_game(ts::ranked_game(ts::numbered("g", t * 100000 + g), p, kBoard));
    }
  }
  db.flush();
  const WriterMetrics before = db.metrics();
  const auto start = Clock::now();
  std::vector<std::thread> producers;
  for (int t = 0; t < threads; ++t) {
    producers.emplace_back([&db, t, games_per_thread, interleaved] {
      for (int i = 0; i < games_per_thread * kMovesPerGame; ++i) {
        const int g = interleaved ? i % games_per_thread : i / kMovesPerGame;
        const int m = interleaved ? i / games_per_thread : i % kMovesPerGame;
        const std::string id = ts::numbered("g", t * 100000 + g);
        db.append_move(id, m, ts::click(m % 15, m % 12), m, m + 1, {}, 0);
      }
    });
  }
  for (auto& th : producers) th.join();
  const double enqueue_s = seconds_since(start);
  db.flush();
  const double total_s = seconds_since(start);
  const WriterMetrics after = db.metrics();
  const auto ops = after.ops_committed - before.ops_committed;
  const auto batches = after.batches_committed - before.batches_committed;
  if (!print) return;
  std::printf(
      "append_move %-12s sync=%-6s threads=%d ops=%llu: %.0f ops/s committed, "
      "enqueue %.2f us/op, %llu batches (avg %.0f ops), avg commit %.2f ms\n",
      interleaved ? "interleaved" : "grouped", sync == Synchronous::full ? "FULL" : "NORMAL",
      threads, static_cast<unsigned long long>(ops), static_cast<double>(ops) / total_s,
      enqueue_s * 1e6 / static_cast<double>(ops), static_cast<unsigned long long>(batches),
      static_cast<double>(ops) / static_cast<double>(batches),
      static_cast<double>(after.total_commit_latency_ns - before.total_commit_latency_ns) / 1e6 /
          static_cast<double>(batches));
}

// Each append waits for its commit before the next: one op per transaction.
void serial_appends(const std::string& path, Synchronous sync, int ops) {
  Database db(bench_options(path, sync));
  const PlayerId p = ts::make_player(db, "bench");
  db.create_game(ts::ranked_game("serial", p, kBoard));
  db.flush();
  const auto start = Clock::now();
  for (int m = 0; m < ops; ++m) {
    ts::wait_for([&](WriteCallback cb) {
      db.append_move("serial", m, ts::click(1, 1), m, m + 1, {}, 0, std::move(cb));
    });
  }
  const double s = seconds_since(start);
  std::printf("append_move serial   sync=%-6s ops=%d: %.0f ops/s (%.1f us per commit)\n",
              sync == Synchronous::full ? "FULL" : "NORMAL", ops, ops / s, s * 1e6 / ops);
}

void leaderboard_reads(const std::string& path, int players, int reads) {
  Database db(bench_options(path, Synchronous::normal));
  for (int i = 0; i < players; ++i) {
    const std::string name = ts::numbered("p", i);
    db.create_player({name, "h", i});
  }
  db.flush();
  for (int i = 0; i < players; ++i) {
    const auto p = db.find_player_by_name(ts::numbered("p", i));
    const std::string id = ts::numbered("lb", i);
    db.create_game(ts::ranked_game(id, p->id, kBoard));
    db.finish_game({id, (i * 7919) % 5000, 30 + i % 50, tilecrush::game::OverReason::no_moves,
                    1000 + i, 60000});
  }
  db.flush();
  auto start = Clock::now();
  for (int r = 0; r < reads; ++r) db.leaderboard(kBoard, 20, (r * 37) % (players - 20));
  double s = seconds_since(start);
  std::printf("leaderboard page     entries=%d limit=20: %.0f reads/s (%.1f us)\n", players,
              reads / s, s * 1e6 / reads);
  start = Clock::now();
  for (int r = 0; r < reads; ++r) {
    db.leaderboard_around(kBoard, ts::numbered("p", (r * 131) % players), 5);
  }
  s = seconds_since(start);
  std::printf("leaderboard around   entries=%d radius=5: %.0f reads/s (%.1f us)\n", players,
              reads / s, s * 1e6 / reads);
}

}  // namespace

int main(int argc, char** argv) {
  ts::TempDir dir;
  const std::string base = argc > 1 ? std::string(argv[1]) + "/bench" : dir.file("bench");
  int n = 0;
  const auto next = [&] { return ts::numbered(base, ++n) + ".db"; };
  grouped_appends(next(), Synchronous::normal, 1, 20000, false);  // warm up the allocator
  grouped_appends(next(), Synchronous::normal, 1, 100000);
  grouped_appends(next(), Synchronous::normal, 4, 25000);
  grouped_appends(next(), Synchronous::full, 1, 100000);
  // 500 live games taking turns, 200 moves each.
  grouped_appends(next(), Synchronous::normal, 1, 100000, true, true);
  serial_appends(next(), Synchronous::normal, 2000);
  serial_appends(next(), Synchronous::full, 500);
  leaderboard_reads(next(), 10000, 2000);
  return 0;
}
