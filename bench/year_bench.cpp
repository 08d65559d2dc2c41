// year_bench: "Fast at a year of data" (bench/README.md). Two steps, which
// bench/year_bench.sh runs together around a real server:
//
//   year_bench --db PATH|postgresql://URL [--days N] [--entries M]
//              [--players P] [--player NAME]
//     fills the database (YearFill: N days of dailies ending yesterday,
//     M entries on each board, a pool of P players and NAME with a game on
//     every board), or tops it up, or finds it full and says so; then
//     prints the time and rate.
//
//   year_bench --measure [HOST:]PORT [--days N] [--player NAME]
//              [--seconds S] [--samples K] [--warmup W]
//     measures a tilecrush_server running on such a database over HTTP
//     (year_measure.hpp): --days and --player as given to the fill.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_args.hpp"
#include "footprint.hpp"
#include "tilecrush/storage/database.hpp"
#include "year_fill.hpp"
#include "year_measure.hpp"

namespace {

using namespace year_bench;
using tilecrush::bench::number_at_least;
using tilecrush::bench::print_footprint;
using tilecrush::bench::read_pairs;

struct Options {
  std::string db;
  std::string measure;  // [HOST:]PORT
  FillOptions fill;
  MeasureOptions http;
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: year_bench --db PATH|postgresql://URL [--days N] [--entries M] "
               "[--players P] [--player NAME]\n"
               "       year_bench --measure [HOST:]PORT [--days N] [--player NAME] [--seconds S] "
               "[--samples K] [--warmup W]\n"
               "  --db        the database to fill (kept; a full one is reused)\n"
               "  --days N    days of dailies ending yesterday (default 365)\n"
               "  --entries M entries per board, the named player's included (default 1000)\n"
               "  --players P players the fields are drawn from (default 5000, >= M - 1)\n"
               "  --player    the player with a game on every board (default bench-daily)\n"
               "  --measure   a tilecrush_server on such a database (default host 127.0.0.1)\n"
               "  --seconds S per row (default 3); --samples K at most per row (default "
               "100000);\n"
               "  --warmup W  unmeasured seconds before each row (default 0.3)\n");
}

bool parse(int argc, char** argv, Options& o) {
  const auto take = [&o](const std::string& k, const std::string& v) {
    double x = 0;
    if (k == "--db") {
      o.db = v;
    } else if (k == "--measure") {
      o.measure = v;
    } else if (k == "--player" && !v.empty()) {
      o.fill.player = v;
      o.http.player = v;
    } else if (k == "--days" && number_at_least(v, 1, x)) {
      o.fill.days = o.http.days = static_cast<std::int64_t>(x);
    } else if (k == "--entries" && number_at_least(v, 1, x)) {
      o.fill.entries = static_cast<std::int64_t>(x);
    } else if (k == "--players" && number_at_least(v, 1, x)) {
      o.fill.players = static_cast<std::int64_t>(x);
    } else if (k == "--seconds" && number_at_least(v, 0.001, x)) {
      o.http.seconds = x;
    } else if (k == "--samples" && number_at_least(v, 1, x)) {
      o.http.max_samples = static_cast<std::int64_t>(x);
    } else if (k == "--warmup" && number_at_least(v, 0, x)) {
      o.http.warmup_s = x;
    } else {
      return false;
    }
    return true;
  };
  if (!read_pairs(argc, argv, take, usage)) return false;
  if (o.db.empty() == o.measure.empty()) return false;
  if (!o.measure.empty()) {
    const auto colon = o.measure.rfind(':');
    o.http.port = colon == std::string::npos ? o.measure : o.measure.substr(colon + 1);
    if (colon != std::string::npos) o.http.host = o.measure.substr(0, colon);
  }
  return true;
}

int fill(const Options& o) {
  const FillOptions& f = o.fill;
  if (f.players < f.entries - 1) {
    std::fprintf(stderr, "year_bench: --players must be at least --entries - 1\n");
    return 2;
  }
  storage::Options db_options;
  db_options.path = o.db;
  storage::Database db(db_options);
  std::printf(
      "year_bench fill: %s (%s), %lld days of dailies ending yesterday, %lld entries per board, "
      "%lld players, %s on every board\n",
      storage::is_postgres_url(o.db) ? "PostgreSQL" : o.db.c_str(), db.settings().backend.c_str(),
      (long long)f.days, (long long)f.entries, (long long)f.players, f.player.c_str());
  const FillReport r = YearFill(db, f).run();
  if (!r.ok) {
    std::printf("fill: failed: %s\n", r.error.c_str());
    return 1;
  }
  if (r.entries_added == 0) {
    std::printf(
        "fill: skipped, all %lld boards already hold %lld entries and are closed (%.1f s "
        "to check)\n",
        (long long)r.boards, (long long)f.entries, r.total_s);
  } else {
    std::printf(
        "fill: %lld boards (%lld already full), %lld entries added in %.1f s = %.0f entries/s "
        "(dailies %.1f s, players %.1f s, games %.1f s = %.0f entries/s)%s\n",
        (long long)r.boards, (long long)r.boards_skipped, (long long)r.entries_added, r.total_s,
        static_cast<double>(r.entries_added) / r.total_s, r.dailies_s, r.players_s, r.games_s,
        static_cast<double>(r.entries_added) / r.games_s,
        r.writes_found_done > 0 ? "; a resumed fill: some games were there already" : "");
  }
  const storage::WriterMetrics m = db.metrics();
  db.close();
  std::printf("store writer: %llu batches, %.1f ops per batch, commit %.3f ms avg\n",
              (unsigned long long)m.batches_committed,
              m.batches_committed
                  ? static_cast<double>(m.ops_committed) / static_cast<double>(m.batches_committed)
                  : 0.0,
              m.batches_committed ? static_cast<double>(m.total_commit_latency_ns) / 1e6 /
                                        static_cast<double>(m.batches_committed)
                                  : 0.0);
  print_footprint(storage::is_postgres_url(o.db) ? std::string() : o.db);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return tilecrush::bench::tool_main(
      "year_bench", argc, argv, parse, usage, [](const Options& options) {
        return options.measure.empty() ? fill(options) : measure(options.http);
      });
}
