#include "ops/metrics.hpp"

#include "ops/prometheus_text.hpp"

namespace tilecrush::server {

void Metrics::message(std::string_view type) {
  for (std::size_t i = 0; i + 1 < kMessageTypes.size(); ++i) {
    if (kMessageTypes[i] == type) {
      ++messages_[i];
      return;
    }
  }
  ++messages_.back();
}

void Metrics::error(std::string_view code) {
  for (std::size_t i = 0; i < kErrorCodes.size(); ++i) {
    if (kErrorCodes[i] == code) {
      ++errors_[i];
      return;
    }
  }
}

void Metrics::observe_latency_us(std::uint64_t us) {
  std::size_t i = 0;
  while (i < kLatencyBucketsUs.size() && us > kLatencyBucketsUs[i]) ++i;
  ++latency_[i];
  latency_sum_us_ += us;
  ++latency_count_;
}

namespace {

// A counter family with one sample per name, labelled `label="name"`.
template <std::size_t N>
void labelled(PrometheusText& out, std::string_view name, std::string_view help,
              std::string_view label, const std::array<std::string_view, N>& names,
              const std::array<std::atomic<std::uint64_t>, N>& counts) {
  out.family(name, "counter", help);
  for (std::size_t i = 0; i < N; ++i) {
    out.sample(name, std::string(label) + "=\"" + std::string(names[i]) + "\"", counts[i].load());
  }
}

}  // namespace

std::string Metrics::render() const {
  PrometheusText out;
  auto counter = [&out](std::string_view name, std::string_view help,
                        const std::atomic<std::uint64_t>& count) {
    out.metric(name, "counter", help, count.load());
  };
  out.metric("tilecrush_connections", "gauge", "Open WebSocket connections.",
             connections_open_.load());
  counter("tilecrush_connections_total", "WebSocket connections accepted.", connections_total_);
  counter("tilecrush_connections_refused_total", "Connections refused by the caps.",
          connections_refused_);
  labelled(out, "tilecrush_messages_total", "WebSocket messages received, by type.", "type",
           kMessageTypes, messages_);
  labelled(out, "tilecrush_errors_total", "Error replies, by code.", "code", kErrorCodes, errors_);
  counter("tilecrush_moves_total", "Accepted moves.", moves_);
  counter("tilecrush_games_created_total", "Games created.", games_created_);
  counter("tilecrush_games_finished_total", "Games that ended.", games_finished_);
  counter("tilecrush_http_requests_total", "HTTP requests served.", http_requests_);
  counter("tilecrush_slow_consumers_total", "Connections closed for not reading.", slow_consumers_);
  out.family("tilecrush_reply_latency_seconds", "histogram", "Message arrival to answer queued.");
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kLatencyBucketsUs.size(); ++i) {
    cumulative += latency_[i].load();
    out.sample("tilecrush_reply_latency_seconds_bucket",
               "le=\"" + std::to_string(static_cast<double>(kLatencyBucketsUs[i]) / 1e6) + "\"",
               cumulative);
  }
  cumulative += latency_.back().load();
  out.sample("tilecrush_reply_latency_seconds_bucket", "le=\"+Inf\"", cumulative);
  out.sample("tilecrush_reply_latency_seconds_sum", "",
             static_cast<double>(latency_sum_us_.load()) / 1e6);
  out.sample("tilecrush_reply_latency_seconds_count", "", latency_count_.load());
  if (extra_) out.raw(extra_());
  return out.take();
}

}  // namespace tilecrush::server
