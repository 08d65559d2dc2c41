// WebSocket limits of protocol.md: message size, UTF-8, binary frames, and
// the per-connection rate limit (refusals, then 1008 for a flood).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

std::string padded_ping(const std::string& id, std::size_t size) {
  std::string text = R"({"type":"ping","id":")" + id + R"("})";
  text.resize(size, ' ');
  return text;
}

TEST(WsLimits, AMessageOfExactly16384BytesIsAnswered) {
  TestServer ts;
  WsClient c(ts.port());
  ASSERT_EQ(c.hello("big")["type"], "welcome");
  const std::string text = padded_ping("max", 16384);
  ASSERT_EQ(text.size(), 16384u);
  c.send_text(text);
  EXPECT_EQ(c.receive(), json({{"type", "pong"}, {"id", "max"}}));
  c.send_text(padded_ping("again", 16384));
  EXPECT_EQ(c.receive(), json({{"type", "pong"}, {"id", "again"}}));
}

TEST(WsLimits, AMessageOf16385BytesClosesWith1009) {
  TestServer ts;
  WsClient c(ts.port());
  ASSERT_EQ(c.hello("bigger")["type"], "welcome");
  c.send_text(padded_ping("over", 16385));
  EXPECT_EQ(c.wait_close(), 1009);
  // The server itself is fine.
  WsClient other(ts.port());
  EXPECT_EQ(other.hello("after")["type"], "welcome");
}

TEST(WsLimits, InvalidUtf8ClosesWith1007) {
  TestServer ts;
  {
    WsClient c(ts.port());
    ASSERT_EQ(c.hello("utf")["type"], "welcome");
    c.send_text("{\"type\":\"ping\",\"id\":\"\xff\"}");
    EXPECT_EQ(c.wait_close(), 1007);
  }
  {
    WsClient c(ts.port());  // before hello, an overlong encoding
    c.send_text("{\"type\":\"hello\",\"name\":\"\xc0\xaf\"}");
    EXPECT_EQ(c.wait_close(), 1007);
  }
  {
    WsClient c(ts.port());  // a sequence cut at the end of the message
    c.send_text("{\"type\":\"ping\"}\xe2\x82");
    EXPECT_EQ(c.wait_close(), 1007);
  }
}

TEST(WsLimits, ABinaryFrameGetsBadRequestAndTheConnectionStaysUsable) {
  TestServer ts;
  WsClient c(ts.port());
  c.send_binary(R"({"type":"hello","name":"binary"})");
  const json before_hello = c.receive();
  EXPECT_TRUE(is_error(before_hello, "bad_request"));
  ASSERT_EQ(c.hello("binary")["type"], "welcome");
  c.send_binary(R"({"type":"ping","id":1})");
  const json refused = c.receive();
  EXPECT_TRUE(is_error(refused, "bad_request"));
  EXPECT_TRUE(refused.contains("id"));
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");
  EXPECT_TRUE(c.is_open());
}

TEST(WsLimits, FourHundredPingsAtOnceAreAnsweredInOrderSomeRateLimited) {
  TestServer ts;
  WsClient c(ts.port());
  ASSERT_EQ(c.hello("pinger")["type"], "welcome");
  // Let the bucket refill after the hello.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  constexpr int kCount = 400;
  for (int i = 1; i <= kCount; ++i) c.send({{"type", "ping"}, {"id", i}});
  int pongs = 0;
  int refused = 0;
  int first_refused = 0;
  for (int i = 1; i <= kCount; ++i) {
    const json answer = c.receive();
    ASSERT_EQ(answer["id"], i) << answer;  // every answer, in request order, id echoed
    if (answer["type"] == "pong") {
      ++pongs;
    } else {
      ASSERT_TRUE(is_error(answer, "rate_limited"));
      ++refused;
      if (first_refused == 0) first_refused = i;
    }
  }
  EXPECT_GT(refused, 0);
  // A burst of 200 is always accepted.
  EXPECT_GE(pongs, 200);
  EXPECT_TRUE(first_refused == 0 || first_refused > 200) << first_refused;
  // After a pause the connection is served again.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");
}

// A connection that flooded the server, and how its flood ended: closed by
// the server, or still open at its limit.
struct Flood {
  std::unique_ptr<WsClient> client;
  bool closed = false;
  std::chrono::steady_clock::duration elapsed{};
};

// Says hello as `name` on a new connection to `ts` (answers awaited 3 s at
// most), then floods it: `send_one(client)` then `check(answer)`, one after
// the other as fast as the answers come, until the server closes the
// connection or `limit` passes (or an expectation fails).
template <class Send, class Check>
Flood flood(TestServer& ts, const std::string& name, std::chrono::seconds limit, Send send_one,
            Check check) {
  Flood out{std::make_unique<WsClient>(ts.port(), std::chrono::seconds(3))};
  EXPECT_EQ(out.client->hello(name)["type"], "welcome");
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() < start + limit && !::testing::Test::HasFailure()) {
    try {
      send_one(*out.client);
      check(out.client->receive());
    } catch (const std::exception&) {
      out.closed = true;
      break;
    }
  }
  out.elapsed = std::chrono::steady_clock::now() - start;
  return out;
}

TEST(WsLimits, AConnectionFloodingForFiveSecondsIsClosedWith1008) {
  TestServer ts;
  int refused = 0;
  // One ping, one answer: thousands a second, far above the limit.
  const Flood f = flood(
      ts, "flooder", std::chrono::seconds(10),
      [](WsClient& c) {
        c.send({{"type", "ping"}, {"id", 1}});
      },
      [&refused](const json& answer) {
        if (answer.value("type", "") == "error") {
          EXPECT_TRUE(is_error(answer, "rate_limited"));
          ++refused;
        }
      });
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(f.closed) << "still open after 10 s of flooding";
  EXPECT_EQ(f.client->wait_close(), 1008);
  EXPECT_GT(refused, 100);
  EXPECT_GE(f.elapsed, std::chrono::milliseconds(4500));
  EXPECT_LT(f.elapsed, std::chrono::milliseconds(8000));
  // Other connections are not affected.
  WsClient other(ts.port());
  EXPECT_EQ(other.hello("calm")["type"], "welcome");
}

// protocol.md limits messages, whatever their kind: binary frames take a
// token too (they once bypassed the limiter and could flood forever).
TEST(WsLimits, AConnectionFloodingBinaryFramesIsClosedWith1008Too) {
  TestServer ts;
  int answers = 0;
  const Flood f = flood(
      ts, "binary-flooder", std::chrono::seconds(7),
      [](WsClient& c) { c.send_binary(R"({"type":"ping","id":1})"); },
      [&answers](const json& answer) {
        EXPECT_EQ(answer.value("type", ""), "error");
        ++answers;
      });
  ASSERT_FALSE(HasFailure());
  EXPECT_TRUE(f.closed) << "still open after 7 s and " << answers << " binary frames";
  if (f.closed) {
    EXPECT_EQ(f.client->wait_close(), 1008);
  }
}

}  // namespace
}  // namespace tilecrush::testing
