// The WebSocket transport at the byte level (RFC 6455), against the real
// server: the opening handshake and its refusals, frames cut anywhere,
// messages pipelined in one write, control frames, and the closing
// handshake from either side. The client here writes raw bytes, so nothing
// a client library would smooth over is hidden.
#include <gtest/gtest.h>
#include <poll.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::uint8_t kText = 0x1;
constexpr std::uint8_t kClose = 0x8;
constexpr std::uint8_t kPing = 0x9;
constexpr std::uint8_t kPong = 0xA;

// A client frame: masked (unless `masked` is false), final unless `fin` is.
std::string frame(std::uint8_t opcode, const std::string& payload, bool fin = true,
                  bool masked = true) {
  std::string out;
  out += static_cast<char>((fin ? 0x80 : 0) | opcode);
  const std::uint8_t mask_bit = masked ? 0x80 : 0;
  if (payload.size() < 126) {
    out += static_cast<char>(mask_bit | payload.size());
  } else {
    out += static_cast<char>(mask_bit | 126);
    out += static_cast<char>(payload.size() >> 8);
    out += static_cast<char>(payload.size() & 0xFF);
  }
  const std::uint8_t key[4] = {0x37, 0xFA, 0x21, 0x3D};
  if (masked) out.append(reinterpret_cast<const char*>(key), 4);
  for (std::size_t i = 0; i < payload.size(); ++i) {
    out += masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i];
  }
  return out;
}

std::string close_frame(std::uint16_t code) {
  return frame(kClose, std::string{static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)});
}

class RawClient {
 public:
  explicit RawClient(unsigned short port) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    socket_.set_option(tcp::no_delay(true));
  }

  void write(const std::string& bytes) { net::write(socket_, net::buffer(bytes)); }

  // Everything up to the end of the HTTP answer's header.
  std::string read_http_header() {
    while (buffer_.find("\r\n\r\n") == std::string::npos) {
      if (!fill()) break;
    }
    const std::size_t end = buffer_.find("\r\n\r\n");
    if (end == std::string::npos) return std::exchange(buffer_, {});
    std::string header = buffer_.substr(0, end + 4);
    buffer_.erase(0, end + 4);
    return header;
  }

  // Asks for the upgrade (by default with RFC 6455's example key and
  // version 13, and `extra` header lines); the answer's header.
  std::string upgrade(const std::string& extra = "",
                      const std::string& key = "dGhlIHNhbXBsZSBub25jZQ==",
                      const std::string& version = "13") {
    write(
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: " +
        key + "\r\nSec-WebSocket-Version: " + version + "\r\n" + extra + "\r\n");
    return read_http_header();
  }

  struct Frame {
    bool ok = false;  // false: the connection ended (or timed out) first
    bool fin = false;
    std::uint8_t opcode = 0;
    bool masked = false;
    std::string payload;
  };

  // The next whole frame the server sent.
  Frame read_frame() {
    Frame f;
    if (!need(2)) return f;
    const auto b0 = static_cast<std::uint8_t>(buffer_[0]);
    const auto b1 = static_cast<std::uint8_t>(buffer_[1]);
    f.fin = (b0 & 0x80) != 0;
    f.opcode = b0 & 0x0F;
    f.masked = (b1 & 0x80) != 0;
    std::size_t length = b1 & 0x7F;
    std::size_t at = 2;
    if (length == 126) {
      if (!need(4)) return f;
      length = (static_cast<std::uint8_t>(buffer_[2]) << 8) | static_cast<std::uint8_t>(buffer_[3]);
      at = 4;
    } else if (length == 127) {
      return f;  // no answer here is that long
    }
    if (!need(at + length)) return f;
    f.payload = buffer_.substr(at, length);
    buffer_.erase(0, at + length);
    f.ok = true;
    return f;
  }

  // True when the server ended the connection (end of stream or reset)
  // with nothing more to read.
  bool ended() {
    if (!buffer_.empty()) return false;
    return !fill() && !timed_out_;
  }

 private:
  bool need(std::size_t n) {
    while (buffer_.size() < n) {
      if (!fill()) return false;
    }
    return true;
  }

  // Reads what arrives within 5 s; false at the end of the stream, on an
  // error or on the deadline.
  bool fill() {
    pollfd p{socket_.native_handle(), POLLIN, 0};
    timed_out_ = ::poll(&p, 1, 5000) <= 0;
    if (timed_out_) return false;
    char chunk[4096];
    beast::error_code ec;
    const std::size_t n = socket_.read_some(net::buffer(chunk), ec);
    if (ec) return false;
    buffer_.append(chunk, n);
    return true;
  }

  net::io_context ioc_;
  tcp::socket socket_;
  std::string buffer_;
  bool timed_out_ = false;
};

// The server's next frame is a close frame with `code`.
::testing::AssertionResult next_frame_closes(RawClient& c, std::uint16_t code) {
  const RawClient::Frame f = c.read_frame();
  if (!f.ok) return ::testing::AssertionFailure() << "no frame";
  if (f.opcode != kClose) return ::testing::AssertionFailure() << "opcode " << int(f.opcode);
  const std::uint16_t got =
      f.payload.size() < 2
          ? 0
          : static_cast<std::uint16_t>((static_cast<std::uint8_t>(f.payload[0]) << 8) |
                                       static_cast<std::uint8_t>(f.payload[1]));
  if (got != code) return ::testing::AssertionFailure() << "close code " << got;
  return ::testing::AssertionSuccess();
}

json message_of(const RawClient::Frame& f) {
  EXPECT_TRUE(f.ok);
  EXPECT_EQ(f.opcode, kText);
  EXPECT_TRUE(f.fin);
  EXPECT_FALSE(f.masked) << "server frames are never masked";
  return json::parse(f.payload, nullptr, false);
}

TEST(WsTransport, TheHandshakeAnswersTheRfcExampleAndAgreesToNoExtension) {
  TestServer ts;
  RawClient c(ts.port());
  const std::string header = c.upgrade(
      "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
      "Sec-WebSocket-Protocol: chat\r\n");
  EXPECT_EQ(header.rfind("HTTP/1.1 101 ", 0), 0u) << header;
  // RFC 6455 section 1.3's own example.
  EXPECT_NE(header.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"),
            std::string::npos)
      << header;
  EXPECT_EQ(header.find("Sec-WebSocket-Extensions"), std::string::npos) << header;
  EXPECT_EQ(header.find("Sec-WebSocket-Protocol"), std::string::npos) << header;
  c.write(frame(kText, R"({"type":"ping","id":1})"));
  EXPECT_EQ(message_of(c.read_frame())["id"], 1);
}

TEST(WsTransport, AnUpgradeWithABadKeyOrVersionIsRefusedOverHttp) {
  TestServer ts;
  const std::string bad_key = RawClient(ts.port()).upgrade("", "short");
  EXPECT_EQ(bad_key.rfind("HTTP/1.1 400 ", 0), 0u) << bad_key;
  const std::string old_version = RawClient(ts.port()).upgrade("", "dGhlIHNhbXBsZSBub25jZQ==", "8");
  EXPECT_EQ(old_version.rfind("HTTP/1.1 426 ", 0), 0u) << old_version;
  EXPECT_NE(old_version.find("Sec-WebSocket-Version: 13\r\n"), std::string::npos) << old_version;
}

TEST(WsTransport, AMessageCutIntoSingleBytesIsAnswered) {
  TestServer ts;
  RawClient c(ts.port());
  ASSERT_EQ(c.upgrade().rfind("HTTP/1.1 101 ", 0), 0u);
  const std::string bytes = frame(kText, R"({"type":"ping","id":"slow"})");
  for (const char b : bytes) {
    c.write(std::string(1, b));
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(message_of(c.read_frame())["id"], "slow");
}

TEST(WsTransport, MessagesPipelinedInOneWriteAreAnsweredInOrder) {
  TestServer ts;
  RawClient c(ts.port());
  ASSERT_EQ(c.upgrade().rfind("HTTP/1.1 101 ", 0), 0u);
  std::string bytes;
  for (int i = 0; i < 50; ++i)
    bytes += frame(kText, R"({"type":"ping","id":)" + std::to_string(i) + "}");
  // A ping between them, and a message in two fragments.
  bytes += frame(kPing, "are you there");
  bytes += frame(kText, R"({"type":"ping",)", false);
  bytes += frame(0x0, R"("id":"two parts"})");
  c.write(bytes);
  bool ponged = false;
  int next = 0;
  while (next <= 50) {
    const RawClient::Frame f = c.read_frame();
    ASSERT_TRUE(f.ok) << "after " << next << " answers";
    if (f.opcode == kPong) {
      EXPECT_EQ(f.payload, "are you there");
      ponged = true;
      continue;
    }
    const json m = message_of(f);
    if (next < 50) {
      EXPECT_EQ(m["id"], next);
    } else {
      EXPECT_EQ(m["id"], "two parts");
    }
    ++next;
  }
  EXPECT_TRUE(ponged);
}

// A WebSocket just opened on a fresh server is sent `bytes`: the server's
// next frame closes with `code`, and then the connection ends.
::testing::AssertionResult answered_by_close(const std::string& bytes, std::uint16_t code) {
  TestServer ts;
  RawClient c(ts.port());
  const std::string head = c.upgrade();
  if (head.rfind("HTTP/1.1 101 ", 0) != 0) return ::testing::AssertionFailure() << head;
  c.write(bytes);
  ::testing::AssertionResult closed = next_frame_closes(c, code);
  if (!closed) return closed;
  if (!c.ended()) return ::testing::AssertionFailure() << "the connection did not end";
  return ::testing::AssertionSuccess();
}

TEST(WsTransport, AClientCloseIsEchoedAndTheConnectionEnds) {
  EXPECT_TRUE(answered_by_close(close_frame(4000), 4000));
}

TEST(WsTransport, AnUnmaskedFrameClosesWith1002) {
  EXPECT_TRUE(answered_by_close(frame(kText, R"({"type":"ping"})", true, false), 1002));
}

TEST(WsTransport, AServerCloseWaitsForTheClientsCloseFrame) {
  TestServer ts;
  RawClient c(ts.port());
  ASSERT_EQ(c.upgrade().rfind("HTTP/1.1 101 ", 0), 0u);
  // Over the limit: 1009 from the server, which then reads on.
  c.write(frame(kText, std::string(16385, ' ')));
  ASSERT_TRUE(next_frame_closes(c, 1009));
  // Still open until the client's close frame; messages are ignored now.
  c.write(frame(kText, R"({"type":"ping","id":1})"));
  c.write(close_frame(1000));
  EXPECT_TRUE(c.ended());
}

}  // namespace
}  // namespace tilecrush::testing
