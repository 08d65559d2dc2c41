// The background writer of leaderboard_bench: finished games recorded on
// the board at a steady rate while the reads are measured.
#pragma once

#include <deque>
#include <thread>

#include "latency_histogram.hpp"
#include "leaderboard_board.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace leaderboard_bench {

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
          db_.create_player({name, token_hash, now_ms()}, [this, now](const WriteResult& r) {
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

}  // namespace leaderboard_bench
