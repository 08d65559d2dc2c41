// The year benchmark's database: see year_fill.hpp.
#include "year_fill.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <optional>
#include <semaphore>
#include <stdexcept>

#include "leaderboard_board.hpp"
#include "ops/clock.hpp"
#include "play/board_keys.hpp"
#include "play/competitions.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace year_bench {
namespace {

namespace game = tilecrush::game;
namespace server = tilecrush::server;
using leaderboard_bench::Clock;
using leaderboard_bench::Outcomes;
using leaderboard_bench::seconds_since;
using leaderboard_bench::splitmix64;

constexpr std::int64_t kDayMs = 86'400'000;
// Writes in flight: as leaderboard_bench's fill (the writer's batches stay
// full, the queue's memory bounded).
constexpr std::ptrdiff_t kWindow = 16384;

// Counts a write's outcome. A fill resumed after a stop finds some of its
// games there already (conflict: the id exists, its attempt is used, or it
// is over): counted apart, not as refusals.
struct Counted {
  Outcomes& outcomes;
  std::atomic<std::uint64_t>& found;
  void operator()(const storage::WriteResult& r) const {
    if (r.status == storage::WriteStatus::conflict) {
      found.fetch_add(1, std::memory_order_relaxed);
    } else {
      outcomes.count(r);
    }
  }
};

std::string hex16(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kDigits[v & 15];
  return out;
}

std::uint64_t entry_key(std::int64_t day, std::int64_t board, std::int64_t entry) {
  return ((static_cast<std::uint64_t>(day) * 64 + static_cast<std::uint64_t>(board)) << 32) ^
         static_cast<std::uint64_t>(entry);
}

}  // namespace

std::int64_t today_start_utc() {
  return server::Competitions::day_start(server::now_ms());
}

std::string YearFill::pool_name(std::int64_t i) {
  return "year-" + std::to_string(i);
}

std::string YearFill::game_id(std::int64_t day, std::int64_t board, std::int64_t entry) {
  return hex16(splitmix64(entry_key(day, board, entry) ^ 0x5965617242656e63ULL));
}

YearFill::YearFill(storage::Database& db, FillOptions options) : db_(db), o_(std::move(options)) {
  if (o_.today_start == 0) o_.today_start = today_start_utc();
}

FillReport YearFill::run() {
  FillReport report;
  if (o_.days < 1 || o_.entries < 1 || o_.players < o_.entries - 1) {
    report.error = "needs days >= 1, entries >= 1 and players >= entries - 1";
    return report;
  }
  const auto start = Clock::now();
  report.ok = make_dailies(report) && make_players(report) && fill_games(report);
  report.total_s = seconds_since(start);
  return report;
}

// The server's own daily-making: Competitions::ensure_dailies(t) creates
// the dailies of the day of t and of the next day where missing, with keys
// from the system's random source, exactly as the running server does each
// day. Its clock is the fill's: a day's boards are created at the start of
// the day before, as a server running then would have.
bool YearFill::make_dailies(FillReport& report) {
  const auto start = Clock::now();
  std::int64_t clock = 0;
  server::BoardKeys keys(db_, server::BoardKeys::system_random(), [&clock] { return clock; });
  server::Competitions competitions(
      db_, keys, [&clock] { return clock; }, server::DailyRules{});
  for (std::int64_t d = o_.days; d >= 1; --d) {
    clock = o_.today_start - d * kDayMs;
    if (!competitions.ensure_dailies(clock)) {
      report.error = "the dailies of " + server::utc_date(clock) + " could not be made";
      return false;
    }
  }
  report.dailies_s = seconds_since(start);
  return true;
}

bool YearFill::make_players(FillReport& report) {
  const auto start = Clock::now();
  // One token hash for all: nobody signs in as these players.
  const std::string token_hash = storage::hash_token("year_bench");
  const std::int64_t created_at = o_.today_start - (o_.days + 1) * kDayMs;
  pool_.assign(static_cast<std::size_t>(o_.players), 0);
  std::counting_semaphore<kWindow> window(kWindow);
  Outcomes outcomes;
  auto create = [&](std::string name, storage::PlayerId* id) {
    window.acquire();
    db_.create_player({std::move(name), token_hash, created_at},
                      [&, id](const storage::WriteResult& r) {
                        // name_taken: there from an earlier run, read below.
                        if (r.status != storage::WriteStatus::name_taken) outcomes.count(r);
                        if (r.ok()) *id = r.id;
                        window.release();
                      });
  };
  create(o_.player, &named_);
  for (std::int64_t i = 0; i < o_.players; ++i) {
    create(pool_name(i), &pool_[static_cast<std::size_t>(i)]);
  }
  db_.flush();
  if (outcomes.failed() > 0) {
    report.error = "players: " + outcomes.first_error();
    return false;
  }
  auto read_back = [&](const std::string& name, storage::PlayerId& id) {
    if (id != 0) return true;
    const auto found = db_.find_player_by_name(name);
    if (found) id = found->id;
    return found.has_value();
  };
  if (!read_back(o_.player, named_)) {
    report.error = "player " + o_.player + " missing";
    return false;
  }
  for (std::int64_t i = 0; i < o_.players; ++i) {
    if (!read_back(pool_name(i), pool_[static_cast<std::size_t>(i)])) {
      report.error = "player " + pool_name(i) + " missing";
      return false;
    }
  }
  report.players_s = seconds_since(start);
  return true;
}

bool YearFill::queue_games(const storage::CompetitionRecord& c, std::int64_t day,
                           std::int64_t index, const game::BoardSecret& key,
                           const std::function<void()>& acquire,
                           const storage::WriteCallback& counted, std::string& error) {
  game::GameSetup setup;
  setup.mode = c.mode;
  setup.preset = c.preset;
  setup.seed = c.seed;
  setup.board_key = key;
  // What the server stores is the dealt game's own setup.
  auto dealt = game::create_game(setup);
  if (!dealt.game) {
    error = c.id + ": " + dealt.error;
    return false;
  }
  setup = dealt.game->setup();
  const auto rule = server::Competitions::attempt_rule(c);
  std::optional<int> budget;  // match-3's move budget
  if (const auto* preset = game::find_preset(c.mode, c.preset)) budget = preset->moves;

  const auto pool_start = static_cast<std::int64_t>(splitmix64(entry_key(day, index, -1)) %
                                                    static_cast<std::uint64_t>(o_.players));
  for (std::int64_t i = 0; i < o_.entries; ++i) {
    const std::uint64_t h = splitmix64(entry_key(day, index, i));
    leaderboard_bench::Result r = leaderboard_bench::result_from(h);
    game::OverReason reason = game::OverReason::no_moves;
    if (budget) {
      r.moves = *budget;
      reason = game::OverReason::out_of_moves;
    }
    // Finished somewhere in the day, started its duration before.
    const std::int64_t finished_at =
        day * kDayMs + r.duration_ms +
        static_cast<std::int64_t>(splitmix64(h) %
                                  static_cast<std::uint64_t>(kDayMs - r.duration_ms));
    storage::GameRecord g;
    g.id = game_id(day, index, i);
    g.player_id =
        i == 0 ? named_ : pool_[static_cast<std::size_t>((pool_start + i - 1) % o_.players)];
    g.setup = setup;
    g.ranked = true;
    g.created_at = finished_at - r.duration_ms;
    g.competition = c.id;
    g.attempt_rule = rule;
    storage::GameResult result = leaderboard_bench::game_result(g.id, r, finished_at);
    result.over_reason = reason;
    acquire();
    db_.create_game(std::move(g), counted);
    acquire();
    db_.finish_game(std::move(result), counted);
  }
  return true;
}

bool YearFill::fill_games(FillReport& report) {
  const auto start = Clock::now();
  std::int64_t clock = o_.today_start;
  server::BoardKeys keys(db_, server::BoardKeys::system_random(), [&clock] { return clock; });
  server::Competitions competitions(
      db_, keys, [&clock] { return clock; }, server::DailyRules{});
  std::counting_semaphore<kWindow> window(kWindow);
  Outcomes outcomes;
  std::atomic<std::uint64_t> found{0};
  const std::int64_t first_day = o_.today_start / kDayMs - o_.days;
  const std::int64_t step = std::max<std::int64_t>(1, o_.days / 10);

  for (std::int64_t day = first_day; day < first_day + o_.days; ++day) {
    const std::string date = server::utc_date(day * kDayMs);
    const auto dailies = competitions.dailies_of(date);
    for (std::size_t b = 0; b < dailies.size(); ++b) {
      const storage::CompetitionRecord& c = dailies[b];
      ++report.boards;
      const storage::BoardKey key{c.mode, c.preset, c.seed, c.id};
      const std::int64_t had = db_.leaderboard(key, 0, 0).total;
      const Counted done{outcomes, found};
      const storage::WriteCallback counted = [&window, done](const storage::WriteResult& r) {
        done(r);
        window.release();
      };
      if (had >= o_.entries) {
        ++report.boards_skipped;
      } else {
        const auto board_key = competitions.key_of(c);
        if (!board_key) {
          report.error = "no key for " + c.id;
          return false;
        }
        if (!queue_games(
                c, day, static_cast<std::int64_t>(b), *board_key, [&window] { window.acquire(); },
                counted, report.error)) {
          return false;
        }
        report.entries_added += o_.entries - had;
      }
      if (!c.closed || had < o_.entries) {
        // Queued behind its games: the writer closes it once they are in.
        window.acquire();
        db_.mark_competition_closed(c.id, counted);
      }
      // Its season points, as the server's close adds them: idempotent, so
      // this also reaches the boards of a database filled before seasons
      // existed (skipped above).
      window.acquire();
      db_.record_season_points(c.id, counted);
    }
    if (o_.progress && (day - first_day + 1) % step == 0) {
      std::fprintf(stderr, "  days: %lld of %lld (%s), %.1f s\n", (long long)(day - first_day + 1),
                   (long long)o_.days, date.c_str(), seconds_since(start));
    }
    if (outcomes.failed() > 0) break;
  }
  db_.flush();
  report.games_s = seconds_since(start);
  report.writes_found_done = found.load();
  if (outcomes.failed() > 0) {
    report.error = "games: " + std::to_string(outcomes.failed()) + " writes refused (" +
                   outcomes.first_error() + ")";
    return false;
  }
  return true;
}

}  // namespace year_bench
