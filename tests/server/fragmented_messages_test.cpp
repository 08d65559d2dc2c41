// The 16,384-byte message limit of protocol.md for messages sent in many
// fragments: over the limit, the client always reads a close frame 1009,
// however the fragments are cut and timed (never a reset or a bare EOF,
// which a browser reports as 1006); exactly at the limit, the message is
// answered. The client writes every fragment itself (write_some, one frame
// each) and only reads once the whole message is out, as a client that
// streams a message does.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

namespace websocket = beast::websocket;

constexpr std::size_t kLimit = 16384;

std::string padded_ping(const std::string& id, std::size_t size) {
  std::string text = R"({"type":"ping","id":")" + id + R"("})";
  text.resize(size, ' ');
  return text;
}

// One raw connection; every operation is asynchronous and bounded by a
// deadline (Beast's stream deadlines apply to asynchronous operations only).
class FragmentClient {
 public:
  explicit FragmentClient(unsigned short port) : ws_(ioc_) {
    deadline();
    check(run([&](auto h) {
      beast::get_lowest_layer(ws_).async_connect(
          tcp::endpoint(net::ip::make_address("127.0.0.1"), port), h);
    }));
    // Each fragment leaves at once (without it, Nagle's algorithm holds small
    // fragments back until the previous one is acknowledged).
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
    deadline();
    check(run([&](auto h) { ws_.async_handshake("127.0.0.1", "/ws", h); }));
    ws_.auto_fragment(false);  // one write_some, one frame
    ws_.text(true);
  }

  // Writes `text` in fragments of `fragment` bytes, pausing `pause` after
  // every `pause_every` fragments (0: never) or, with `first_only`, after
  // the first one only; with `ends` false, the message goes on after the
  // last of them. Empty text is one empty fragment. "" or what failed.
  std::string send_fragmented(const std::string& text, std::size_t fragment,
                              std::chrono::microseconds pause = {}, std::size_t pause_every = 0,
                              bool first_only = false, bool ends = true) {
    std::size_t count = 0;
    std::size_t at = 0;
    do {
      const std::size_t n = std::min(fragment, text.size() - at);
      const bool last = at + n == text.size();
      const bool fin = last && ends;
      deadline();
      const beast::error_code ec =
          run([&](auto h) { ws_.async_write_some(fin, net::buffer(text.data() + at, n), h); });
      if (ec) return "write of fragment " + std::to_string(count) + " failed: " + ec.message();
      ++count;
      at += n;
      if (!last && pause_every != 0 && count % pause_every == 0 && (!first_only || count == 1)) {
        std::this_thread::sleep_for(pause);
      }
    } while (at < text.size());
    return {};
  }

  // What the next read gives: "message <text>", "close <code>" for a close
  // frame, or the error ("end of stream", "Connection reset by peer", ...).
  std::string read() {
    deadline();
    buffer_.consume(buffer_.size());
    const beast::error_code ec = run([&](auto h) { ws_.async_read(buffer_, h); });
    if (!ec) return "message " + beast::buffers_to_string(buffer_.data());
    if (ec == websocket::error::closed) return "close " + std::to_string(ws_.reason().code);
    return ec.message();
  }

 private:
  void deadline() { beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(5)); }

  template <typename Start>
  beast::error_code run(Start start) {
    beast::error_code result;
    start([&result](beast::error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run();
    return result;
  }

  static void check(beast::error_code ec) {
    if (ec) throw beast::system_error(ec);
  }

  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

struct Timing {
  const char* name;
  std::chrono::microseconds pause;
  std::size_t pause_every;  // fragments between pauses (0: none)
  bool first_only;
};

// No pause; a short pause now and then (about 8 per message); a longer one
// after the first fragment, so the server sees the limit crossed while the
// client is still far from done.
std::vector<Timing> timings(std::size_t fragments) {
  return {{"no pause", std::chrono::microseconds(0), 0, false},
          {"short pauses", std::chrono::microseconds(300), std::max<std::size_t>(1, fragments / 8),
           false},
          {"a pause after the first", std::chrono::microseconds(20000), 1, true}};
}

// Runs `trial` (which returns its outcome) for every fragment size and
// timing, `repeats` times each (fragments of one byte once); returns how
// often each outcome was seen.
template <typename Trial>
std::map<std::string, int> outcomes(std::size_t total, const std::vector<std::size_t>& sizes,
                                    int repeats, Trial trial) {
  std::map<std::string, int> seen;
  for (const std::size_t size : sizes) {
    const std::size_t fragments = (total + size - 1) / size;
    for (const Timing& timing : timings(fragments)) {
      for (int i = 0; i < (size == 1 ? 1 : repeats); ++i) {
        const std::string outcome = trial(size, timing);
        ++seen[outcome];
        if (outcome != "ok") {
          ADD_FAILURE() << total << " bytes in fragments of " << size << " (" << timing.name
                        << "), run " << i << ": " << outcome;
        }
      }
    }
  }
  return seen;
}

std::string describe(const std::map<std::string, int>& seen) {
  std::string out;
  for (const auto& [outcome, n] : seen) out += outcome + ": " + std::to_string(n) + "\n";
  return out;
}

// A message answering the request with this id. Before hello a ping is
// refused, with its id: that still shows the message was read.
bool is_answer(const std::string& got, const std::string& id) {
  if (got.rfind("message ", 0) != 0) return false;
  const json answer = json::parse(got.substr(8), nullptr, false);
  return answer.is_object() && answer.value("id", json()) == id;
}

// Over the limit: the whole message goes out, then the client reads 1009.
std::string oversize_trial(unsigned short port, std::size_t total, std::size_t size,
                           const Timing& timing, bool ping_first) {
  FragmentClient c(port);
  if (ping_first) {
    // An answer is still being written when the limit is crossed.
    if (auto failed = c.send_fragmented(padded_ping("first", 100), 100); !failed.empty()) {
      return failed;
    }
  }
  if (auto failed = c.send_fragmented(padded_ping("over", total), size, timing.pause,
                                      timing.pause_every, timing.first_only);
      !failed.empty()) {
    return failed;
  }
  std::string got = c.read();
  if (ping_first) {
    if (got.rfind("message ", 0) != 0) return "instead of the answer to the first ping: " + got;
    got = c.read();
  }
  return got == "close 1009" ? "ok" : got;
}

const std::vector<std::size_t> kSizes = {1, 100, 931, 1000, 4096, 16384, 16385, 20480};

TEST(WsFragments, TwentyKibInFragmentsAlwaysEndsWithAClose1009) {
  TestServer ts;
  const auto seen = outcomes(20 * 1024, kSizes, 3, [&](std::size_t size, const Timing& timing) {
    return oversize_trial(ts.port(), 20 * 1024, size, timing, false);
  });
  std::printf("20 KiB over the limit:\n%s", describe(seen).c_str());
  // The server still serves others.
  WsClient other(ts.port());
  EXPECT_EQ(other.hello("after-fragments")["type"], "welcome");
}

TEST(WsFragments, OneByteOverTheLimitInFragmentsEndsWithAClose1009) {
  TestServer ts;
  const auto seen = outcomes(kLimit + 1, kSizes, 2, [&](std::size_t size, const Timing& timing) {
    return oversize_trial(ts.port(), kLimit + 1, size, timing, false);
  });
  std::printf("16,385 bytes:\n%s", describe(seen).c_str());
}

TEST(WsFragments, TheCloseFollowsTheAnswersStillBeingWritten) {
  TestServer ts;
  const auto seen =
      outcomes(20 * 1024, {100, 1000, 4096, 20480}, 3, [&](std::size_t size, const Timing& timing) {
        return oversize_trial(ts.port(), 20 * 1024, size, timing, true);
      });
  std::printf("20 KiB after a ping:\n%s", describe(seen).c_str());
}

// Exactly the limit: the message is answered, twice on one connection (the
// limit counts each message afresh).
std::string exact_trial(unsigned short port, std::size_t size, const Timing& timing) {
  FragmentClient c(port);
  for (const char* id : {"max", "again"}) {
    if (auto failed = c.send_fragmented(padded_ping(id, kLimit), size, timing.pause,
                                        timing.pause_every, timing.first_only);
        !failed.empty()) {
      return failed;
    }
    if (auto got = c.read(); !is_answer(got, id)) return "instead of an answer to " + got;
  }
  return "ok";
}

TEST(WsFragments, ExactlyTheLimitInFragmentsIsAnswered) {
  TestServer ts;
  const auto seen = outcomes(
      kLimit, {1, 100, 1000, 4096, 16383, 16384}, 2,
      [&](std::size_t size, const Timing& timing) { return exact_trial(ts.port(), size, timing); });
  std::printf("16,384 bytes:\n%s", describe(seen).c_str());
}

TEST(WsFragments, AnEmptyLastFragmentAtTheLimitIsAnswered) {
  TestServer ts;
  FragmentClient c(ts.port());
  const std::string text = padded_ping("max", kLimit);
  ASSERT_EQ(c.send_fragmented(text, kLimit, {}, 0, false, false), "");
  ASSERT_EQ(c.send_fragmented("", 1), "");  // the final fragment, empty
  EXPECT_TRUE(is_answer(c.read(), "max"));
  // One byte in the final fragment is one too many.
  ASSERT_EQ(c.send_fragmented(padded_ping("over", kLimit), 4096, {}, 0, false, false), "");
  ASSERT_EQ(c.send_fragmented(" ", 1), "");
  EXPECT_EQ(c.read(), "close 1009");
}

}  // namespace
}  // namespace tilecrush::testing
