// A storage fault while loading a game is the server's failure, not the
// player's: the request is answered `internal` (counted in /metrics), never
// `not_found`, which would tell the player their game is gone. The game
// service is driven directly with a database closed under it (every read
// then throws StorageError).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "fake_connection.hpp"
#include "ops/metrics.hpp"
#include "play/board_keys.hpp"
#include "play/competitions.hpp"
#include "play/game_service.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

using nlohmann::json;
using server::net::io_context;

class GameLoadFaultTest : public ::testing::Test {
 protected:
  GameLoadFaultTest() : db_(options(dir_)) {}
  ~GameLoadFaultTest() override {
    service_.stop();
    db_.close();
  }

  static storage::Options options(const std::filesystem::path& dir) {
    storage::Options o;
    o.path = (dir / "fault.db").string();
    return o;
  }

  std::shared_ptr<FakeConnection> connect(const std::string& name) {
    auto conn = std::make_shared<FakeConnection>(ioc_);
    std::promise<std::int64_t> id;
    db_.create_player(name, "hash-" + name, now_,
                      [&id](const storage::WriteResult& r) { id.set_value(r.id); });
    conn->state().player_id = id.get_future().get();
    conn->state().player_name = name;
    return conn;
  }

  server::RequestPtr request(const std::shared_ptr<FakeConnection>& conn) {
    return std::make_shared<server::Request>(conn, next_id_++, server::Reply(conn, slot_++),
                                             metrics_);
  }

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

  std::filesystem::path dir_ = make_temp_dir("tilecrush-fault-");
  storage::Database db_;
  server::Metrics metrics_;
  std::atomic<std::int64_t> now_{1'700'000'000'000};
  server::BoardKeys keys_{db_, server::BoardKeys::system_random(),
                          [this]() { return now_.load(); }};
  server::Competitions competitions_{db_, keys_, [this]() { return now_.load(); }, {}};
  server::GameService service_{db_, metrics_, [this]() { return now_.load(); }, keys_,
                               competitions_};
  io_context ioc_;
  std::uint64_t slot_ = 0;
  std::int64_t next_id_ = 1;
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
