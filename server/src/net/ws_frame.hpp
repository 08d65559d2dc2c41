// RFC 6455 framing for the server's side, without extensions: reads a
// client's frames into whole messages and control frames, and writes the
// headers of the server's frames. Pure: no I/O, no clock, no allocation but
// the message being assembled.
//
// Why not Beast's websocket::stream: it keeps a 1,536-byte read buffer and a
// timer inside every stream, and a pending read holds a chain of composed
// operations; an idle connection costs kilobytes, and each message pays for
// the composition. Here a connection holds only what it has not finished
// reading (see websocket_session.hpp).
//
// Thread safety: none; a FrameReader belongs to one connection.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilecrush::server::rfc6455 {

enum class Opcode : std::uint8_t {
  continuation = 0x0,
  text = 0x1,
  binary = 0x2,
  close = 0x8,
  ping = 0x9,
  pong = 0xA,
};

// Close codes (RFC 6455 section 7.4.1) this server sends or expects.
inline constexpr std::uint16_t kCloseNormal = 1000;
inline constexpr std::uint16_t kCloseGoingAway = 1001;
inline constexpr std::uint16_t kCloseProtocolError = 1002;
inline constexpr std::uint16_t kCloseNoStatus = 1005;  // received without a code; never sent
inline constexpr std::uint16_t kCloseBadPayload = 1007;
inline constexpr std::uint16_t kClosePolicy = 1008;
inline constexpr std::uint16_t kCloseTooBig = 1009;
inline constexpr std::uint16_t kCloseInternal = 1011;

// The largest payload of a control frame.
inline constexpr std::size_t kMaxControlPayload = 125;
// The largest frame header the server writes (2 + 8 length bytes, no mask).
inline constexpr std::size_t kMaxHeaderBytes = 10;

struct ReadEvent {
  enum class Kind : std::uint8_t {
    need_more,  // every byte given was consumed; nothing complete yet
    text,       // a whole text message in `payload`, valid UTF-8
    binary,     // a whole binary message in `payload`
    ping,       // `payload`: the ping's application data (at most 125 bytes)
    pong,       // `payload`: the pong's application data
    close,      // the client's close frame: `code` (kCloseNoStatus when it
                // carried none) and its reason in `payload` (valid UTF-8)
    error,      // the stream is broken or refused: `code` is the close code
                // to send (1002 protocol error, 1007 invalid UTF-8, 1009
                // message over the limit)
  };
  Kind kind = Kind::need_more;
  std::uint16_t code = 0;
  std::string payload;
};

class FrameReader {
 public:
  // A message (all its fragments together) may hold up to
  // `max_message_bytes` payload bytes; one byte more is error 1009, known
  // from the frame header alone, before any of that frame's payload is
  // buffered.
  explicit FrameReader(std::size_t max_message_bytes) : max_message_bytes_(max_message_bytes) {}

  // Reads from data[0, size) until one event completes or the bytes run
  // out, unmasking payload bytes in place. Returns how many bytes it
  // consumed: all of them when the event is need_more; for any other kind,
  // the bytes after the event are not consumed and must be given again
  // (first) on the next call. `event` is overwritten (its payload's
  // capacity may be reused). A message whose bytes all came in this call
  // is copied into event.payload once; one assembled across calls or
  // fragments is handed over by swapping buffers, so event.payload may come
  // back with a large capacity, the caller's to free (shrink() frees only
  // the reader's). The call that reports an error consumes the bytes up to
  // where the error showed: past the first two bytes of a refused frame, or
  // past its whole header when the length gave it away (1009 included, so
  // that discard_messages() resumes inside that frame's payload), or past
  // the payload for a close frame or text message. After an error, every
  // later call returns the same error and consumes nothing, except after
  // discard_messages().
  //
  // Refused with 1002: a reserved bit set; an unknown opcode; a frame
  // without a mask; a control frame that is fragmented or over 125 bytes;
  // a continuation with no message begun; a text or binary frame while a
  // message is unfinished; a length not in its shortest form, or with the
  // top bit of the 64-bit form set; a close payload of 1 byte, or with a
  // code that may not be sent (below 1000, 1004-1006, 1015, 1016-2999, 5000
  // and up). Refused with 1007: a text message or close reason that is not
  // valid UTF-8. Refused with 1009: a message over the limit.
  std::size_t read(char* data, std::size_t size, ReadEvent& event);

  // After error 1009: from here on, the payload of every data frame is
  // skipped (whatever its size) and only control frames are reported, so
  // that the client's close frame can still be found. Clears the error.
  // The same after 1007 (the frames are still whole), and when called with
  // no error (the server is closing): the message under assembly is
  // dropped, the rest of it skipped. After 1002 the error stays: the
  // stream cannot be followed. Frames are still checked (control frames in
  // full, data frames' headers), so a later refusal is still reported.
  void discard_messages();

  // True when no frame or message is partly read: the reader holds
  // nothing a connection must keep.
  bool at_boundary() const;

  // Frees the capacity of the message being assembled (call when the
  // connection goes idle after a large message).
  void shrink();

 private:
  // The longest client frame header: 2 bytes, 8 of extended length, 4 of mask.
  static constexpr std::size_t kMaxClientHeader = 14;

  bool read_header(const char* data, std::size_t size, std::size_t& pos, ReadEvent& event);
  bool check_start(std::uint8_t b0, std::uint8_t b1, ReadEvent& event);
  bool begin_frame(const std::uint8_t* header, ReadEvent& event);
  void finish_control(const char* payload, std::size_t size, ReadEvent& event);
  void finish_message(ReadEvent& event);
  bool fail(std::uint16_t code, ReadEvent& event);

  std::size_t max_message_bytes_;
  // The fragments of the message being assembled. While a control frame
  // split across reads is being read, its payload sits after them (at most
  // 125 bytes, cut off when it is reported), so that a connection holds no
  // buffer but this one.
  std::string message_;
  std::uint64_t frame_left_ = 0;  // payload bytes of the current frame not yet read
  std::array<std::uint8_t, kMaxClientHeader> header_{};  // a header split across reads
  std::array<std::uint8_t, 4> mask_{};
  std::uint8_t header_have_ = 0;   // bytes of header_ filled
  std::uint8_t mask_phase_ = 0;    // index into mask_ of the next payload byte
  std::uint8_t opcode_ = 0;        // of the current frame
  std::uint8_t control_size_ = 0;  // payload size of the current control frame
  std::uint16_t error_ = 0;        // the close code of the error, 0 while none
  bool in_payload_ = false;        // the current frame's header has been read
  bool fin_ = false;               // of the current frame
  bool message_open_ = false;      // a data message has begun and not ended
  bool message_text_ = false;      // ... and it is a text message
  bool skip_frame_ = false;        // the current data frame's payload is skipped
  bool discarding_ = false;        // discard_messages() was called
};

// Writes the header of one final, unmasked frame of `opcode` carrying
// `length` payload bytes into `out` (room for kMaxHeaderBytes); returns the
// header's size (2, 4 or 10).
std::size_t write_header(std::uint8_t* out, Opcode opcode, std::uint64_t length);

// A close frame's payload: `code` in network byte order, then `reason`
// (cut to fit 125 bytes in all, on a UTF-8 character boundary).
std::string close_payload(std::uint16_t code, std::string_view reason = {});

}  // namespace tilecrush::server::rfc6455
