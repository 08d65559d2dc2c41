// The frame reader of net/ws_frame.hpp refusing (1002, 1007), discarding
// after 1009, at_boundary() and shrink(), and the writer's header and
// close payload.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ws_frame_test_util.hpp"

namespace tilecrush::server::rfc6455 {
namespace {

using namespace frame_testing;

// --- Refusals: 1002 -------------------------------------------------------

struct Refusal {
  const char* what;
  std::string stream;
};

// Each stream ends in error `code`, read whole or byte by byte (with the
// same events, at the same offsets).
void expect_refused(const std::vector<Refusal>& cases, std::uint16_t code) {
  for (const Refusal& c : cases) {
    FrameReader reader(1 << 20);
    const std::vector<Seen> seen = feed(reader, c.stream);
    ASSERT_FALSE(seen.empty()) << c.what;
    EXPECT_EQ(seen.back().kind, Kind::error) << c.what << " " << ::testing::PrintToString(seen);
    EXPECT_EQ(seen.back().code, code) << c.what;
    FrameReader byte_reader(1 << 20);
    EXPECT_EQ(feed(byte_reader, c.stream, 1), seen) << c.what;
  }
}

TEST(WsFrameReader, ProtocolErrors) {
  std::vector<Refusal> cases{
      {"RSV1", raw_frame(kFin | 0x40 | op(Opcode::text), "x")},
      {"RSV2", raw_frame(kFin | 0x20 | op(Opcode::text), "x")},
      {"RSV3", raw_frame(kFin | 0x10 | op(Opcode::binary), "x")},
      {"RSV on a ping", raw_frame(kFin | 0x40 | op(Opcode::ping), "x")},
      {"unmasked", raw_frame(kFin | op(Opcode::text), "x", Form::shortest, false)},
      {"unmasked close", raw_frame(kFin | op(Opcode::close), "", Form::shortest, false)},
      {"fragmented ping", raw_frame(op(Opcode::ping), "x")},
      {"fragmented close", raw_frame(op(Opcode::close), "")},
      {"ping of 126", frame(Opcode::ping, ascii(126))},
      {"pong of 126 in the 7-bit form", header(kFin | op(Opcode::pong), 126, Form::len7)},
      {"close of 65536", header(kFin | op(Opcode::close), 65536)},
      {"continuation first", frame(Opcode::continuation, "x")},
      {"continuation after a whole message",
       frame(Opcode::text, "a") + frame(Opcode::continuation, "b")},
      {"text during a message", frame(Opcode::text, "a", false) + frame(Opcode::text, "b")},
      {"binary during a message", frame(Opcode::text, "a", false) + frame(Opcode::binary, "b")},
      {"16-bit form of 0", raw_frame(kFin | op(Opcode::text), "", Form::len16)},
      {"16-bit form of 125", raw_frame(kFin | op(Opcode::text), ascii(125), Form::len16)},
      {"64-bit form of 0", raw_frame(kFin | op(Opcode::binary), "", Form::len64)},
      {"64-bit form of 65535", raw_frame(kFin | op(Opcode::binary), ascii(65535), Form::len64)},
      {"64-bit top bit", header(kFin | op(Opcode::binary), std::uint64_t{1} << 63)},
      {"64-bit all ones", header(kFin | op(Opcode::binary), ~std::uint64_t{0})},
      {"close of 1 byte", frame(Opcode::close, "\x03")},
  };
  for (int opcode : {3, 4, 5, 6, 7, 11, 12, 13, 14, 15}) {
    cases.push_back({"reserved opcode", raw_frame(static_cast<std::uint8_t>(kFin | opcode), "")});
  }
  for (int code : {0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535}) {
    cases.push_back({"close code", close_frame(static_cast<std::uint16_t>(code), "r")});
  }
  expect_refused(cases, kCloseProtocolError);
}

TEST(WsFrameReader, RefusedFromTheFirstTwoBytes) {
  // Reserved bits, opcode, mask, control length and sequence are all known
  // from two bytes: no need to wait for the rest of the header.
  for (const std::uint8_t b0 : {std::uint8_t{0xC1}, std::uint8_t{0x83}, std::uint8_t{0x80}}) {
    FrameReader reader(100);
    std::string start{static_cast<char>(b0), '\x85'};
    ReadEvent event;
    EXPECT_EQ(reader.read(start.data(), 2, event), 2u);
    EXPECT_EQ(event.kind, Kind::error) << int{b0};
    EXPECT_EQ(event.code, kCloseProtocolError);
  }
}

TEST(WsFrameReader, AcceptedCloseCodes) {
  for (int code :
       {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4000, 4999}) {
    FrameReader reader(100);
    const std::string stream = close_frame(static_cast<std::uint16_t>(code), "why");
    EXPECT_EQ(read_one(reader, stream),
              (Seen{Kind::close, static_cast<std::uint16_t>(code), "why", stream.size()}));
  }
}

TEST(WsFrameReader, CloseWithoutPayloadIsNoStatus) {
  FrameReader reader(100);
  EXPECT_EQ(read_one(reader, frame(Opcode::close, "")), (Seen{Kind::close, kCloseNoStatus, "", 6}));
}

TEST(WsFrameReader, CloseWithCodeAndLongestReason) {
  FrameReader reader(10);
  const std::string reason = "\xC3\xA9" + ascii(121);  // 2 + 123 = 125 bytes
  const std::string stream = close_frame(4321, reason);
  for (std::size_t chunk = 1; chunk <= stream.size(); chunk += 7) {
    FrameReader split_reader(10);
    EXPECT_EQ(feed(split_reader, stream, chunk),
              (std::vector<Seen>{{Kind::close, 4321, reason, stream.size()}}));
  }
}

// --- Refusals: 1007 -------------------------------------------------------

TEST(WsFrameReader, InvalidUtf8) {
  std::vector<Refusal> cases{
      {"overlong /", frame(Opcode::text, "\xC0\xAF")},
      {"overlong 3-byte", frame(Opcode::text, "a\xE0\x80\xAF")},
      {"overlong 4-byte", frame(Opcode::text, "\xF0\x8F\xBF\xBF")},
      {"surrogate", frame(Opcode::text, "\xED\xA0\x80")},
      {"low surrogate", frame(Opcode::text, "ok \xED\xBF\xBF")},
      {"beyond U+10FFFF", frame(Opcode::text, "\xF4\x90\x80\x80")},
      {"F5 lead", frame(Opcode::text, "\xF5\x80\x80\x80")},
      {"stray continuation", frame(Opcode::text, "abc\x80")},
      {"cut off at the end", frame(Opcode::text, "\xE2\x82")},
      {"0xFF", frame(Opcode::text, ascii(40) + "\xFF")},
      {"invalid across fragments",
       frame(Opcode::text, "\xE2", false) + frame(Opcode::continuation, "\x28\xA1", true)},
      {"cut off in the last fragment",
       frame(Opcode::text, "ok", false) + frame(Opcode::continuation, "\xF0\x9F\x98", true)},
      {"close reason", close_frame(1000, "\xC3")},
      {"close reason surrogate", close_frame(1001, "bye \xED\xA0\x80")},
  };
  expect_refused(cases, kCloseBadPayload);
}

TEST(WsFrameReader, ValidUtf8Text) {
  for (const std::string_view text :
       {"\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xEF\xBF\xBF", "\xED\x9F\xBF",
        "\xEE\x80\x80", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "{\"name\":\"Zo\xC3\xAB\"}"}) {
    FrameReader reader(100);
    const std::string stream = frame(Opcode::text, text);
    EXPECT_EQ(read_one(reader, stream), text_event(std::string(text), stream.size()));
  }
}

// --- discard_messages() ---------------------------------------------------

TEST(WsFrameReader, DiscardFindsTheCloseAfterAHugeMessage) {
  constexpr std::size_t kHuge = 3'000'000;
  FrameReader reader(1000);
  const std::string stream = header(kFin | op(Opcode::binary), kHuge) + std::string(kHuge, 'z') +
                             frame(Opcode::ping, "still there") +
                             frame(Opcode::text, ascii(5000)) +  // a new message: skipped too
                             frame(Opcode::text, "\xFF") +       // never checked
                             close_frame(1000, "done");
  std::string buffer = stream.substr(0, 4096);
  ReadEvent event;
  const std::size_t used = reader.read(buffer.data(), buffer.size(), event);
  EXPECT_EQ(used, 14u);  // the header alone
  EXPECT_EQ(event.code, kCloseTooBig);
  EXPECT_FALSE(reader.at_boundary());

  reader.discard_messages();
  const std::vector<Seen> seen = feed(reader, std::string_view(stream).substr(14), 65536);
  const std::size_t ping_end = kHuge + 14 + 17;
  const std::vector<Seen> expected{{Kind::ping, 0, "still there", ping_end - 14},
                                   {Kind::close, 1000, "done", stream.size() - 14}};
  EXPECT_EQ(seen, expected);
  EXPECT_TRUE(reader.at_boundary());
}

TEST(WsFrameReader, DiscardSkipsTheRestOfAFragmentedMessage) {
  FrameReader reader(100);
  const std::string stream =
      frame(Opcode::text, ascii(60), false) + frame(Opcode::continuation, ascii(60), false);
  std::vector<Seen> seen = feed(reader, stream);
  ASSERT_EQ(seen, (std::vector<Seen>{{Kind::error, kCloseTooBig, "", 66 + 6}}));
  reader.discard_messages();
  const std::string rest = ascii(60) + frame(Opcode::ping, "p") +
                           frame(Opcode::continuation, ascii(500), true) + close_frame(1001);
  seen = feed(reader, rest, 3);
  const std::vector<Seen> expected{{Kind::ping, 0, "p", 67}, {Kind::close, 1001, "", rest.size()}};
  EXPECT_EQ(seen, expected);
}

TEST(WsFrameReader, DiscardKeepsTheStreamChecked) {
  FrameReader reader(10);
  std::string stream = frame(Opcode::text, ascii(20));
  EXPECT_EQ(feed(reader, stream).back().code, kCloseTooBig);
  reader.discard_messages();
  // The skipped message ended: a continuation is still a protocol error.
  EXPECT_EQ(feed(reader, ascii(20) + frame(Opcode::continuation, "x")).back().code,
            kCloseProtocolError);
}

TEST(WsFrameReader, DiscardAfterInvalidText) {
  FrameReader reader(100);
  EXPECT_EQ(feed(reader, frame(Opcode::text, "\xFF")).back().code, kCloseBadPayload);
  reader.discard_messages();
  EXPECT_EQ(feed(reader, frame(Opcode::text, "\xFF") + close_frame(1000)),
            (std::vector<Seen>{{Kind::close, 1000, "", 15}}));
}

TEST(WsFrameReader, ProtocolErrorSurvivesDiscard) {
  FrameReader reader(100);
  EXPECT_EQ(feed(reader, frame(Opcode::continuation, "x")).back().code, kCloseProtocolError);
  reader.discard_messages();
  std::string stream = close_frame(1000);
  ReadEvent event;
  EXPECT_EQ(reader.read(stream.data(), stream.size(), event), 0u);
  EXPECT_EQ(event.kind, Kind::error);
  EXPECT_EQ(event.code, kCloseProtocolError);
}

TEST(WsFrameReader, DiscardWithoutAnErrorInsideAFrame) {
  // The connection closes for its own reasons in the middle of a message:
  // the rest of the frame is skipped.
  const std::string stream = frame(Opcode::text, ascii(40), false) +
                             frame(Opcode::continuation, ascii(50), true) + close_frame(1000);
  for (const std::size_t cut : {3u, 46u, 50u, 60u, 100u}) {
    FrameReader reader(1000);
    std::string first = stream.substr(0, cut);
    ReadEvent event;
    ASSERT_EQ(reader.read(first.data(), first.size(), event), cut);
    ASSERT_EQ(event.kind, Kind::need_more);
    reader.discard_messages();
    EXPECT_EQ(feed(reader, std::string_view(stream).substr(cut)),
              (std::vector<Seen>{{Kind::close, 1000, "", stream.size() - cut}}))
        << cut;
  }
}

TEST(WsFrameReader, DiscardInsideAControlFrameKeepsIt) {
  const std::string stream = frame(Opcode::binary, ascii(40), false) +
                             frame(Opcode::ping, "0123456789") +
                             frame(Opcode::continuation, "x", true) + close_frame(1000);
  FrameReader reader(1000);
  std::string first = stream.substr(0, 46 + 6 + 4);  // the fragment, the ping's header, 4 bytes
  ReadEvent event;
  ASSERT_EQ(reader.read(first.data(), first.size(), event), first.size());
  reader.discard_messages();
  const std::vector<Seen> expected{{Kind::ping, 0, "0123456789", 6},
                                   {Kind::close, 1000, "", stream.size() - first.size()}};
  EXPECT_EQ(feed(reader, std::string_view(stream).substr(first.size())), expected);
}

// --- at_boundary() and shrink() -------------------------------------------

TEST(WsFrameReader, AtBoundary) {
  FrameReader reader(1000);
  EXPECT_TRUE(reader.at_boundary());
  ReadEvent event;
  const auto give = [&](std::string bytes) {
    EXPECT_EQ(reader.read(bytes.data(), bytes.size(), event), bytes.size());
  };
  const std::string whole = frame(Opcode::text, "hello");
  give(whole.substr(0, 1));  // part of a header
  EXPECT_FALSE(reader.at_boundary());
  give(whole.substr(1, 5));  // the rest of the header, none of the payload
  EXPECT_FALSE(reader.at_boundary());
  give(whole.substr(6));
  EXPECT_EQ(event.kind, Kind::text);
  EXPECT_TRUE(reader.at_boundary());

  give(frame(Opcode::text, "he", false));  // a fragment
  EXPECT_FALSE(reader.at_boundary());
  give(frame(Opcode::ping, ""));  // a control frame between fragments
  EXPECT_EQ(event.kind, Kind::ping);
  EXPECT_FALSE(reader.at_boundary());
  reader.shrink();  // keeps the fragments
  give(frame(Opcode::continuation, "llo"));
  EXPECT_EQ(event.kind, Kind::text);
  EXPECT_EQ(event.payload, "hello");
  EXPECT_TRUE(reader.at_boundary());
  reader.shrink();
  EXPECT_TRUE(reader.at_boundary());

  give(frame(Opcode::ping, "abc").substr(0, 8));  // part of a control frame
  EXPECT_FALSE(reader.at_boundary());
}

// --- Writing --------------------------------------------------------------

TEST(WsFrameWriter, HeaderLengthForms) {
  struct Case {
    std::uint64_t length;
    std::vector<std::uint8_t> bytes;
  };
  const std::vector<Case> cases{
      {0, {0x81, 0x00}},
      {125, {0x81, 0x7D}},
      {126, {0x81, 0x7E, 0x00, 0x7E}},
      {65535, {0x81, 0x7E, 0xFF, 0xFF}},
      {65536, {0x81, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00}},
      {0x0102030405060708, {0x81, 0x7F, 1, 2, 3, 4, 5, 6, 7, 8}},
  };
  for (const Case& c : cases) {
    std::uint8_t out[kMaxHeaderBytes + 1];
    std::fill(std::begin(out), std::end(out), 0xEE);
    const std::size_t size = write_header(out, Opcode::text, c.length);
    EXPECT_EQ(std::vector<std::uint8_t>(out, out + size), c.bytes) << c.length;
    EXPECT_EQ(out[size], 0xEE);  // nothing written past the header
  }
  std::uint8_t out[kMaxHeaderBytes];
  EXPECT_EQ(write_header(out, Opcode::close, 2), 2u);
  EXPECT_EQ(out[0], 0x88);
  EXPECT_EQ(write_header(out, Opcode::pong, 0), 2u);
  EXPECT_EQ(out[0], 0x8A);
  EXPECT_EQ(write_header(out, Opcode::binary, 200), 4u);
  EXPECT_EQ(out[0], 0x82);
}

TEST(WsFrameWriter, ClosePayload) {
  EXPECT_EQ(close_payload(kCloseNormal), std::string("\x03\xE8", 2));
  EXPECT_EQ(close_payload(kCloseTooBig, "too big"), std::string("\x03\xF1too big", 9));
  EXPECT_EQ(close_payload(4999, ascii(123)), std::string("\x13\x87", 2) + ascii(123));
  EXPECT_EQ(close_payload(1000, ascii(200)).size(), kMaxControlPayload);
}

TEST(WsFrameWriter, ClosePayloadCutOnACharacterBoundary) {
  const std::string euro = "\xE2\x82\xAC";
  // The limit (123 reason bytes) falls after the euro sign, then inside it
  // at each of its offsets.
  for (std::size_t before = 120; before <= 123; ++before) {
    const std::string reason = ascii(before) + euro + "tail";
    const std::string payload = close_payload(1001, reason);
    const std::string kept = payload.substr(2);
    const std::size_t expected = before + 3 <= 123 ? before + 3 : before;
    EXPECT_EQ(kept.size(), expected) << before;
    EXPECT_EQ(kept, reason.substr(0, expected));
    // Read back as a client would send it: accepted.
    FrameReader reader(10);
    const std::string stream = frame(Opcode::close, payload);
    EXPECT_EQ(read_one(reader, stream), (Seen{Kind::close, 1001, kept, stream.size()}));
  }
  // Four-byte characters all the way.
  std::string emoji;
  for (int i = 0; i < 40; ++i) emoji += "\xF0\x9F\x98\x80";
  EXPECT_EQ(close_payload(1000, emoji).size(), 2u + 120u);
}

}  // namespace
}  // namespace tilecrush::server::rfc6455
