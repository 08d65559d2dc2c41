// Frames built byte by byte as a client builds them (masked), and a
// reader fed the way a connection feeds it: the tests of net/ws_frame.hpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "net/ws_frame.hpp"

namespace tilecrush::server::rfc6455::frame_testing {

using Kind = ReadEvent::Kind;

constexpr std::uint8_t kMask[4] = {0x37, 0xFA, 0x21, 0x3D};
constexpr std::uint8_t kFin = 0x80;

inline std::uint8_t op(Opcode opcode) {
  return static_cast<std::uint8_t>(opcode);
}

// How a header writes its length: the shortest form, or a given one (a
// longer form than needed is a refusal).
enum class Form { shortest, len7, len16, len64 };

// A client frame's header with a declared `length` (whatever follows): first
// byte `b0` (FIN, RSV, opcode), the mask bit unless `masked` is false, then
// the mask key.
inline std::string header(std::uint8_t b0, std::uint64_t length, Form form = Form::shortest,
                          bool masked = true) {
  if (form == Form::shortest) {
    form = length < 126 ? Form::len7 : length <= 0xFFFF ? Form::len16 : Form::len64;
  }
  std::string out;
  out.push_back(static_cast<char>(b0));
  const char mask_bit = masked ? '\x80' : '\0';
  switch (form) {
    case Form::len7:
      out.push_back(static_cast<char>(mask_bit | static_cast<char>(length)));
      break;
    case Form::len16:
      out.push_back(static_cast<char>(mask_bit | 126));
      out.push_back(static_cast<char>(length >> 8));
      out.push_back(static_cast<char>(length));
      break;
    default:
      out.push_back(static_cast<char>(mask_bit | 127));
      for (int i = 7; i >= 0; --i) out.push_back(static_cast<char>(length >> (8 * i)));
      break;
  }
  if (masked) out.append(reinterpret_cast<const char*>(kMask), 4);
  return out;
}

inline std::string masked(std::string_view payload) {
  std::string out(payload);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char>(out[i] ^ kMask[i % 4]);
  return out;
}

inline std::string raw_frame(std::uint8_t b0, std::string_view payload, Form form = Form::shortest,
                             bool mask = true) {
  return header(b0, payload.size(), form, mask) + (mask ? masked(payload) : std::string(payload));
}

inline std::string frame(Opcode opcode, std::string_view payload, bool fin = true) {
  return raw_frame(static_cast<std::uint8_t>((fin ? kFin : 0) | op(opcode)), payload);
}

inline std::string close_frame(std::uint16_t code, std::string_view reason = {}) {
  std::string payload{static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)};
  payload.append(reason);
  return frame(Opcode::close, payload);
}

struct Seen {
  Kind kind;
  std::uint16_t code;
  std::string payload;
  std::size_t end;  // offset in the stream just past the event

  bool operator==(const Seen&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const Seen& s) {
  return os << "{kind " << static_cast<int>(s.kind) << ", code " << s.code << ", payload \""
            << s.payload << "\" (" << s.payload.size() << " bytes), end " << s.end << "}";
}

// Feeds `stream` to `reader` in chunks of `chunk` bytes, as a connection
// would: bytes not consumed after an event are given again first. Stops at
// the first error. Checks the consumed counts on the way.
inline std::vector<Seen> feed(FrameReader& reader, std::string_view stream,
                              std::size_t chunk = std::numeric_limits<std::size_t>::max()) {
  std::vector<Seen> seen;
  std::string pending;
  std::size_t offset = 0;  // stream offset of pending[0]
  ReadEvent event;
  for (std::size_t next = 0; next < stream.size() || !pending.empty();) {
    const std::size_t take = std::min(chunk, stream.size() - next);
    pending.append(stream.substr(next, take));
    next += take;
    for (;;) {
      const std::size_t size = pending.size();
      const std::size_t used = reader.read(pending.data(), size, event);
      EXPECT_LE(used, size);
      pending.erase(0, used);
      offset += used;
      if (event.kind == Kind::need_more) {
        EXPECT_EQ(used, size);
        break;
      }
      seen.push_back({event.kind, event.code, event.payload, offset});
      if (event.kind == Kind::error) return seen;
    }
    if (take == 0) break;
  }
  return seen;
}

inline Seen read_one(FrameReader& reader, std::string stream) {
  const std::vector<Seen> seen = feed(reader, stream);
  EXPECT_EQ(seen.size(), 1u) << ::testing::PrintToString(seen);
  return seen.empty() ? Seen{Kind::need_more, 0, {}, 0} : seen.front();
}

inline Seen text_event(std::string payload, std::size_t end) {
  return {Kind::text, 0, std::move(payload), end};
}

inline std::string ascii(std::size_t size) {
  std::string s(size, ' ');
  for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

}  // namespace tilecrush::server::rfc6455::frame_testing
