// The timeline both load tools (tilecrush_load, tilecrush_room_load) run:
// their connections on `threads` threads of one io_context, a ramp-up until
// `ready()` (bounded), half a second to settle, `seconds` measured with
// `measuring` set (`on_start` and `on_end` called at its edges, for the
// samples of processes), then `stopping` set, `stop()` called, half a
// second for the connections to close, and the threads joined.
//
// Thread safety: call from main; the callbacks run on the calling thread,
// `measuring` and `stopping` are read by the io_context's threads.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <thread>
#include <vector>

namespace tilecrush::bench {

struct LoadTimes {
  double ramp_s = 0;      // from the threads' start until ready() or the limit
  double measured_s = 0;  // the measured window, as it really lasted
};

template <class Ready, class OnStart, class OnEnd, class Stop>
LoadTimes run_load_window(boost::asio::io_context& ioc, int threads,
                          std::chrono::seconds ramp_limit, int seconds,
                          std::atomic<bool>& measuring, std::atomic<bool>& stopping, Ready ready,
                          OnStart on_start, OnEnd on_end, Stop stop) {
  using Clock = std::chrono::steady_clock;
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back([&ioc]() { ioc.run(); });
  LoadTimes times;
  const auto ramp_start = Clock::now();
  const auto ramp_deadline = ramp_start + ramp_limit;
  while (!ready() && Clock::now() < ramp_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  times.ramp_s = std::chrono::duration<double>(Clock::now() - ramp_start).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  on_start();
  const auto start = Clock::now();
  measuring = true;
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  measuring = false;
  times.measured_s = std::chrono::duration<double>(Clock::now() - start).count();
  on_end();
  stopping = true;
  stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ioc.stop();
  for (auto& t : pool) t.join();
  return times;
}

}  // namespace tilecrush::bench
