// One WebSocket connection at /ws: reads one message at a time, hands it to
// the MessageHandler, and writes answers in request order, every answer
// queued meanwhile in the same write, with a bounded queue (OutgoingFrames,
// outgoing_frames.hpp, holds the frames to write and their bounds).
//
// The framing is ours (ws_frame.hpp) on the bare socket. An idle connection
// waits for readiness (async_wait), not in a pending read: it holds no read
// buffer. Bytes are read into one buffer per network thread, and only what
// a connection cannot handle yet (a message's rest, messages pipelined
// behind one being handled) is kept in its own. One timer per connection
// covers the handshake, the idle pings, a close's wait for the answers due
// and the closing handshake; it is not reset per message, but checks on
// expiry whether anything was received.
//
// A close the server starts (close()) handles no further message, and
// sends its close frame once every message handed to the handler has its
// answer written (or its slot released), or after the drain timeout
// (SessionLimits::close_drain_timeout).
//
// Thread safety: all members run on the connection's network thread (its
// io_context has one thread: no strand); push(), close(), read_next() and
// Reply::send() may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/connection.hpp"
#include "net/outgoing_frames.hpp"
#include "net/rate_limiter.hpp"
#include "net/reply_order.hpp"
#include "net/session_limits.hpp"
#include "net/ws_frame.hpp"
#include "ops/metrics.hpp"

namespace tilecrush::server {

class SessionRegistry;

class WebsocketSession final : public Connection {
 public:
  using Executor = net::io_context::executor_type;

  // `socket` must belong to an io_context with one thread. `ticket` holds
  // the connection's place under the connection caps.
  WebsocketSession(tcp::socket&& socket, std::string remote, std::shared_ptr<void> ticket,
                   MessageHandler& handler, Metrics& metrics, const SessionLimits& limits,
                   SessionRegistry& registry);
  ~WebsocketSession() override;

  // Answers an upgrade request already checked (rfc6455::check_upgrade) with
  // 101 and `accept`, then reads messages.
  void run(const std::string& accept);

  net::any_io_executor executor() override { return executor_; }
  void read_next() override;
  void push(SharedText message) override;
  using Connection::push;
  void close(websocket::close_code code) override;
  const std::string& remote_address() const override { return remote_; }

  // For graceful shutdown: true while answers are still waiting to be sent.
  bool idle() const { return replies_.settled() && frames_.empty() && !frames_.writing(); }

 private:
  using Clock = std::chrono::steady_clock;
  using Socket = net::basic_stream_socket<tcp, Executor>;
  using Timer = net::basic_waitable_timer<Clock, net::wait_traits<Clock>, Executor>;

  // The phases the timer watches.
  enum class Phase : std::uint8_t { handshake, open, closing, finished };

  std::shared_ptr<WebsocketSession> self() {
    return std::static_pointer_cast<WebsocketSession>(shared_from_this());
  }
  void fill_slot(std::uint64_t slot, std::optional<std::string> message) override;

  void on_handshake_written(error_code ec);
  // Handles what is buffered, then waits for more when a message may be read.
  void pump();
  // Reads what the socket has (without blocking) and handles it.
  void on_readable(error_code ec);
  void wait_readable();
  // Feeds data[0, size) to the frame reader until it needs more bytes or a
  // message must wait; keeps the rest in inbuf_. False: stop reading.
  bool consume(char* data, std::size_t size, bool from_inbuf);
  void on_message(std::string text, bool is_text);

  // Queues a frame, or cuts the connection off when its queue is full.
  void enqueue(OutgoingFrame message);
  // Writes every frame queued (at once if the socket takes it).
  void do_write();
  void on_write(error_code ec, std::size_t bytes);
  // Once closing: queues the close frame when every request read has its
  // answer written (the reply order settled, the frames queued written).
  void close_when_answered();
  // Queues the close frame after the frames queued.
  void start_close();
  // After the close frame is written: wait for the client's close frame
  // (lingering), or end at once when the handshake is done or broken.
  void after_close_written();
  // Stops sending, then reads and drops until the client closes or the
  // timer expires, so that a client still sending reads our close frame
  // rather than a reset.
  void linger();
  void arm_timer(Clock::duration after);
  void on_timer(error_code ec);
  void finish();

  Executor executor_;
  Socket socket_;
  Timer timer_;
  std::string remote_;
  std::shared_ptr<void> ticket_;
  MessageHandler& handler_;
  Metrics& metrics_;
  const SessionLimits& limits_;
  SessionRegistry& registry_;
  RateLimiter limiter_;
  rfc6455::FrameReader reader_;
  // Bytes read but not handled yet, from inpos_ on.
  std::string inbuf_;
  std::size_t inpos_ = 0;

  // The answers, back in request order before they are queued.
  ReplyOrder replies_;
  OutgoingFrames frames_;

  Clock::time_point last_received_{};
  Phase phase_ = Phase::handshake;
  websocket::close_code close_code_ = websocket::close_code::normal;
  bool awaiting_ = false;      // a message is with the handler
  bool in_pump_ = false;       // pump() is on the stack
  bool waiting_ = false;       // an async_wait for readability is pending
  bool closing_ = false;       // close() was asked for; no message is read any more
  bool close_queued_ = false;  // our close frame is queued or sent
  bool close_received_ = false;
  bool broken_ = false;  // the client's stream cannot be read further
  bool lingering_ = false;
  bool ping_sent_ = false;
  bool cut_off_ = false;  // dropped for not reading (outgoing queue full)
  bool opened_ = false;
};

}  // namespace tilecrush::server
