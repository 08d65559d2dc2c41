// Shutdown (Server::stop, what SIGTERM runs): a request the server has read
// is answered before the connection's close frame, even when its answer is
// not ready yet when stop() begins.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

// Holds the start of a game on one seed inside the server (its board key is
// drawn on the game service's pool) until released.
struct HeldBoard {
  static constexpr const char* kSeed = "held-at-stop";

  std::mutex mutex;
  std::condition_variable changed;
  bool entered = false;
  bool released = false;

  game::BoardSecret key(const std::string& scope, int mode, const std::string& preset,
                        const std::string& seed) {
    if (seed == kSeed) {
      std::unique_lock lock(mutex);
      entered = true;
      changed.notify_all();
      changed.wait_for(lock, std::chrono::seconds(20), [this] { return released; });
    }
    return test_board_key(scope, mode, preset, seed);
  }
  bool wait_entered() {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(10), [this] { return entered; });
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
};

TEST(Shutdown, ARequestInFlightWhenStopBeginsIsAnsweredBeforeTheClose) {
  auto held = std::make_shared<HeldBoard>();
  server::Config config = TestServer::default_config();
  config.board_key_source = [held](const std::string& scope, int mode, const std::string& preset,
                                   const std::string& seed) {
    return held->key(scope, mode, preset, seed);
  };
  TestServer ts(config);
  WsClient c(ts.port());
  c.hello("shutdown-drain");
  c.send(json{{"type", "new_game"},
              {"id", 7},
              {"mode", "same"},
              {"preset", "easy"},
              {"seed", HeldBoard::kSeed}});
  ASSERT_TRUE(held->wait_entered());
  // However the test ends, the held game goes on (stop() joins its thread).
  const std::shared_ptr<void> release_at_exit(nullptr, [held](void*) { held->release(); });

  // The request is read and being handled, its answer not yet written, when
  // the server begins to stop.
  std::jthread stopper([&ts] { ts.server().stop(); });
  // Time for a close frame to overtake the answer, were it not held back.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  held->release();

  const json answer = c.receive();
  EXPECT_EQ(answer["id"], 7);
  EXPECT_EQ(answer["type"], "game") << answer;
  EXPECT_EQ(c.wait_close(), 1001);
}

}  // namespace
}  // namespace tilecrush::testing
