// The frame reader of net/ws_frame.hpp on frames built here byte by byte
// (masked as a client masks them): whole and split reads, fragments and
// the message limit. Refusals, discarding and writing are in
// ws_frame_refusals_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ws_frame_test_util.hpp"

namespace tilecrush::server::rfc6455 {
namespace {

using namespace frame_testing;

// --- Whole frames ---------------------------------------------------------

TEST(WsFrameReader, TextFrameInEachLengthForm) {
  for (const std::size_t size : {0u, 1u, 125u, 126u, 300u, 65535u, 65536u, 70000u}) {
    FrameReader reader(1 << 20);
    std::string stream = frame(Opcode::text, ascii(size));
    ReadEvent event;
    const std::size_t used = reader.read(stream.data(), stream.size(), event);
    EXPECT_EQ(used, stream.size()) << size;
    EXPECT_EQ(event.kind, Kind::text) << size;
    EXPECT_EQ(event.payload, ascii(size)) << size;
    EXPECT_TRUE(reader.at_boundary());
  }
}

TEST(WsFrameReader, BinaryFrameIsNotCheckedAsText) {
  FrameReader reader(1000);
  const std::string bytes("\xFF\x00\xC0\xAF", 4);
  EXPECT_EQ(read_one(reader, frame(Opcode::binary, bytes)), (Seen{Kind::binary, 0, bytes, 10}));
}

TEST(WsFrameReader, PingAndPong) {
  FrameReader reader(10);
  const std::string data = ascii(125);  // over the message limit: controls are not messages
  const std::string stream =
      frame(Opcode::ping, data) + frame(Opcode::pong, "") + frame(Opcode::pong, "x");
  const std::vector<Seen> expected{
      {Kind::ping, 0, data, 131}, {Kind::pong, 0, "", 137}, {Kind::pong, 0, "x", 144}};
  EXPECT_EQ(feed(reader, stream), expected);
}

TEST(WsFrameReader, SeveralFramesInOneBufferReportedOneByOne) {
  FrameReader reader(1000);
  std::string stream = frame(Opcode::text, "one") + frame(Opcode::ping, "p") +
                       frame(Opcode::binary, std::string(200, 'b')) + close_frame(1000, "bye");
  const std::size_t sizes[] = {9, 7, 208, 11};
  const Kind kinds[] = {Kind::text, Kind::ping, Kind::binary, Kind::close};
  ReadEvent event;
  std::size_t at = 0;
  for (int i = 0; i < 4; ++i) {
    const std::size_t used = reader.read(stream.data() + at, stream.size() - at, event);
    EXPECT_EQ(used, sizes[i]) << i;
    EXPECT_EQ(event.kind, kinds[i]) << i;
    at += used;
  }
  EXPECT_EQ(at, stream.size());
  EXPECT_EQ(event.code, 1000);
  EXPECT_EQ(event.payload, "bye");
  EXPECT_EQ(reader.read(stream.data() + at, 0, event), 0u);
  EXPECT_EQ(event.kind, Kind::need_more);
}

TEST(WsFrameReader, ReusesTheEventsCapacity) {
  FrameReader reader(1000);
  ReadEvent event;
  event.payload.reserve(500);
  const char* const buffer = event.payload.data();
  for (int i = 0; i < 3; ++i) {
    std::string stream = frame(Opcode::text, "hello") + frame(Opcode::ping, "p");
    std::size_t used = reader.read(stream.data(), stream.size(), event);
    EXPECT_EQ(event.payload, "hello");
    used += reader.read(stream.data() + used, stream.size() - used, event);
    EXPECT_EQ(event.payload, "p");
    EXPECT_EQ(used, stream.size());
    EXPECT_EQ(event.payload.data(), buffer);
  }
}

// --- Split reads ----------------------------------------------------------

// A stream touching every path: each length form, a fragmented message
// with control frames between fragments, a close.
std::string mixed_stream() {
  return frame(Opcode::text, "caf\xC3\xA9") + frame(Opcode::binary, std::string(126, '\x01')) +
         frame(Opcode::text, "fr", false) + frame(Opcode::ping, "between") +
         frame(Opcode::continuation, "ag\xE2\x82", false) + frame(Opcode::pong, "") +
         frame(Opcode::continuation, "\xAC", false) +
         frame(Opcode::continuation, ascii(300), true) + frame(Opcode::text, ascii(65536)) +
         close_frame(1001, "going");
}

TEST(WsFrameReader, SameEventsWhereverTheBytesAreSplit) {
  const std::string stream = mixed_stream();
  FrameReader whole_reader(1 << 17);
  const std::vector<Seen> whole = feed(whole_reader, stream);
  ASSERT_EQ(whole.size(), 7u);
  EXPECT_EQ(whole[3], (Seen{Kind::pong, 0, "", whole[3].end}));
  EXPECT_EQ(whole[4].payload, "frag\xE2\x82\xAC" + ascii(300));
  EXPECT_EQ(whole[6], (Seen{Kind::close, 1001, "going", stream.size()}));

  for (const std::size_t chunk : {1u, 2u, 3u, 5u, 7u, 13u, 64u, 1000u}) {
    FrameReader reader(1 << 17);
    EXPECT_EQ(feed(reader, stream, chunk), whole) << "chunks of " << chunk;
    EXPECT_TRUE(reader.at_boundary());
  }
}

TEST(WsFrameReader, EverySplitPointOfAFrame) {
  // Each length form, every split point into two reads.
  for (const std::size_t size : {5u, 126u, 65536u}) {
    const std::string payload = ascii(size);
    const std::string stream = frame(Opcode::text, payload) + frame(Opcode::ping, "abc");
    const std::size_t split_limit = std::min<std::size_t>(stream.size(), 200);
    for (std::size_t split = 0; split <= stream.size(); ++split) {
      if (split > split_limit && split < stream.size() - 20) continue;  // the middle of a big one
      FrameReader reader(1 << 17);
      std::string first = stream.substr(0, split);
      std::string rest = stream.substr(split);
      ReadEvent event;
      std::size_t used = reader.read(first.data(), first.size(), event);
      std::vector<Seen> seen;
      std::string pending = first.substr(used);
      if (event.kind != Kind::need_more) seen.push_back({event.kind, 0, event.payload, used});
      pending += rest;
      std::size_t offset = used;
      while (!pending.empty()) {
        used = reader.read(pending.data(), pending.size(), event);
        offset += used;
        pending.erase(0, used);
        if (event.kind == Kind::need_more) break;
        seen.push_back({event.kind, 0, event.payload, offset});
      }
      const std::vector<Seen> expected{text_event(payload, stream.size() - 9),
                                       {Kind::ping, 0, "abc", stream.size()}};
      ASSERT_EQ(seen, expected) << "size " << size << ", split at " << split;
    }
  }
}

TEST(WsFrameReader, ByteByByte) {
  FrameReader reader(1 << 17);
  FrameReader whole_reader(1 << 17);
  const std::string stream = mixed_stream();
  EXPECT_EQ(feed(reader, stream, 1), feed(whole_reader, stream));
}

// --- Fragments ------------------------------------------------------------

TEST(WsFrameReader, FragmentsWithControlFramesBetween) {
  FrameReader reader(100);
  const std::string stream = frame(Opcode::binary, "He", false) + frame(Opcode::ping, "1") +
                             frame(Opcode::continuation, "ll", false) + frame(Opcode::pong, "2") +
                             close_frame(1000) + frame(Opcode::continuation, "o", true);
  const std::vector<Seen> expected{{Kind::ping, 0, "1", 15},
                                   {Kind::pong, 0, "2", 30},
                                   {Kind::close, 1000, "", 38},
                                   {Kind::binary, 0, "Hello", 45}};
  EXPECT_EQ(feed(reader, stream), expected);
  EXPECT_TRUE(reader.at_boundary());
}

TEST(WsFrameReader, ControlFrameSplitBetweenFragments) {
  FrameReader reader(100);
  const std::string stream = frame(Opcode::text, "ab", false) + frame(Opcode::ping, ascii(100)) +
                             frame(Opcode::continuation, "cd", true);
  for (std::size_t chunk = 1; chunk < stream.size(); ++chunk) {
    FrameReader split_reader(100);
    const std::vector<Seen> seen = feed(split_reader, stream, chunk);
    ASSERT_EQ(seen.size(), 2u) << chunk;
    EXPECT_EQ(seen[0], (Seen{Kind::ping, 0, ascii(100), 114}));
    EXPECT_EQ(seen[1], text_event("abcd", stream.size()));
  }
}

TEST(WsFrameReader, EmptyFragments) {
  FrameReader reader(100);
  const std::string stream =
      frame(Opcode::text, "", false) + frame(Opcode::continuation, "", false) +
      frame(Opcode::continuation, "x", true) + frame(Opcode::text, "y", false) +
      frame(Opcode::continuation, "", true);
  const std::vector<Seen> expected{text_event("x", 19), text_event("y", stream.size())};
  EXPECT_EQ(feed(reader, stream), expected);
}

TEST(WsFrameReader, CodePointSplitAcrossFragmentsIsValid) {
  FrameReader reader(100);
  // U+1F600, four bytes, cut after each of its first three.
  const std::string stream = frame(Opcode::text, "\xF0", false) +
                             frame(Opcode::continuation, "\x9F", false) +
                             frame(Opcode::continuation, "\x98\x80", true);
  EXPECT_EQ(read_one(reader, stream), text_event("\xF0\x9F\x98\x80", stream.size()));
}

// --- The message limit ----------------------------------------------------

TEST(WsFrameReader, ExactlyTheLimitIsAccepted) {
  FrameReader reader(300);
  EXPECT_EQ(read_one(reader, frame(Opcode::text, ascii(300))).kind, Kind::text);
  const std::string fragments = frame(Opcode::binary, ascii(100), false) +
                                frame(Opcode::continuation, ascii(150), false) +
                                frame(Opcode::continuation, ascii(50), true);
  EXPECT_EQ(read_one(reader, fragments).payload, ascii(100) + ascii(150) + ascii(50));
}

TEST(WsFrameReader, OneByteOverTheLimitRefusedFromTheHeader) {
  FrameReader reader(300);
  // Only the header: the refusal cannot wait for the payload.
  std::string stream = header(kFin | op(Opcode::text), 301);
  ReadEvent event;
  EXPECT_EQ(reader.read(stream.data(), stream.size(), event), stream.size());
  EXPECT_EQ(event.kind, Kind::error);
  EXPECT_EQ(event.code, kCloseTooBig);

  // The same when the fragments before it fit.
  FrameReader fragments(300);
  stream = frame(Opcode::text, ascii(200), false) + header(op(Opcode::continuation), 101);
  EXPECT_EQ(feed(fragments, stream), (std::vector<Seen>{{Kind::error, 1009, "", stream.size()}}));
}

TEST(WsFrameReader, ErrorIsRepeatedAndConsumesNothing) {
  FrameReader reader(10);
  std::string stream = frame(Opcode::text, ascii(11)) + frame(Opcode::ping, "");
  ReadEvent event;
  EXPECT_EQ(reader.read(stream.data(), stream.size(), event), 6u);
  EXPECT_EQ(event.code, kCloseTooBig);
  for (int i = 0; i < 3; ++i) {
    event.payload = "stale";
    EXPECT_EQ(reader.read(stream.data() + 6, stream.size() - 6, event), 0u);
    EXPECT_EQ(event.kind, Kind::error);
    EXPECT_EQ(event.code, kCloseTooBig);
    EXPECT_EQ(event.payload, "");
  }
}

}  // namespace
}  // namespace tilecrush::server::rfc6455
