// The timeouts that cut off slow clients (SECURITY.md, "Limits"), with the
// short values of TestServer::short_timeouts_config() (HTTP 1 s, WebSocket
// idle 2 s): partial and trickled HTTP headers, silent keep-alive
// connections, WebSocket clients that do not answer pings. With the default
// timeouts (15 s, 60 s) every one of these tests would fail.
#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

tcp::socket connect_raw(net::io_context& ioc, unsigned short port) {
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  return s;
}

// True once the server has closed `s` (end of stream or reset), within
// `limit`; whatever it sent before is skipped.
bool closed_within(tcp::socket& s, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  char buf[4096];
  while (Clock::now() < deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd p{s.native_handle(), POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::max<long>(1, left.count()))) <= 0) continue;
    beast::error_code ec;
    s.read_some(net::buffer(buf), ec);  // readable: does not block
    if (ec) return true;
  }
  return false;
}

TEST(Timeouts, APartialHttpHeaderIsCutOffAfterTheHeaderTimeout) {
  TestServer ts(TestServer::short_timeouts_config());
  net::io_context ioc;
  tcp::socket slow = connect_raw(ioc, ts.port());
  net::write(slow, net::buffer(std::string("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")));
  const auto start = Clock::now();
  // Others are served meanwhile.
  EXPECT_EQ(http_get(ts.port(), "/api/health").status, 200u);
  ASSERT_TRUE(closed_within(slow, 10s)) << "a partial header held its connection for 10 s";
  // Cut by the timeout, not refused at once.
  EXPECT_GE(Clock::now() - start, 500ms);
}

TEST(Timeouts, ATrickledHttpHeaderIsCutOffWhileBytesAreStillComing) {
  TestServer ts(TestServer::short_timeouts_config());
  net::io_context ioc;
  tcp::socket slow = connect_raw(ioc, ts.port());
  // One byte every 50 ms would take over 5 s; each byte does not restart
  // the clock: the whole header must arrive within the timeout.
  const std::string request =
      "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + std::string(60, 'a') + "\r\n\r\n";
  const auto start = Clock::now();
  std::size_t sent = 0;
  bool closed = false;
  for (; sent < request.size() && !closed; ++sent) {
    beast::error_code ec;
    net::write(slow, net::buffer(&request[sent], 1), ec);
    closed = ec.failed() || closed_within(slow, 50ms);
  }
  EXPECT_TRUE(closed) << "the whole trickled header was accepted";
  EXPECT_LT(sent, request.size());
  EXPECT_GE(Clock::now() - start, 500ms);
  EXPECT_EQ(http_get(ts.port(), "/api/health").status, 200u);
}

TEST(Timeouts, AKeepAliveConnectionThatGoesSilentIsClosed) {
  TestServer ts(TestServer::short_timeouts_config());
  net::io_context ioc;
  tcp::socket s = connect_raw(ioc, ts.port());
  beast::http::request<beast::http::empty_body> req{beast::http::verb::get, "/api/health", 11};
  req.set(beast::http::field::host, "127.0.0.1");
  beast::http::write(s, req);
  beast::flat_buffer buffer;
  beast::http::response<beast::http::string_body> res;
  beast::http::read(s, buffer, res);
  ASSERT_EQ(res.result_int(), 200u);
  ASSERT_TRUE(res.keep_alive());
  const auto start = Clock::now();
  ASSERT_TRUE(closed_within(s, 10s)) << "an idle keep-alive connection stayed open for 10 s";
  EXPECT_GE(Clock::now() - start, 500ms);
}

TEST(Timeouts, AnIdleWebSocketThatDoesNotAnswerPingsIsClosed) {
  TestServer ts(TestServer::short_timeouts_config());
  WsClient c(ts.port());
  ASSERT_EQ(c.hello("sleeper")["type"], "welcome");
  ASSERT_TRUE(ts.wait_for_metric("tilecrush_connections 1"));
  // The client reads nothing, so the server's ping (after 1 s idle) goes
  // unanswered: the server drops the connection at 2 s on its own.
  ASSERT_TRUE(ts.wait_for_metric("tilecrush_connections 0", 10s))
      << "a client that does not answer pings was kept for 10 s";
  EXPECT_TRUE(c.wait_close().has_value());
  WsClient other(ts.port());
  EXPECT_EQ(other.hello("awake")["type"], "welcome");
}

TEST(Timeouts, AnIdleWebSocketThatAnswersPingsStaysOpen) {
  TestServer ts(TestServer::short_timeouts_config());
  // Blocking reads have no deadline, so this client reads asynchronously
  // for a bounded time; Beast answers pings while a read is pending.
  net::io_context ioc;
  beast::websocket::stream<beast::tcp_stream> ws(ioc);
  beast::get_lowest_layer(ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), ts.port()));
  ws.handshake("127.0.0.1", "/ws");
  ws.write(net::buffer(std::string(R"({"type":"hello","name":"listener"})")));
  beast::flat_buffer buffer;
  ws.read(buffer);
  ASSERT_EQ(json::parse(beast::buffers_to_string(buffer.data()))["type"], "welcome");
  buffer.consume(buffer.size());

  int pings = 0;
  ws.control_callback([&pings](beast::websocket::frame_type kind, beast::string_view) {
    pings += kind == beast::websocket::frame_type::ping;
  });
  bool ended = false;
  beast::error_code ec;
  ws.async_read(buffer, [&](beast::error_code e, std::size_t) { ended = true, ec = e; });
  // Two and a half idle timeouts with nothing to say.
  ioc.run_for(5s);
  EXPECT_FALSE(ended) << "closed while answering pings: " << ec.message();
  EXPECT_GE(pings, 2);
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_connections 1", 0ms));
  beast::get_lowest_layer(ws).close();
  ioc.run();
}

}  // namespace
}  // namespace tilecrush::testing
