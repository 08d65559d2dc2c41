// Abuse limits not covered elsewhere: the connection caps, oversize HTTP
// requests, and a client that never reads its answers.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "itest_util.hpp"
#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

TEST(Abuse, ConnectionsPerAddressAreCapped) {
  server::Config config = TestServer::default_config();
  config.max_connections_per_address = 3;
  TestServer ts(config);
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < 3; ++i) clients.push_back(std::make_unique<WsClient>(ts.port()));
  EXPECT_THROW(WsClient extra(ts.port(), std::chrono::seconds(2)), std::exception);
  EXPECT_NE(ts.server().metrics().render().find("tilecrush_connections_refused_total 1"),
            std::string::npos);
  // A place frees up when a connection ends.
  clients.pop_back();
  std::unique_ptr<WsClient> again;
  for (int attempt = 0; attempt < 50 && !again; ++attempt) {
    try {
      again = std::make_unique<WsClient>(ts.port(), std::chrono::seconds(2));
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ASSERT_TRUE(again);
  EXPECT_EQ(again->hello("capped")["type"], "welcome");
}

TEST(Abuse, ConnectionsOverallAreCapped) {
  server::Config config = TestServer::default_config();
  config.max_connections = 3;
  TestServer ts(config);
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < 3; ++i) clients.push_back(std::make_unique<WsClient>(ts.port()));
  // Neither a WebSocket nor a plain HTTP request gets a fourth place.
  EXPECT_THROW(WsClient extra(ts.port(), std::chrono::seconds(2)), std::exception);
  EXPECT_THROW(http_get(ts.port(), "/api/health"), std::exception);
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_connections_refused_total 2"));
  clients.pop_back();
  bool served = false;
  for (int attempt = 0; attempt < 50 && !served; ++attempt) {
    try {
      served = http_get(ts.port(), "/api/health").status == 200;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  EXPECT_TRUE(served);
}

TEST(Abuse, AClientThatDoesNotReadIsCutOffWhenItsQueueIsFull) {
  TestServer ts(unthrottled_config());
  WsClient other(ts.port());
  ASSERT_EQ(other.hello("reader")["type"], "welcome");

  // The slow client: a small receive buffer, so that the kernel holds
  // little of what it is sent and the server's queue fills up soon.
  net::io_context ioc;
  beast::websocket::stream<beast::tcp_stream> ws(ioc);
  tcp::socket& socket = beast::get_lowest_layer(ws).socket();
  socket.open(tcp::v4());
  socket.set_option(net::socket_base::receive_buffer_size(4096));
  beast::get_lowest_layer(ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), ts.port()));
  ws.handshake("127.0.0.1", "/ws");
  auto exchange = [&](const json& message) {
    ws.write(net::buffer(message.dump()));
    beast::flat_buffer buffer;
    ws.read(buffer);
    return json::parse(beast::buffers_to_string(buffer.data()));
  };
  ASSERT_EQ(exchange({{"type", "hello"}, {"name", "sleepy"}})["type"], "welcome");
  // The biggest board there is: each resume answer is some 4 KB.
  const json game = exchange(
      {{"type", "new_game"}, {"mode", "same"}, {"width", 40}, {"height", 40}, {"colors", 10}});
  ASSERT_EQ(game["type"], "game") << game;
  const std::string resume =
      json({{"type", "resume"}, {"game_id", game["game"]["game_id"]}}).dump();

  // Ask and never read: the answers pile up in the kernel, then in the
  // server's queue (1,024 messages or 4 MiB), and then the server hangs up.
  // (Blocking writes have no deadline: should the server stop reading,
  // ctest's timeout ends the test.)
  int sent = 0;
  beast::error_code ec;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!ec && std::chrono::steady_clock::now() < deadline) {
    ws.write(net::buffer(resume), ec);
    if (!ec && ++sent % 500 == 0) {
      // The server keeps serving everyone else meanwhile.
      ASSERT_EQ(other.request({{"type", "ping"}})["type"], "pong");
    }
  }
  ASSERT_TRUE(ec.failed()) << "still connected after " << sent << " unread answers";
  // Before hanging up, the server held a full queue (its 4 MiB come before
  // its 1,024 messages here) besides what the kernel held.
  const std::size_t answer_bytes = game.dump().size();
  EXPECT_GE(static_cast<std::size_t>(sent) * answer_bytes, std::size_t{4} * 1024 * 1024)
      << sent << " answers of " << answer_bytes << " bytes";
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_slow_consumers_total 1"));
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_connections 1"));
  EXPECT_EQ(other.request({{"type", "ping"}})["type"], "pong");
}

TEST(Abuse, OversizeHttpHeadersAreRefused) {
  TestServer ts;
  const std::string target = "/api/health?pad=" + std::string(16000, 'a');
  const HttpResult r = http_get(ts.port(), target);
  EXPECT_EQ(r.status, 413u);
  EXPECT_EQ(http_get(ts.port(), "/api/health").status, 200u);
}

}  // namespace
}  // namespace tilecrush::testing
