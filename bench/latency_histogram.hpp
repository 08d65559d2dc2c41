// LatencyHistogram: durations in microseconds, counted in log-linear buckets
// (exact below 1,024 us, then 512 buckets per power of two: a relative error
// under 0.2 %), so a long run keeps a fixed ~120 KB whatever the number of
// samples, unlike a vector of every sample.
//
// Thread safety: record() may be called from any thread at once (relaxed
// atomics); read the figures once the recording threads are done.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>

namespace tilecrush::bench {

class LatencyHistogram {
 public:
  void record(std::uint64_t us) {
    us = std::min<std::uint64_t>(us, kMaxValue);
    counts_[index_of(us)].fetch_add(1, std::memory_order_relaxed);
    total_.fetch_add(1, std::memory_order_relaxed);
    std::uint64_t seen = max_.load(std::memory_order_relaxed);
    while (us > seen && !max_.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
    }
  }

  std::uint64_t count() const { return total_.load(std::memory_order_relaxed); }
  double max_ms() const { return static_cast<double>(max_.load()) / 1000.0; }

  // The sample of rank floor(p * count) in ascending order (the same rank the
  // sorted-vector percentiles of tilecrush_load use), in milliseconds.
  double percentile_ms(double p) const {
    const std::uint64_t n = count();
    if (n == 0) return 0;
    const auto rank =
        std::min<std::uint64_t>(n - 1, static_cast<std::uint64_t>(p * static_cast<double>(n)));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i) {
      seen += counts_[i].load(std::memory_order_relaxed);
      if (seen > rank) return std::min(middle_of(i), static_cast<double>(max_.load())) / 1000.0;
    }
    return max_ms();
  }

 private:
  static constexpr unsigned kSubBits = 9;                         // 512 buckets per power of two
  static constexpr std::uint64_t kLinear = 1u << (kSubBits + 1);  // exact below this
  static constexpr unsigned kMaxShift = 27;                       // up to about 19 hours
  static constexpr std::uint64_t kMaxValue = (std::uint64_t{1} << (kSubBits + 1 + kMaxShift)) - 1;
  static constexpr std::size_t kBuckets = kLinear + kMaxShift * (1u << kSubBits);

  static std::size_t index_of(std::uint64_t us) {
    if (us < kLinear) return static_cast<std::size_t>(us);
    const unsigned shift = static_cast<unsigned>(std::bit_width(us)) - (kSubBits + 1);
    const std::uint64_t mantissa = (us >> shift) - (1u << kSubBits);
    return static_cast<std::size_t>(kLinear + (shift - 1) * (1u << kSubBits) + mantissa);
  }

  static double middle_of(std::size_t index) {
    if (index < kLinear) return static_cast<double>(index);
    const std::size_t rest = index - kLinear;
    const unsigned shift = static_cast<unsigned>(rest >> kSubBits) + 1;
    const std::uint64_t low = ((rest & ((1u << kSubBits) - 1)) + (1u << kSubBits)) << shift;
    return static_cast<double>(low) + static_cast<double>(std::uint64_t{1} << shift) / 2.0;
  }

  std::array<std::atomic<std::uint64_t>, kBuckets> counts_{};
  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::uint64_t> max_{0};
};

}  // namespace tilecrush::bench
