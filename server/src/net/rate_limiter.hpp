// Per-connection token bucket (protocol.md: at least `rate` messages a
// second with bursts of `burst` are always accepted; a connection that keeps
// exceeding for `close_after` is closed with 1008).
//
// Thread safety: none; a session uses its own limiter on its own thread.
#pragma once

#include <algorithm>
#include <chrono>

namespace tilecrush::server {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Verdict { accept, refuse, close };

  RateLimiter(double rate, double burst, std::chrono::milliseconds close_after)
      : rate_(rate),
        burst_(burst),
        close_after_(close_after),
        tokens_(burst),
        last_(Clock::now()) {}

  Verdict take(Clock::time_point now = Clock::now()) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
    if (tokens_ >= 1.0) {
      tokens_ -= 1.0;
      return Verdict::accept;
    }
    // A streak of refusals with gaps under a second counts as one flood.
    if (!flooding_ || now - last_refusal_ > std::chrono::seconds(1)) {
      flooding_ = true;
      flood_start_ = now;
    }
    last_refusal_ = now;
    return now - flood_start_ >= close_after_ ? Verdict::close : Verdict::refuse;
  }

 private:
  double rate_;
  double burst_;
  std::chrono::milliseconds close_after_;
  double tokens_;
  Clock::time_point last_;
  bool flooding_ = false;
  Clock::time_point flood_start_{};
  Clock::time_point last_refusal_{};
};

}  // namespace tilecrush::server
