// The frames one WebSocket connection has still to write, and the
// accounting that bounds them.
//
// Frames are queued with push(); a write takes every frame queued so far as
// one batch (begin_batch(): one header each, in a buffer sequence that points
// at the payloads, never copying them), and frames queued meanwhile wait for
// the next batch. Text frames (answers and pushed messages) count against
// the connection's limits until their batch is written; control frames
// (ping, pong, close) never do, so a close frame can always be queued.
//
// It does no I/O: the connection writes the buffers and says what was
// written (consume(), end_batch()).
//
// Thread safety: none; used on its connection's network thread only.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "net/connection.hpp"
#include "net/net.hpp"
#include "net/ws_frame.hpp"

namespace tilecrush::server {

struct OutgoingFrame {
  std::string payload;
  SharedText shared;  // instead of payload, for a message many connections write
  rfc6455::Opcode opcode = rfc6455::Opcode::text;

  std::string_view text() const { return shared ? std::string_view(*shared) : payload; }
};

class OutgoingFrames {
 public:
  // At most `max_messages` text frames, of `max_bytes` in all, queued or
  // being written at once.
  OutgoingFrames(std::size_t max_messages, std::size_t max_bytes)
      : max_messages_(max_messages), max_bytes_(max_bytes) {}

  // Queues `frame` after those queued. False, and nothing queued, when a
  // text frame would pass the limits: the reader is too slow.
  bool push(OutgoingFrame frame);

  // Whether no frame waits for a write (a batch being written aside).
  bool empty() const { return queue_.empty(); }
  // Whether a batch is being written (between begin_batch() and end_batch()).
  bool writing() const { return writing_; }

  // Starts a write of every frame queued: returns the batch's buffers.
  // Requires !writing() and !empty().
  std::span<const net::const_buffer> begin_batch();
  // The part of the batch not written yet.
  std::span<const net::const_buffer> unwritten() const { return buffers_; }
  // The first `n` bytes of unwritten() are written.
  void consume(std::size_t n);
  // Whether the batch ends with a close frame (a close frame is always the
  // last frame a connection writes).
  bool batch_ends_with_close() const;
  // The batch is written, or its write failed: its frames leave the queue
  // and the limits. Returns batch_ends_with_close().
  bool end_batch();

  // Gives back the capacity of a large batch once the connection is idle.
  void shrink();

 private:
  std::size_t max_messages_;
  std::size_t max_bytes_;
  // Frames waiting to be written; while a write is in flight, the frames it
  // carries are in writing_frames_ (swapped, so both keep their capacity).
  std::vector<OutgoingFrame> queue_;
  std::vector<OutgoingFrame> writing_frames_;
  std::vector<net::const_buffer> buffers_;
  std::string headers_;
  // Text frames queued or being written, and their bytes.
  std::size_t queued_text_ = 0;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
};

}  // namespace tilecrush::server
