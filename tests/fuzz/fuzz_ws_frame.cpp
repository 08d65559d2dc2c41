// fuzz_ws_frame: the WebSocket frame reader (server/src/net/ws_frame.hpp)
// on an arbitrary client byte stream, given to it in chunks whose sizes the
// input chooses, as a connection's reads would cut it. Checks:
//   - the read contract: consumed <= size; all of it on need_more; after an
//     error the same error again with nothing consumed; every other event
//     consumes at least one byte (a connection always makes progress);
//   - what events carry: a message at most max_message_bytes, a text
//     message or close reason valid UTF-8 (by fuzz_check.hpp's reader, not
//     the protocol module's), control payloads at most 125 bytes, close
//     codes ones a client may send, error codes 1002, 1007 or 1009, no
//     message after discard_messages(), at_boundary() after a message;
//   - the events (kind, code, payload, offset in the stream) equal those of
//     a reference reader written here from RFC 6455 over the whole stream
//     at once, so that no way of cutting the stream changes what is read.
// Also protocol::valid_utf8 against read_utf8 on the raw input.
//
// Input: byte 0 picks max_message_bytes (0-191, or 1 KiB steps up to 64
// KiB); byte 1: bits 0-2 a count k of chunk-size bytes that follow (0: the
// whole stream in one read; a size byte of 0 means all that is left), bit
// 3 call discard_messages() after errors 1009 and 1007 and read on, bit 4
// shrink() after each event, bit 5 leave junk in the event's payload
// before each read. The rest is the stream.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "net/ws_frame.hpp"
#include "tilecrush/protocol/utf8.hpp"

namespace tilecrush::fuzz {
namespace {

using server::rfc6455::FrameReader;
using server::rfc6455::ReadEvent;
using Kind = ReadEvent::Kind;

struct Seen {
  Kind kind;
  std::uint16_t code;
  std::string payload;
  std::size_t end;  // stream offset just past the event

  bool operator==(const Seen&) const = default;
};

struct Setup {
  std::size_t max_message = 0;
  bool discard = false;
  bool shrink = false;
  bool junk = false;
  std::vector<std::uint8_t> chunks;
  std::string_view stream;
};

Setup read_setup(const std::uint8_t* data, std::size_t size) {
  Setup s;
  std::size_t at = 0;
  const std::uint8_t b0 = at < size ? data[at++] : 0;
  const std::uint8_t b1 = at < size ? data[at++] : 0;
  s.max_message = b0 < 0xC0 ? b0 : static_cast<std::size_t>(b0 - 0xC0 + 1) * 1024;
  s.discard = (b1 & 0x08) != 0;
  s.shrink = (b1 & 0x10) != 0;
  s.junk = (b1 & 0x20) != 0;
  for (unsigned k = b1 & 0x07u; k > 0 && at < size; --k) s.chunks.push_back(data[at++]);
  s.stream = std::string_view(reinterpret_cast<const char*>(data) + at, size - at);
  return s;
}

bool sendable_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
         (code >= 3000 && code <= 4999);
}

// The reference: RFC 6455 section 5 over the whole stream, frame after
// frame, with no state carried between reads since there is one read. An
// error is reported at the offset the contract gives: just after the two
// bytes that reveal it, after the header for the length and the limit,
// after the payload for close frames and text.
std::vector<Seen> reference(std::string_view s, std::size_t max, bool discard_policy) {
  std::vector<Seen> out;
  std::size_t pos = 0;
  bool open = false;
  bool text = false;
  bool discarding = false;
  std::string message;
  // True when reading goes on after error `code` at `end`.
  const auto error = [&](std::uint16_t code, std::size_t end) {
    out.push_back({Kind::error, code, {}, end});
    if (!discard_policy || code == server::rfc6455::kCloseProtocolError) return false;
    discarding = true;
    message.clear();
    return true;
  };
  for (;;) {
    if (s.size() - pos < 2) return out;
    const auto b0 = static_cast<std::uint8_t>(s[pos]);
    const auto b1 = static_cast<std::uint8_t>(s[pos + 1]);
    const bool fin = (b0 & 0x80) != 0;
    const unsigned opcode = b0 & 0x0F;
    const unsigned len7 = b1 & 0x7F;
    const bool control = opcode >= 8;
    const bool known = opcode <= 2 || (opcode >= 8 && opcode <= 10);
    if ((b0 & 0x70) != 0 || !known || (b1 & 0x80) == 0 || (control && (!fin || len7 > 125)) ||
        (!control && (opcode == 0) != open)) {
      error(server::rfc6455::kCloseProtocolError, pos + 2);
      return out;
    }
    const std::size_t extended = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
    const std::size_t header_size = 2 + extended + 4;
    if (s.size() - pos < header_size) return out;
    std::uint64_t length = len7;
    if (extended != 0) {
      length = 0;
      for (std::size_t i = 0; i < extended; ++i) {
        length = (length << 8) | static_cast<std::uint8_t>(s[pos + 2 + i]);
      }
      const bool shortest = extended == 2 ? length >= 126 : length >= 65536;
      if (!shortest || length >= (std::uint64_t{1} << 63)) {
        error(server::rfc6455::kCloseProtocolError, pos + header_size);
        return out;
      }
    }
    const std::size_t mask_at = pos + 2 + extended;
    pos += header_size;
    if (!control && opcode != 0) {
      open = true;
      text = opcode == 1;
    }
    bool skip = !control && discarding;
    if (!control && !discarding && length > max - message.size()) {
      if (!error(server::rfc6455::kCloseTooBig, pos)) return out;
      skip = true;
    }
    if (s.size() - pos < length) return out;
    std::string payload(s.substr(pos, length));
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] ^= s[mask_at + i % 4];
    pos += length;
    if (control) {
      if (opcode != 8) {
        out.push_back({opcode == 9 ? Kind::ping : Kind::pong, 0, payload, pos});
        continue;
      }
      if (payload.empty()) {
        out.push_back({Kind::close, server::rfc6455::kCloseNoStatus, {}, pos});
        continue;
      }
      const std::uint16_t code =
          payload.size() < 2
              ? 0
              : static_cast<std::uint16_t>(static_cast<std::uint8_t>(payload[0]) << 8 |
                                           static_cast<std::uint8_t>(payload[1]));
      if (!sendable_close_code(code)) {
        error(server::rfc6455::kCloseProtocolError, pos);
        return out;
      }
      if (!read_utf8(std::string_view(payload).substr(2))) {
        if (!error(server::rfc6455::kCloseBadPayload, pos)) return out;
        continue;
      }
      out.push_back({Kind::close, code, payload.substr(2), pos});
      continue;
    }
    if (fin) open = false;
    if (skip) continue;
    message += payload;
    if (!fin) continue;
    if (text && !read_utf8(message)) {
      if (!error(server::rfc6455::kCloseBadPayload, pos)) return out;
      continue;
    }
    out.push_back({text ? Kind::text : Kind::binary, 0, message, pos});
    message.clear();
  }
}

void check_event(const Setup& setup, const ReadEvent& event, bool discarding) {
  switch (event.kind) {
    case Kind::text:
      FUZZ_CHECK(read_utf8(event.payload).has_value(), "a text message is valid UTF-8");
      [[fallthrough]];
    case Kind::binary:
      FUZZ_CHECK(event.payload.size() <= setup.max_message, "a message is within the limit");
      FUZZ_CHECK(!discarding, "no message after discard_messages()");
      FUZZ_CHECK(event.code == 0, "a message has no code");
      break;
    case Kind::ping:
    case Kind::pong:
      FUZZ_CHECK(event.payload.size() <= server::rfc6455::kMaxControlPayload,
                 "a control payload is at most 125 bytes");
      FUZZ_CHECK(event.code == 0, "a ping or pong has no code");
      break;
    case Kind::close:
      FUZZ_CHECK(event.payload.size() <= server::rfc6455::kMaxControlPayload - 2,
                 "a close reason fits a control frame");
      FUZZ_CHECK(read_utf8(event.payload).has_value(), "a close reason is valid UTF-8");
      FUZZ_CHECK(sendable_close_code(event.code) ||
                     (event.code == server::rfc6455::kCloseNoStatus && event.payload.empty()),
                 "a close code a client may send, or 1005 without a reason");
      break;
    case Kind::error:
      FUZZ_CHECK(event.code == server::rfc6455::kCloseProtocolError ||
                     event.code == server::rfc6455::kCloseBadPayload ||
                     event.code == server::rfc6455::kCloseTooBig,
                 "an error is 1002, 1007 or 1009");
      FUZZ_CHECK(event.payload.empty(), "an error carries no payload");
      break;
    case Kind::need_more:
      FUZZ_CHECK(event.code == 0 && event.payload.empty(), "need_more carries nothing");
      break;
  }
}

// The stream through a FrameReader in the input's chunks, as a connection
// reads: the bytes after an event are given again first.
std::vector<Seen> read_in_chunks(const Setup& setup) {
  FrameReader reader(setup.max_message);
  std::vector<Seen> seen;
  std::string pending;     // given and not consumed yet
  std::size_t offset = 0;  // stream offset of pending[0]
  std::size_t next = 0;    // stream offset of the next chunk
  std::size_t chunk_index = 0;
  bool discarding = false;
  ReadEvent event;
  while (next < setup.stream.size()) {
    std::size_t take = setup.stream.size() - next;
    if (!setup.chunks.empty()) {
      const std::uint8_t size = setup.chunks[chunk_index++ % setup.chunks.size()];
      if (size != 0 && size < take) take = size;
    }
    pending.append(setup.stream.substr(next, take));
    next += take;
    for (;;) {
      if (setup.junk) event.payload.assign(37, '#');
      event.code = 4321;
      const std::size_t size = pending.size();
      const std::size_t used = reader.read(pending.data(), size, event);
      FUZZ_CHECK(used <= size, "consumed at most what was given");
      check_event(setup, event, discarding);
      pending.erase(0, used);
      offset += used;
      if (event.kind == Kind::need_more) {
        FUZZ_CHECK(used == size, "need_more consumes everything");
        break;
      }
      FUZZ_CHECK(used > 0, "an event consumes at least one byte");
      seen.push_back({event.kind, event.code, event.payload, offset});
      if (event.kind == Kind::text || event.kind == Kind::binary) {
        FUZZ_CHECK(reader.at_boundary(), "at a boundary after a whole message");
      }
      if (setup.shrink) reader.shrink();
      if (event.kind != Kind::error) continue;

      const std::uint16_t code = event.code;
      for (const std::size_t again : {size - used, std::size_t{0}}) {
        const std::size_t used_again = reader.read(pending.data(), again, event);
        FUZZ_CHECK(used_again == 0, "after an error nothing is consumed");
        FUZZ_CHECK(event.kind == Kind::error && event.code == code, "the same error again");
      }
      if (!setup.discard || code == server::rfc6455::kCloseProtocolError) return seen;
      reader.discard_messages();
      discarding = true;
    }
  }
  return seen;
}

void print(const char* name, const std::vector<Seen>& events) {
  std::fprintf(stderr, "%s: %zu events\n", name, events.size());
  for (const Seen& e : events) {
    std::fprintf(stderr, "  kind %d code %u payload %zu bytes end %zu\n", static_cast<int>(e.kind),
                 static_cast<unsigned>(e.code), e.payload.size(), e.end);
  }
}

}  // namespace
}  // namespace tilecrush::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilecrush::fuzz;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  FUZZ_CHECK(tilecrush::protocol::valid_utf8(raw) == read_utf8(raw).has_value(),
             "valid_utf8 agrees with an independent reader");

  const Setup setup = read_setup(data, size);
  const std::vector<Seen> seen = read_in_chunks(setup);
  const std::vector<Seen> expected = reference(setup.stream, setup.max_message, setup.discard);
  if (seen != expected) {
    print("FrameReader", seen);
    print("reference", expected);
  }
  FUZZ_CHECK(seen == expected, "the reader's events are the reference's");
  return 0;
}
