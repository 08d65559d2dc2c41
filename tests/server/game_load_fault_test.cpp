// A storage fault while loading a game is the server's failure, not the
// player's: the request is answered `internal` (counted in /metrics), never
// `not_found`, which would tell the player their game is gone. The game
// service is driven directly with a database closed under it (every read
// then throws StorageError).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "fake_connection.hpp"

namespace tilecrush::testing {
namespace {

using nlohmann::json;

class GameLoadFaultTest : public DirectServiceTest {
 protected:
  // Runs the connection's strand until it has `count` answers (the loads
  // run on the service's pool), for at most a few seconds.
  json answer(const std::shared_ptr<FakeConnection>& conn, std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (conn->answers().size() < count && std::chrono::steady_clock::now() < deadline) {
      if (!closed_) db_.flush();
      ioc_.restart();
      ioc_.poll();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const auto answers = conn->answers();
    return answers.size() < count ? json::object() : answers[count - 1];
  }

  bool closed_ = false;
};

TEST_F(GameLoadFaultTest, AStorageFaultWhileLoadingAnswersInternalNotNotFound) {
  auto ann = connect("ann");
  protocol::NewGame cmd;
  cmd.setup.mode = game::Mode::same;
  cmd.setup.preset = "easy";
  cmd.setup.seed = "fault";
  service_.handle(request(ann), cmd);
  const json created = answer(ann, 1);
  ASSERT_EQ(created["type"], "game") << created.dump();
  const std::string game_id = created["game"]["game_id"];

  // Out of memory (idle and fully stored), then the database fails under it.
  db_.flush();
  now_ += 1000;
  ASSERT_EQ(service_.evict_idle(std::chrono::milliseconds(1)), 1u);
  db_.close();
  closed_ = true;

  service_.handle(request(ann), protocol::Resume{game_id});
  const json refused = answer(ann, 2);
  EXPECT_EQ(refused["type"], "error") << refused.dump();
  EXPECT_EQ(refused["code"], "internal") << refused.dump();
  const std::string metrics = metrics_.render();
  EXPECT_NE(metrics.find("tilecrush_errors_total{code=\"internal\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("tilecrush_errors_total{code=\"not_found\"} 0"), std::string::npos);
}

TEST_F(GameLoadFaultTest, AGameThatIsNotStoredIsStillNotFound) {
  auto ann = connect("ann");
  service_.handle(request(ann), protocol::Resume{"nosuchgame"});
  const json refused = answer(ann, 1);
  EXPECT_EQ(refused["type"], "error") << refused.dump();
  EXPECT_EQ(refused["code"], "not_found") << refused.dump();
}

}  // namespace
}  // namespace tilecrush::testing
