// Abuse limits not covered elsewhere: the connection caps, oversize HTTP
// requests, and a client that never reads its answers.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "itest_util.hpp"
#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

// A server with the connection cap `cap` (a Config field) set to three,
// full: three connections hold its places for as long as `clients` does.
struct FullServer {
  explicit FullServer(std::size_t server::Config::*cap) : ts(capped(cap)) {
    for (int i = 0; i < 3; ++i) clients.push_back(std::make_unique<WsClient>(ts.port()));
  }
  static server::Config capped(std::size_t server::Config::*cap) {
    server::Config config = TestServer::default_config();
    config.*cap = 3;
    return config;
  }

  TestServer ts;
  std::vector<std::unique_ptr<WsClient>> clients;
};

// Whether `attempt()` returns true within 50 tries 20 ms apart (a place
// freed by a closed connection is free soon after); a throw is a no.
template <class Attempt>
bool soon(Attempt attempt) {
  for (int i = 0; i < 50; ++i) {
    try {
      if (attempt()) return true;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(Abuse, ConnectionsPerAddressAreCapped) {
  FullServer full(&server::Config::max_connections_per_address);
  EXPECT_THROW(WsClient extra(full.ts.port(), std::chrono::seconds(2)), std::exception);
  EXPECT_NE(full.ts.server().metrics().render().find("tilecrush_connections_refused_total 1"),
            std::string::npos);
  // A place frees up when a connection ends.
  full.clients.pop_back();
  std::unique_ptr<WsClient> again;
  ASSERT_TRUE(soon([&] {
    again = std::make_unique<WsClient>(full.ts.port(), std::chrono::seconds(2));
    return true;
  }));
  EXPECT_EQ(again->hello("capped")["type"], "welcome");
}

TEST(Abuse, ConnectionsOverallAreCapped) {
  FullServer full(&server::Config::max_connections);
  // Neither a WebSocket nor a plain HTTP request gets a fourth place.
  EXPECT_THROW(WsClient extra(full.ts.port(), std::chrono::seconds(2)), std::exception);
  EXPECT_THROW(http_get(full.ts.port(), "/api/health"), std::exception);
  EXPECT_TRUE(full.ts.wait_for_metric("tilecrush_connections_refused_total 2"));
  full.clients.pop_back();
  EXPECT_TRUE(soon([&] { return http_get(full.ts.port(), "/api/health").status == 200; }));
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
