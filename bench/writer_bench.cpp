// The storage writer's own CPU per move, without a server or a network
// (docs/capacity.md, "The writer's CPU per move"): `--games` live games
// take turns, `--batch` moves are queued before the writer is waited for
// (the batch a closed loop of that many players gives the writer), and a
// game that reaches `--moves` moves ends with its last move
// (append_final_move, a ranked finish on one shared board) and a new game
// takes its place, as players of a closed loop do.
//
// Prints the writer thread's CPU (its schedstat: nanoseconds on a CPU, not
// wall time, so the machine's load changes it less) per stored move, and
// with --pg-pid (the postmaster's pid) the CPU of every process of that
// PostgreSQL cluster per move: of those alive at both ends of the window
// (an autovacuum worker that starts and ends inside it is missed).
//
//   writer_bench --db FILE|postgresql://... [--games 400] [--batch 32]
//                [--moves 60] [--seconds 5] [--pg-pid PID]
//
// A fresh SQLite file, or a database the bench may fill (its players and
// games are named after the bench's start time, so runs do not collide).
#include <dirent.h>
#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tilecrush/storage/database.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace {

using namespace tilecrush;
using Clock = std::chrono::steady_clock;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Nanoseconds the thread named `name` of this process has run.
long long thread_cpu_ns(const std::string& name) {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  long long ns = -1;
  while (const dirent* e = readdir(dir)) {
    const std::string task = std::string("/proc/self/task/") + e->d_name;
    std::string comm = read_file(task + "/comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    if (comm != name) continue;
    ns = std::atoll(read_file(task + "/schedstat").c_str());
    break;
  }
  closedir(dir);
  return ns;
}

// Clock ticks (utime + stime) of `pid` and of its children.
long long cluster_ticks(long pid) {
  long long ticks = 0;
  DIR* dir = opendir("/proc");
  if (dir == nullptr) return -1;
  while (const dirent* e = readdir(dir)) {
    const long p = std::atol(e->d_name);
    if (p <= 0) continue;
    const std::string stat = read_file("/proc/" + std::string(e->d_name) + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    std::vector<std::string> f;
    while (rest >> field) f.push_back(field);
    if (f.size() < 13) continue;
    const long parent = std::atol(f[1].c_str());
    if (p != pid && parent != pid) continue;
    ticks += std::atoll(f[11].c_str()) + std::atoll(f[12].c_str());
  }
  closedir(dir);
  return ticks;
}

struct Args {
  std::string db;
  int games = 400;
  int batch = 32;
  int moves = 60;
  double seconds = 5;
  long pg_pid = 0;
};

storage::GameRecord new_game(const std::string& id, storage::PlayerId player) {
  storage::GameRecord g;
  g.id = id;
  g.player_id = player;
  g.setup.mode = game::Mode::same;
  g.setup.preset = "classic";
  g.setup.seed = "writer-bench";
  g.setup.width = 15;
  g.setup.height = 10;
  g.setup.colors = 4;
  game::Board board(15, 10);
  for (std::size_t i = 0; i < board.cells().size(); ++i) {
    board.cells()[i] = static_cast<std::uint8_t>(1 + i % 4);
  }
  g.setup.board = board;
  g.ranked = true;
  g.created_at = 1000;
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  // As the server does (server/src/main.cpp): without it glibc hands the
  // 64-85 KiB that SQLite takes for a savepoint's journal and for a CHECK's
  // list back to the kernel after each game's end and start, and this
  // bench would count 1-1.5 µs a move that the server does not spend.
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
  mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--db")
      a.db = v;
    else if (k == "--games")
      a.games = std::atoi(v);
    else if (k == "--batch")
      a.batch = std::atoi(v);
    else if (k == "--moves")
      a.moves = std::atoi(v);
    else if (k == "--seconds")
      a.seconds = std::atof(v);
    else if (k == "--pg-pid")
      a.pg_pid = std::atol(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (a.db.empty() || a.games < 1 || a.batch < 1 || a.moves < 2) {
    std::fprintf(stderr,
                 "usage: writer_bench --db FILE|URL [--games N] [--batch N] "
                 "[--moves N] [--seconds S] [--pg-pid PID]\n");
    return 2;
  }
  storage::Options options;
  options.path = a.db;
  storage::Database db(options);
  const std::string run = std::to_string(std::chrono::system_clock::now().time_since_epoch() /
                                         std::chrono::milliseconds(1));
  storage::PlayerId player = 0;
  db.create_player({"bench-" + run, storage::hash_token("t" + run), 1},
                   [&](const storage::WriteResult& r) { player = r.id; });
  db.flush();
  if (player == 0) {
    std::fprintf(stderr, "cannot create the player\n");
    return 1;
  }
  struct Live {
    std::string id;
    int moves = 0;
  };
  std::vector<Live> live(static_cast<std::size_t>(a.games));
  long next_id = 0;
  const auto start_game = [&](Live& g) {
    g.id = "wb-" + run + "-" + std::to_string(next_id++);
    g.moves = 0;
    db.create_game(new_game(g.id, player));
  };
  for (Live& g : live) start_game(g);
  db.flush();

  long long failed = 0;
  const auto count = [&failed](const storage::WriteResult& r) {
    if (!r.ok()) ++failed;  // the writer thread only
  };
  long long moves = 0;
  long long finishes = 0;
  std::size_t turn = 0;
  const auto play = [&](double seconds) {
    const auto until = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < until) {
      for (int b = 0; b < a.batch; ++b) {
        Live& g = live[turn++ % live.size()];
        const game::Move move{game::MoveKind::click, {g.moves % 15, g.moves % 10}, {}};
        const std::int64_t seq = g.moves;
        ++g.moves;
        ++moves;
        if (g.moves < a.moves) {
          db.append_move(g.id, seq, move, g.moves * 10, g.moves, {}, g.moves * 700, count);
          continue;
        }
        db.append_final_move(
            move, {}, g.moves * 700,
            {g.id, g.moves * 10, g.moves, game::OverReason::no_moves, 2000, g.moves * 700, true},
            count);
        ++finishes;
        start_game(g);
      }
      db.flush();
    }
  };
  play(1.0);  // warm up: caches, the games' rows grown a little
  const long long moves0 = moves;
  const long long finishes0 = finishes;
  const long long writer0 = thread_cpu_ns("tc-writer");
  const long long pg0 = a.pg_pid ? cluster_ticks(a.pg_pid) : 0;
  const auto wall0 = Clock::now();
  play(a.seconds);
  const double wall = std::chrono::duration<double>(Clock::now() - wall0).count();
  const long long writer = thread_cpu_ns("tc-writer") - writer0;
  const long long pg = a.pg_pid ? cluster_ticks(a.pg_pid) - pg0 : 0;
  const double n = static_cast<double>(moves - moves0);
  const storage::WriterMetrics m = db.metrics();
  std::printf(
      "%s games=%d batch=%d moves/game=%d: %.0f moves in %.1f s (%.0f/s), %lld ends, "
      "writer CPU %.2f us/move",
      db.settings().backend.c_str(), a.games, a.batch, a.moves, n, wall, n / wall,
      finishes - finishes0, static_cast<double>(writer) / 1e3 / n);
  if (a.pg_pid) {
    std::printf(", PostgreSQL CPU %.1f us/move",
                static_cast<double>(pg) * 1e6 / static_cast<double>(sysconf(_SC_CLK_TCK)) / n);
  }
  std::printf(", %llu commits in all, %lld failed\n",
              static_cast<unsigned long long>(m.batches_committed), failed);
  return failed == 0 ? 0 : 1;
}
