#include "net/ws_frame.hpp"

#include <algorithm>
#include <cstring>

#include "tilecrush/protocol/utf8.hpp"

namespace tilecrush::server::rfc6455 {
namespace {

bool is_control(std::uint8_t opcode) {
  return (opcode & 0x8u) != 0;
}

bool known_opcode(std::uint8_t opcode) {
  return opcode <= 0x2 || (opcode >= 0x8 && opcode <= 0xA);
}

// A client header's size from its second byte: 2, the extended length (0,
// 2 or 8 bytes) and the mask key (4 bytes; check_start has made sure the
// mask bit is set before this is used to wait for more bytes).
std::size_t header_size(std::uint8_t b1) {
  const unsigned length7 = b1 & 0x7Fu;
  return 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + 4;
}

// RFC 6455 section 7.4: 1004-1006 and 1015 are reserved or may only be
// reported locally, 1016-2999 are for future revisions of the protocol,
// 3000-4999 for libraries and applications. 1012-1014 were registered with
// IANA after the RFC.
bool acceptable_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
         (code >= 3000 && code <= 4999);
}

// XORs p[0, n) with the mask key, starting at key byte `phase`. Eight bytes
// at a time: the key repeats every 4 bytes, so a word of the key rotated to
// the phase serves for the whole run.
void unmask(char* p, std::size_t n, const std::array<std::uint8_t, 4>& mask, unsigned phase) {
  std::uint8_t key[8];
  for (unsigned i = 0; i < 8; ++i) key[i] = mask[(phase + i) & 3u];
  std::uint64_t word_key;
  std::memcpy(&word_key, key, sizeof word_key);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, sizeof word);
    word ^= word_key;
    std::memcpy(p + i, &word, sizeof word);
  }
  for (; i < n; ++i) p[i] = static_cast<char>(static_cast<std::uint8_t>(p[i]) ^ key[i & 7u]);
}

}  // namespace

std::size_t FrameReader::read(char* data, std::size_t size, ReadEvent& event) {
  event.kind = ReadEvent::Kind::need_more;
  event.code = 0;
  event.payload.clear();
  if (error_ != 0) {
    event.kind = ReadEvent::Kind::error;
    event.code = error_;
    return 0;
  }
  std::size_t pos = 0;
  for (;;) {
    if (!in_payload_ && !read_header(data, size, pos, event)) return pos;  // error or need_more

    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(frame_left_, size - pos));
    char* const payload = data + pos;
    pos += n;

    if (skip_frame_) {
      frame_left_ -= n;
      if (frame_left_ != 0) return pos;
      in_payload_ = false;
      if (fin_) message_open_ = false;
      continue;
    }

    unmask(payload, n, mask_, mask_phase_);
    mask_phase_ = static_cast<std::uint8_t>((mask_phase_ + n) & 3u);
    frame_left_ -= n;

    if (is_control(opcode_)) {
      if (frame_left_ == 0 && n == control_size_) {
        // The whole control frame in this buffer: straight from it.
        in_payload_ = false;
        finish_control(payload, n, event);
        return pos;
      }
      message_.append(payload, n);
      if (frame_left_ != 0) return pos;
      in_payload_ = false;
      const std::size_t start = message_.size() - control_size_;
      finish_control(message_.data() + start, control_size_, event);
      message_.resize(start);  // the message under assembly, as it was
      return pos;
    }

    if (frame_left_ == 0 && fin_ && message_.empty()) {
      // The common case, a whole message in one frame in this buffer (or a
      // final fragment after empty ones): one copy, into the capacity the
      // caller's event already has.
      event.payload.assign(payload, n);
    } else {
      message_.append(payload, n);
      if (frame_left_ != 0) return pos;
      if (!fin_) {
        in_payload_ = false;
        continue;
      }
      // Handing the buffers over costs no copy; message_ keeps the event's
      // old capacity for the next message.
      event.payload.swap(message_);
      message_.clear();
    }
    in_payload_ = false;
    message_open_ = false;
    finish_message(event);
    return pos;
  }
}

// Reads the current frame's header from data[pos, size) after the part of it
// already in header_. True when the header is whole and accepted (pos is
// then past it); false when an error was reported or every byte was taken.
bool FrameReader::read_header(const char* data, std::size_t size, std::size_t& pos,
                              ReadEvent& event) {
  const auto* in = reinterpret_cast<const std::uint8_t*>(data);
  if (header_have_ == 0 && size - pos >= 2) {
    const std::size_t need = header_size(in[pos + 1]);
    if (size - pos >= need) {
      // The whole header is here: read it in place.
      const std::uint8_t* header = in + pos;
      if (!check_start(header[0], header[1], event)) {
        pos += 2;
        return false;
      }
      pos += need;
      return begin_frame(header, event);
    }
  }
  // Split across reads: gather it into header_. The first two bytes are
  // checked as soon as they are in, so that a refused frame is reported
  // without waiting for the rest of its header.
  while (header_have_ < 2 && pos < size) header_[header_have_++] = in[pos++];
  if (header_have_ < 2) return false;
  if (!check_start(header_[0], header_[1], event)) return false;
  const std::size_t need = header_size(header_[1]);
  const std::size_t take = std::min(need - header_have_, size - pos);
  std::memcpy(header_.data() + header_have_, in + pos, take);
  header_have_ = static_cast<std::uint8_t>(header_have_ + take);
  pos += take;
  if (header_have_ < need) return false;
  header_have_ = 0;
  return begin_frame(header_.data(), event);
}

// What the first two bytes of a header tell: the bits, the opcode, the mask
// bit, a control frame's FIN and length, and the opcode against the message
// under assembly.
bool FrameReader::check_start(std::uint8_t b0, std::uint8_t b1, ReadEvent& event) {
  const bool fin = (b0 & 0x80u) != 0;
  const std::uint8_t opcode = b0 & 0x0Fu;
  if ((b0 & 0x70u) != 0 || !known_opcode(opcode) || (b1 & 0x80u) == 0) {
    return fail(kCloseProtocolError, event);
  }
  if (is_control(opcode)) {
    if (!fin || (b1 & 0x7Fu) > kMaxControlPayload) return fail(kCloseProtocolError, event);
  } else if ((opcode == static_cast<std::uint8_t>(Opcode::continuation)) != message_open_) {
    // A continuation with no message begun, or a new message while one is
    // unfinished.
    return fail(kCloseProtocolError, event);
  }
  return true;
}

// Takes a whole header (already through check_start): its length, the mask,
// and the message limit.
bool FrameReader::begin_frame(const std::uint8_t* header, ReadEvent& event) {
  std::uint64_t length = header[1] & 0x7Fu;
  const std::uint8_t* p = header + 2;
  if (length == 126) {
    length = (std::uint64_t{p[0]} << 8) | p[1];
    p += 2;
    if (length < 126) return fail(kCloseProtocolError, event);
  } else if (length == 127) {
    length = 0;
    for (int i = 0; i < 8; ++i) length = (length << 8) | p[i];
    p += 8;
    if ((length >> 63) != 0 || length <= 0xFFFF) return fail(kCloseProtocolError, event);
  }
  std::memcpy(mask_.data(), p, mask_.size());
  mask_phase_ = 0;
  opcode_ = header[0] & 0x0Fu;
  fin_ = (header[0] & 0x80u) != 0;
  frame_left_ = length;
  in_payload_ = true;
  skip_frame_ = false;
  if (is_control(opcode_)) {
    control_size_ = static_cast<std::uint8_t>(length);
    return true;
  }
  if (opcode_ != static_cast<std::uint8_t>(Opcode::continuation)) {
    message_open_ = true;
    message_text_ = opcode_ == static_cast<std::uint8_t>(Opcode::text);
  }
  if (discarding_) {
    skip_frame_ = true;
    return true;
  }
  // message_ holds only this message's earlier fragments here (a control
  // frame's bytes are cut off when it is reported), so its size never
  // exceeds the limit and the subtraction cannot wrap.
  if (length > max_message_bytes_ - message_.size()) {
    // The frame stays the current one, to be skipped after
    // discard_messages().
    skip_frame_ = true;
    return fail(kCloseTooBig, event);
  }
  return true;
}

void FrameReader::finish_control(const char* payload, std::size_t size, ReadEvent& event) {
  switch (static_cast<Opcode>(opcode_)) {
    case Opcode::ping:
      event.kind = ReadEvent::Kind::ping;
      event.payload.assign(payload, size);
      return;
    case Opcode::pong:
      event.kind = ReadEvent::Kind::pong;
      event.payload.assign(payload, size);
      return;
    default:
      break;
  }
  // A close frame.
  if (size == 0) {
    event.kind = ReadEvent::Kind::close;
    event.code = kCloseNoStatus;
    return;
  }
  if (size == 1) {
    fail(kCloseProtocolError, event);
    return;
  }
  const auto code = static_cast<std::uint16_t>((static_cast<std::uint8_t>(payload[0]) << 8) |
                                               static_cast<std::uint8_t>(payload[1]));
  if (!acceptable_close_code(code)) {
    fail(kCloseProtocolError, event);
    return;
  }
  const std::string_view reason(payload + 2, size - 2);
  if (!protocol::valid_utf8(reason)) {
    fail(kCloseBadPayload, event);
    return;
  }
  event.kind = ReadEvent::Kind::close;
  event.code = code;
  event.payload.assign(reason);
}

// A whole data message is in event.payload.
void FrameReader::finish_message(ReadEvent& event) {
  if (!message_text_) {
    event.kind = ReadEvent::Kind::binary;
    return;
  }
  // Checked whole rather than per fragment: a code point may be split
  // between fragments, and one pass over the bytes is all it costs.
  if (!protocol::valid_utf8(event.payload)) {
    fail(kCloseBadPayload, event);
    return;
  }
  event.kind = ReadEvent::Kind::text;
}

bool FrameReader::fail(std::uint16_t code, ReadEvent& event) {
  error_ = code;
  event.kind = ReadEvent::Kind::error;
  event.code = code;
  event.payload.clear();
  return false;
}

void FrameReader::discard_messages() {
  // After a protocol error the stream cannot be followed: it stays refused.
  if (error_ != 0 && error_ != kCloseTooBig && error_ != kCloseBadPayload) return;
  error_ = 0;
  discarding_ = true;
  if (in_payload_ && is_control(opcode_)) {
    // Keep the part of a split control frame already read.
    const std::size_t have = control_size_ - static_cast<std::size_t>(frame_left_);
    message_.erase(0, message_.size() - have);
    return;
  }
  // No message will be assembled again: free the buffer.
  std::string().swap(message_);
  if (in_payload_) skip_frame_ = true;
}

bool FrameReader::at_boundary() const {
  return header_have_ == 0 && !in_payload_ && !message_open_;
}

void FrameReader::shrink() {
  if (message_.empty()) {
    std::string().swap(message_);
  } else {
    message_.shrink_to_fit();
  }
}

std::size_t write_header(std::uint8_t* out, Opcode opcode, std::uint64_t length) {
  out[0] = static_cast<std::uint8_t>(0x80u | static_cast<std::uint8_t>(opcode));
  if (length < 126) {
    out[1] = static_cast<std::uint8_t>(length);
    return 2;
  }
  if (length <= 0xFFFF) {
    out[1] = 126;
    out[2] = static_cast<std::uint8_t>(length >> 8);
    out[3] = static_cast<std::uint8_t>(length);
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<std::uint8_t>(length >> (56 - 8 * i));
  return 10;
}

std::string close_payload(std::uint16_t code, std::string_view reason) {
  constexpr std::size_t kRoom = kMaxControlPayload - 2;
  if (reason.size() > kRoom) {
    // Cut before the character the limit falls in: back over its
    // continuation bytes (10xxxxxx) to its lead byte.
    std::size_t cut = kRoom;
    while (cut > 0 && (static_cast<std::uint8_t>(reason[cut]) & 0xC0u) == 0x80u) --cut;
    reason = reason.substr(0, cut);
  }
  std::string out;
  out.reserve(2 + reason.size());
  out.push_back(static_cast<char>(code >> 8));
  out.push_back(static_cast<char>(code & 0xFFu));
  out.append(reason);
  return out;
}

}  // namespace tilecrush::server::rfc6455
