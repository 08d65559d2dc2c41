// Shutdown (Server::stop, what SIGTERM runs): a request the server has read
// is answered before the connection's close frame, even when its answer is
// not ready yet when stop() begins. And the close of one WebsocketSession,
// alone: it waits for the reply slots taken, one released without an
// answer included, but no longer than its drain timeout.
#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "net/session_registry.hpp"
#include "net/websocket_session.hpp"
#include "net/ws_handshake.hpp"
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

// A MessageHandler that keeps every message's Reply until the test drops
// or answers it.
class HeldReplies final : public server::MessageHandler {
 public:
  void on_message(const std::shared_ptr<server::Connection>& conn, std::string, bool,
                  server::Reply reply) override {
    std::lock_guard lock(mutex_);
    replies_.push_back(std::move(reply));
    conn->read_next();
    changed_.notify_all();
  }
  void on_binary(const std::shared_ptr<server::Connection>&, server::Reply) override {}
  void on_close(const std::shared_ptr<server::Connection>&) override {}

  bool wait_held(std::size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return replies_.size() >= n; });
  }
  // The replies held, each released without an answer.
  void release_all() {
    std::vector<server::Reply> gone;
    std::lock_guard lock(mutex_);
    gone.swap(replies_);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<server::Reply> replies_;
};

// One WebsocketSession on a network thread of its own, with a WsClient
// connected to it.
class SessionRig {
 public:
  explicit SessionRig(std::chrono::milliseconds close_drain_timeout) {
    limits_.close_drain_timeout = close_drain_timeout;
    acceptor_.bind({server::net::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    const unsigned short port = acceptor_.local_endpoint().port();
    std::thread connecting([this, port] { client_.emplace(port, std::chrono::seconds(5)); });
    server::tcp::socket socket = acceptor_.accept();
    boost::beast::flat_buffer buffer;
    server::http::request<server::http::string_body> request;
    server::http::read(socket, buffer, request);
    const server::rfc6455::UpgradeCheck check = server::rfc6455::check_upgrade(request);
    session_ = std::make_shared<server::WebsocketSession>(std::move(socket), "127.0.0.1", nullptr,
                                                          handler_, metrics_, limits_, registry_);
    server::net::post(ioc_, [session = session_, accept = check.accept] { session->run(accept); });
    connecting.join();
  }
  ~SessionRig() {
    handler_.release_all();
    client_.reset();
    session_.reset();
    work_.reset();
    ioc_.stop();
    network_.join();
  }

  WsClient& client() { return *client_; }
  HeldReplies& handler() { return handler_; }
  server::WebsocketSession& session() { return *session_; }

 private:
  // Declared before the context: what its handlers still hold when it is
  // destroyed (the session) may use them.
  HeldReplies handler_;
  server::Metrics metrics_;
  server::SessionLimits limits_;
  server::SessionRegistry registry_;
  server::net::io_context ioc_{1};
  std::optional<server::net::executor_work_guard<server::net::io_context::executor_type>> work_{
      ioc_.get_executor()};
  std::thread network_{[this] { ioc_.run(); }};
  server::tcp::acceptor acceptor_{ioc_, server::tcp::v4()};
  std::shared_ptr<server::WebsocketSession> session_;
  std::optional<WsClient> client_;
};

TEST(Shutdown, ACloseWaitingForASlotReleasedWithoutAnAnswerGoesOnAtTheRelease) {
  // A drain timeout longer than the client waits: only the release can
  // let the close through.
  SessionRig rig(std::chrono::seconds(60));
  rig.client().send(json{{"type", "ping"}, {"id", 1}});
  ASSERT_TRUE(rig.handler().wait_held(1));
  rig.session().close(server::websocket::close_code::going_away);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  rig.handler().release_all();
  EXPECT_EQ(rig.client().wait_close(), 1001);
}

TEST(Shutdown, ACloseWaitsForTheAnswersNoLongerThanItsDrainTimeout) {
  SessionRig rig(std::chrono::milliseconds(300));
  rig.client().send(json{{"type", "ping"}, {"id", 1}});
  ASSERT_TRUE(rig.handler().wait_held(1));
  const auto asked = std::chrono::steady_clock::now();
  rig.session().close(server::websocket::close_code::going_away);
  // The reply is never given: the close goes without it.
  EXPECT_EQ(rig.client().wait_close(), 1001);
  EXPECT_GE(std::chrono::steady_clock::now() - asked, std::chrono::milliseconds(250));
}

}  // namespace
}  // namespace tilecrush::testing
