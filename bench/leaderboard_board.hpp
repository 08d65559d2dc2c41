// The benchmark's board (one casual board of Same Game classic) and the
// games written to it: the fill, the players sampled from it, and the
// helpers the background writer shares with the fill.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "tilecrush/game/crypto.hpp"
#include "tilecrush/storage/database.hpp"

namespace leaderboard_bench {

namespace storage = tilecrush::storage;
namespace game = tilecrush::game;
using Clock = std::chrono::steady_clock;
using storage::BoardKey;
using storage::Database;
using storage::PlayerId;
using storage::WriteResult;

// The casual board (scope "") of a preset: the one the HTTP endpoint reads
// with rules_version 2 (its default). leaderboard_http.sh uses the same.
inline const BoardKey kBoard{game::Mode::same, "classic", "bench", ""};

// A finished game's figures. Scores come from 4,000 values, skewed low as
// real boards are, and move counts from 60, so most entries tie on score
// and many on both: the order then rests on the later keys too.
struct Result {
  std::int64_t score = 0;
  std::int64_t moves = 0;
  std::int64_t duration_ms = 0;
};

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

struct Sampled {
  PlayerId id = 0;
  std::string name;
  std::int64_t score = 0;
};

double seconds_since(Clock::time_point start);
std::int64_t now_ms();
// Names and game ids carry this, so runs on one file never collide.
std::string run_id();
std::uint64_t splitmix64(std::uint64_t x);
Result result_from(std::uint64_t h);
// Ranked casual games carry their board's key (rules version 2), as the
// server's do: the board's row must exist. A fixed key, since nobody plays
// these boards.
game::BoardSecret ensure_board(Database& db);
storage::GameRecord ranked_game(std::string id, PlayerId player, const game::BoardSecret& key,
                                std::int64_t created_at);
storage::GameResult game_result(std::string id, const Result& r, std::int64_t finished_at);
// Adds `count` entries: all players first (their ids are needed by their
// games), then each one's game, created and finished. A window of writes in
// flight keeps the writer thread busy without queueing millions at once.
bool fill(Database& db, const game::BoardSecret& key, std::int64_t count, const std::string& run);
// Players on the board, read in slices at random offsets so their ranks
// spread over the whole board (a player's rank is what around-me's cost
// depends on).
std::vector<Sampled> sample_players(Database& db, std::int64_t total, std::mt19937_64& rng);

}  // namespace leaderboard_bench
