// The benchmark's board and the games written to it: see leaderboard_board.hpp.
#include "leaderboard_board.hpp"

#include <algorithm>
#include <cstdio>
#include <semaphore>
#include <stdexcept>

#include "tilecrush/game/crypto.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace leaderboard_bench {
namespace {

// Writes in flight during the fill: enough to keep the writer's batches full
// (Options::max_batch is 1024), few enough to bound the queue's memory.
constexpr std::ptrdiff_t kFillWindow = 16384;
// 2026-01-01T00:00:00Z: the fill's finish times count from there.
constexpr std::int64_t kFillEpochMs = 1'767'225'600'000;

}  // namespace

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

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

Result result_from(std::uint64_t h) {
  const double u = static_cast<double>(h % 1'000'000) / 1'000'000.0;
  Result r;
  r.score = 100 + static_cast<std::int64_t>(3999.0 * u * u);
  r.moves = 20 + static_cast<std::int64_t>((h >> 20) % 60);
  r.duration_ms = 30'000 + static_cast<std::int64_t>((h >> 32) % 600) * 1000;
  return r;
}

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
    db.create_player({"lb" + run + "-" + std::to_string(i), token_hash, kFillEpochMs},
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

}  // namespace leaderboard_bench
