// The year benchmark's measurement: the pages a returning player opens,
// over HTTP against a running tilecrush_server on a database YearFill made,
// one request at a time on one kept-alive connection (HttpClient). Each row
// is measured for `seconds` (or `max_samples` requests) after `warmup_s` of
// unmeasured requests of the same kind; its targets are found beforehand
// (pages deep in a list by following its `next` cursors, players on a
// board from pages at random offsets).
//
// A path that answers 404 "no such API path" is a feature not merged into
// this build: its rows are printed "not built" and do not fail the run.
// Any other answer than the expected status counts as an error.
//
// Thread safety: one thread.
#pragma once

#include <cstdint>
#include <string>

namespace year_bench {

struct MeasureOptions {
  std::string host = "127.0.0.1";
  std::string port;
  double seconds = 3;
  std::int64_t max_samples = 100'000;
  double warmup_s = 0.3;
  std::string player = "bench-daily";  // the player with a game every day
  std::int64_t days = 365;             // as filled: where the year starts
  std::int64_t today_start = 0;        // midnight UTC; 0: now's
  double goal_ms = 20;                 // every p99 at most this
};

// Prints the table; 0 when every built row answered as expected, 1 when a
// row had errors, 2 when the server could not be reached.
int measure(const MeasureOptions& options);

}  // namespace year_bench
