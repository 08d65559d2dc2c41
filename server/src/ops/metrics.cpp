#include "ops/metrics.hpp"

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

std::string Metrics::render() const {
  std::string out;
  auto line = [&out](std::string_view name, std::string_view labels, auto value) {
    out += name;
    if (!labels.empty()) {
      out += '{';
      out += labels;
      out += '}';
    }
    out += ' ';
    out += std::to_string(value);
    out += '\n';
  };
  auto help = [&out](std::string_view name, std::string_view type, std::string_view text) {
    out += "# HELP ";
    out += name;
    out += ' ';
    out += text;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
  };
  help("tilecrush_connections", "gauge", "Open WebSocket connections.");
  line("tilecrush_connections", "", connections_open_.load());
  help("tilecrush_connections_total", "counter", "WebSocket connections accepted.");
  line("tilecrush_connections_total", "", connections_total_.load());
  help("tilecrush_connections_refused_total", "counter", "Connections refused by the caps.");
  line("tilecrush_connections_refused_total", "", connections_refused_.load());
  help("tilecrush_messages_total", "counter", "WebSocket messages received, by type.");
  for (std::size_t i = 0; i < kMessageTypes.size(); ++i) {
    line("tilecrush_messages_total", "type=\"" + std::string(kMessageTypes[i]) + "\"",
         messages_[i].load());
  }
  help("tilecrush_errors_total", "counter", "Error replies, by code.");
  for (std::size_t i = 0; i < kErrorCodes.size(); ++i) {
    line("tilecrush_errors_total", "code=\"" + std::string(kErrorCodes[i]) + "\"",
         errors_[i].load());
  }
  help("tilecrush_moves_total", "counter", "Accepted moves.");
  line("tilecrush_moves_total", "", moves_.load());
  help("tilecrush_games_created_total", "counter", "Games created.");
  line("tilecrush_games_created_total", "", games_created_.load());
  help("tilecrush_games_finished_total", "counter", "Games that ended.");
  line("tilecrush_games_finished_total", "", games_finished_.load());
  help("tilecrush_http_requests_total", "counter", "HTTP requests served.");
  line("tilecrush_http_requests_total", "", http_requests_.load());
  help("tilecrush_slow_consumers_total", "counter", "Connections closed for not reading.");
  line("tilecrush_slow_consumers_total", "", slow_consumers_.load());
  help("tilecrush_reply_latency_seconds", "histogram", "Message arrival to answer queued.");
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kLatencyBucketsUs.size(); ++i) {
    cumulative += latency_[i].load();
    line("tilecrush_reply_latency_seconds_bucket",
         "le=\"" + std::to_string(static_cast<double>(kLatencyBucketsUs[i]) / 1e6) + "\"",
         cumulative);
  }
  cumulative += latency_.back().load();
  line("tilecrush_reply_latency_seconds_bucket", "le=\"+Inf\"", cumulative);
  out += "tilecrush_reply_latency_seconds_sum " +
         std::to_string(static_cast<double>(latency_sum_us_.load()) / 1e6) + "\n";
  line("tilecrush_reply_latency_seconds_count", "", latency_count_.load());
  if (extra_) out += extra_();
  return out;
}

}  // namespace tilecrush::server
