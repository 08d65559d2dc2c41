// The Prometheus text exposition format (version 0.0.4), written one way for
// all of /metrics: Metrics::render's counters and the gauges the server
// adds at scrape time (server.cpp) go through the same writer, so every
// family is spelled alike (HELP, TYPE, then its samples).
//
// Thread safety: none; one writer per scrape, on the caller's stack.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace tilecrush::server {

class PrometheusText {
 public:
  // "# HELP name help" and "# TYPE name type": a family's head, before its
  // samples.
  void family(std::string_view name, std::string_view type, std::string_view help);
  // "name{labels} value", or "name value" when `labels` is empty.
  void sample(std::string_view name, std::string_view labels, std::string_view value);
  // A number as std::to_string spells it (integers in full; a double with
  // six decimals).
  template <typename Number>
  requires std::integral<Number> || std::floating_point<Number>
  void sample(std::string_view name, std::string_view labels, Number value) {
    sample(name, labels, std::string_view(std::to_string(value)));
  }
  // A family of one unlabelled sample.
  template <typename Value>
  void metric(std::string_view name, std::string_view type, std::string_view help, Value value) {
    family(name, type, help);
    sample(name, "", value);
  }
  // Text added as it is (a writer's whole output, already in this format).
  void raw(std::string_view text) { out_ += text; }

  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

}  // namespace tilecrush::server
