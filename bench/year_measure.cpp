// The year benchmark's measurement over HTTP: see year_measure.hpp.
#include "year_measure.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "http_client.hpp"
#include "latency_histogram.hpp"
#include "ops/clock.hpp"
#include "percent_encode.hpp"
#include "play/competitions.hpp"
#include "year_fill.hpp"

namespace year_bench {
namespace {

using json = nlohmann::json;
using tilecrush::bench::HttpClient;
using tilecrush::bench::LatencyHistogram;
using Clock = std::chrono::steady_clock;
namespace server = tilecrush::server;

constexpr std::int64_t kDayMs = 86'400'000;
constexpr int kPage = 20;
constexpr int kRadius = 5;
// Pages followed at most to reach the deep end of a list (20 a page).
constexpr std::size_t kMaxWalk = 2000;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string encode(std::string_view text) {
  return tilecrush::testing::percent_encode(text, ".~");
}

bool not_built(const HttpClient::Response& r) {
  return r.status == 404 && r.body.find("no such API path") != std::string::npos;
}

json parse(const std::string& body) {
  return json::parse(body, nullptr, /*allow_exceptions=*/false);
}

// The next page of a cursor-paged list (`next`): a path to follow as it is,
// or a cursor value for `before=` on the first page's target; nullopt at
// the end of the list.
std::optional<std::string> next_target(const std::string& first, const json& body) {
  if (!body.is_object() || !body.contains("next")) return std::nullopt;
  json cursor = body["next"];
  if (cursor.is_object() && cursor.contains("before")) cursor = cursor["before"];
  std::string value;
  if (cursor.is_string()) {
    value = cursor.get<std::string>();
    if (!value.empty() && value.front() == '/') return value;
  } else if (cursor.is_number_integer()) {
    value = std::to_string(cursor.get<std::int64_t>());
  }
  if (value.empty()) return std::nullopt;
  return first + (first.find('?') == std::string::npos ? "?" : "&") + "before=" + encode(value);
}

// The ISO week ("2026-W48") of a UTC day number.
std::string iso_week(std::int64_t day) {
  using namespace std::chrono;
  const sys_days d{days(day)};
  const auto monday_based = static_cast<int>(weekday(d).iso_encoding());  // 1 Monday .. 7
  const sys_days thursday = d + days(4 - monday_based);
  const year y = year_month_day(thursday).year();
  const int week = static_cast<int>((thursday - sys_days(y / January / 1)).count() / 7 + 1);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-W%02d", static_cast<int>(y), week);
  return text;
}

// The last day of the month before the one of `day` (UTC day numbers).
std::int64_t last_month_day(std::int64_t day) {
  using namespace std::chrono;
  const year_month_day ymd{sys_days{days(day)}};
  return sys_days(ymd.year() / ymd.month() / 1).time_since_epoch().count() - 1;
}

struct Row {
  std::string label;
  bool built = true;
  LatencyHistogram latency;
  std::uint64_t errors = 0;
  std::string first_error;
};

class Bench {
 public:
  Bench(HttpClient& client, const MeasureOptions& o) : client_(client), o_(o) {}

  // Requests next() one at a time, expecting `status` (with If-None-Match
  // `etag` when given).
  void row(std::string label, const std::function<std::string()>& next, int status = 200,
           const std::string& etag = {}) {
    auto& r = add(std::move(label));
    const auto first = client_.get(next(), etag);
    if (not_built(first)) {
      r.built = false;
      return;
    }
    const auto warm = Clock::now();
    while (seconds_since(warm) < o_.warmup_s) client_.get(next(), etag);
    const auto start = Clock::now();
    std::int64_t n = 0;
    while (seconds_since(start) < o_.seconds && n < o_.max_samples) {
      const std::string target = next();
      const auto t0 = Clock::now();
      const auto answer = client_.get(target, etag);
      r.latency.record(static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0).count()));
      ++n;
      if (answer.status != status) fail(r, target, answer);
    }
  }

  // A row whose targets could not be found: not built, or an error.
  void unavailable(std::string label, bool built, const std::string& target,
                   const HttpClient::Response& answer) {
    auto& r = add(std::move(label));
    r.built = built;
    if (built) fail(r, target, answer);
  }

  int print() const {
    std::printf("%-52s %7s %8s %8s %8s %8s %6s\n", "row", "count", "p50 ms", "p90 ms", "p99 ms",
                "max ms", "errors");
    int measured = 0;
    int missing = 0;
    int over = 0;
    std::uint64_t errors = 0;
    for (const auto& row : rows_) {
      const Row& r = *row;
      if (!r.built) {
        ++missing;
        std::printf("%-52s %7s\n", r.label.c_str(), "not built");
        continue;
      }
      const double p99 = r.latency.percentile_ms(0.99);
      const bool slow = r.latency.count() > 0 && p99 > o_.goal_ms;
      ++measured;
      over += slow ? 1 : 0;
      errors += r.errors;
      std::printf("%-52s %7llu %8.3f %8.3f %8.3f %8.3f %6llu%s\n", r.label.c_str(),
                  (unsigned long long)r.latency.count(), r.latency.percentile_ms(0.50),
                  r.latency.percentile_ms(0.90), p99, r.latency.max_ms(),
                  (unsigned long long)r.errors, slow ? "  p99 over the goal" : "");
    }
    std::printf("\n%d rows measured, %d not built; %d with p99 over %.0f ms; %llu errors\n",
                measured, missing, over, o_.goal_ms, (unsigned long long)errors);
    for (const auto& row : rows_) {
      const Row& r = *row;
      if (!r.first_error.empty()) {
        std::printf("  %s: %s\n", r.label.c_str(), r.first_error.c_str());
      }
    }
    return errors > 0 ? 1 : 0;
  }

 private:
  Row& add(std::string label) {
    rows_.push_back(std::make_unique<Row>());
    rows_.back()->label = std::move(label);
    return *rows_.back();
  }

  static void fail(Row& r, const std::string& target, const HttpClient::Response& answer) {
    ++r.errors;
    if (r.first_error.empty()) {
      r.first_error = "GET " + target + " answered " + std::to_string(answer.status) + ": " +
                      answer.body.substr(0, 200);
    }
  }

  HttpClient& client_;
  const MeasureOptions& o_;
  std::vector<std::unique_ptr<Row>> rows_;
};

// Follows `next` from `first`: every page's target, the first included.
// Empty when the first page is not built; `answer` is the first failure.
struct Walk {
  std::vector<std::string> pages;
  bool built = true;
  HttpClient::Response failure;
};

Walk walk(HttpClient& client, const std::string& first) {
  Walk w;
  std::optional<std::string> target = first;
  while (target && w.pages.size() < kMaxWalk) {
    const auto answer = client.get(*target);
    if (answer.status != 200) {
      w.built = !not_built(answer);
      w.failure = answer;
      if (w.pages.empty()) return w;
      break;
    }
    w.pages.push_back(*target);
    target = next_target(first, parse(answer.body));
  }
  return w;
}

// Rows over a cursor-paged list: its first page and its deepest one.
void paged_rows(Bench& bench, HttpClient& client, const std::string& what,
                const std::string& first) {
  const Walk w = walk(client, first);
  if (w.pages.empty()) {
    bench.unavailable(what + ": first page of 20", w.built, first, w.failure);
    bench.unavailable(what + ": deepest page", w.built, first, w.failure);
    return;
  }
  bench.row(what + ": first page of 20", [&] { return first; });
  const std::string deep = w.pages.back();
  bench.row(what + ": deepest page (" + std::to_string(w.pages.size()) + " pages in)",
            [&] { return deep; });
}

}  // namespace

int measure(const MeasureOptions& o) {
  const std::int64_t today = (o.today_start != 0 ? o.today_start : today_start_utc()) / kDayMs;
  const std::int64_t first_day = today - o.days;
  // The closed board: yesterday's Same Game classic daily, the one most
  // read once closed (the home page's Yesterday card links to it).
  const std::string board_date = server::utc_date((today - 1) * kDayMs);
  // The month shown: the middle of the year's.
  const std::string middle_date = server::utc_date((today - (o.days + 1) / 2) * kDayMs);
  // The last whole week, and the last whole month, within the filled days.
  const std::string week = iso_week(std::max(first_day, today - 7));
  const std::string month =
      server::utc_date(std::max(first_day, last_month_day(today)) * kDayMs).substr(0, 7);
  const std::string calendar_month = middle_date.substr(0, 7);
  const std::string name = encode(o.player);

  std::unique_ptr<HttpClient> client_holder;
  try {
    client_holder = std::make_unique<HttpClient>(o.host, o.port);
    const auto health = client_holder->get("/api/health");
    if (health.status != 200) {
      std::fprintf(stderr, "year_bench: /api/health answered %d\n", health.status);
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "year_bench: %s\n", e.what());
    return 2;
  }
  HttpClient& client = *client_holder;
  Bench bench(client, o);
  std::mt19937_64 rng(1);

  try {
    std::printf(
        "measuring http://%s:%s, one request at a time on one connection: %.1f s per row "
        "(at most %lld requests) after %.1f s of warm-up\n",
        o.host.c_str(), o.port.c_str(), o.seconds, (long long)o.max_samples, o.warmup_s);
    std::printf("player %s; closed board of %s; calendar %s; seasons %s and %s\n\n",
                o.player.c_str(), board_date.c_str(), calendar_month.c_str(), week.c_str(),
                month.c_str());

    // ---- The archive ----
    paged_rows(bench, client, "archive", "/api/archive?limit=" + std::to_string(kPage));

    // ---- A closed board's leaderboard ----
    const std::string board =
        "/api/competitions/" +
        server::Competitions::daily_id(board_date, tilecrush::game::Mode::same, "classic") +
        "/leaderboard";
    const std::string top = board + "?limit=" + std::to_string(kPage) + "&offset=0";
    const auto first = client.get(top);
    const json page = parse(first.body);
    const std::int64_t total = page.is_object() ? page.value("total", std::int64_t{0}) : 0;
    if (first.status != 200 || total == 0) {
      std::fprintf(stderr, "year_bench: GET %s answered %d (total %lld): fill the database first\n",
                   top.c_str(), first.status, (long long)total);
      return 1;
    }
    // Players at random places on the board, for around-me.
    std::vector<std::string> players;
    std::uniform_int_distribution<std::int64_t> offset(0, std::max<std::int64_t>(0, total - 100));
    for (int i = 0; i < 10; ++i) {
      const auto slice =
          parse(client.get(board + "?limit=100&offset=" + std::to_string(offset(rng))).body);
      if (!slice.is_object() || !slice.contains("entries")) continue;
      for (const auto& e : slice["entries"]) players.push_back(e.value("player", std::string()));
    }
    bench.row("closed board: top 20", [&] { return top; });
    std::uniform_int_distribution<std::int64_t> page_offset(
        0, std::max<std::int64_t>(0, total - kPage));
    bench.row("closed board: page of 20 at a random offset", [&] {
      return board + "?limit=" + std::to_string(kPage) +
             "&offset=" + std::to_string(page_offset(rng));
    });
    if (!players.empty()) {
      std::uniform_int_distribution<std::size_t> pick(0, players.size() - 1);
      bench.row("closed board: around a random player (r=5)", [&] {
        return board + "/around?player=" + encode(players[pick(rng)]) +
               "&radius=" + std::to_string(kRadius);
      });
    }
    bench.row(
        "closed board: top 20, If-None-Match (304)", [&] { return top; }, 304, first.etag);

    // ---- The player's history, calendar and profile ----
    const std::string player_path = "/api/players/" + name;
    paged_rows(bench, client, "history", player_path + "/games?limit=" + std::to_string(kPage));
    bench.row("calendar of " + calendar_month,
              [&] { return player_path + "/calendar?month=" + calendar_month; });
    const auto profile = client.get(player_path);
    bench.row("profile with streaks", [&] { return player_path; });
    if (profile.status == 200) {
      const json p = parse(profile.body);
      std::string streaks;
      if (p.is_object() && p.contains("streaks")) {
        for (const auto& s : p["streaks"]) {
          streaks.append(" ").append(s.value("mode", std::string()));
          streaks.append(" ").append(std::to_string(s.value("current", 0)));
          streaks.append("/").append(std::to_string(s.value("best", 0)));
        }
      }
      std::fprintf(stderr, "  %s: games_played %lld, streaks (current/best):%s\n", o.player.c_str(),
                   (long long)(p.is_object() ? p.value("games_played", std::int64_t{0}) : 0),
                   streaks.c_str());
    }

    // ---- A season's standings ----
    for (const std::string& period : {week, month}) {
      const std::string base = "/api/seasons/" + period;
      bench.row("season " + period + ": top 20",
                [&] { return base + "?mode=same&limit=" + std::to_string(kPage) + "&offset=0"; });
      bench.row("season " + period + ": around the player (r=5)", [&] {
        return base + "/around?mode=same&player=" + name + "&radius=" + std::to_string(kRadius);
      });
    }
    bench.row("seasons of now", [&] { return std::string("/api/seasons?mode=same"); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "year_bench: %s\n", e.what());
    bench.print();
    return 2;
  }
  std::printf("\n");
  return bench.print();
}

}  // namespace year_bench
