// Process-wide counters exposed at /metrics in Prometheus text format.
//
// Thread safety: every method may be called from any thread (atomics only).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tilecrush::server {

class Metrics {
 public:
  // Message types counted by name; anything else is counted as "other".
  static constexpr std::array<std::string_view, 21> kMessageTypes = {
      "hello",      "new_game",   "resume", "click",   "swap",          "peek",        "select",
      "unselect",   "preview",    "hint",   "undo",    "resign",        "create_room", "join_room",
      "leave_room", "start_room", "ping",   "running", "recovery_code", "invalid",     "other"};
  static constexpr std::array<std::string_view, 9> kErrorCodes = {
      "bad_request",  "unauthorized", "not_found", "invalid_move", "not_allowed",
      "rate_limited", "internal",     "moved",     "stale"};
  // Upper bounds of the latency histogram buckets, in microseconds.
  static constexpr std::array<std::uint64_t, 12> kLatencyBucketsUs = {
      50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 1000000};

  void connection_opened() {
    ++connections_open_;
    ++connections_total_;
  }
  void connection_closed() { --connections_open_; }
  void connection_refused() { ++connections_refused_; }
  void message(std::string_view type);
  void error(std::string_view code);
  void move_accepted() { ++moves_; }
  void game_created() { ++games_created_; }
  void game_finished() { ++games_finished_; }
  void http_request() { ++http_requests_; }
  void slow_consumer_dropped() { ++slow_consumers_; }
  // Time from a message's arrival to its answer being queued for sending.
  void observe_latency_us(std::uint64_t us);

  // Gauges read from elsewhere at scrape time (database queue depth, ...).
  using GaugeSource = std::function<std::string()>;
  void set_extra_source(GaugeSource source) { extra_ = std::move(source); }

  std::string render() const;

 private:
  std::atomic<std::int64_t> connections_open_{0};
  std::atomic<std::uint64_t> connections_total_{0};
  std::atomic<std::uint64_t> connections_refused_{0};
  std::array<std::atomic<std::uint64_t>, kMessageTypes.size()> messages_{};
  std::array<std::atomic<std::uint64_t>, kErrorCodes.size()> errors_{};
  std::atomic<std::uint64_t> moves_{0};
  std::atomic<std::uint64_t> games_created_{0};
  std::atomic<std::uint64_t> games_finished_{0};
  std::atomic<std::uint64_t> http_requests_{0};
  std::atomic<std::uint64_t> slow_consumers_{0};
  std::array<std::atomic<std::uint64_t>, kLatencyBucketsUs.size() + 1> latency_{};
  std::atomic<std::uint64_t> latency_sum_us_{0};
  std::atomic<std::uint64_t> latency_count_{0};
  GaugeSource extra_;
};

}  // namespace tilecrush::server
