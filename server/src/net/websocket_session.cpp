#include "net/websocket_session.hpp"

#include <cassert>
#include <span>

#include "net/reply_inbox.hpp"
#include "net/session_registry.hpp"
#include "net/ws_handshake.hpp"

namespace tilecrush::server {
namespace {

// Each readiness reads up to this much into the thread's buffer: a whole
// message at the limit, and many small ones pipelined, in one call.
constexpr std::size_t kReadBytes = 64 * 1024;
// The input buffer capacity an idle connection keeps; past it, it is given back.
constexpr std::size_t kKeptInputBytes = 1024;

char* thread_buffer() {
  thread_local const std::unique_ptr<char[]> buffer(new char[kReadBytes]);
  return buffer.get();
}

WebsocketSession::Executor executor_of(tcp::socket& socket) {
  const auto* executor = socket.get_executor().target<WebsocketSession::Executor>();
  assert(executor && "a WebsocketSession runs on an io_context");
  return *executor;
}

void shrink_if_above(std::string& buffer, std::size_t keep) {
  if (buffer.capacity() > keep) std::string().swap(buffer);
}

}  // namespace

WebsocketSession::WebsocketSession(tcp::socket&& socket, std::string remote,
                                   std::shared_ptr<void> ticket, MessageHandler& handler,
                                   Metrics& metrics, const SessionLimits& limits,
                                   SessionRegistry& registry)
    : executor_(executor_of(socket)),
      socket_(executor_),
      timer_(executor_),
      remote_(std::move(remote)),
      ticket_(std::move(ticket)),
      handler_(handler),
      metrics_(metrics),
      limits_(limits),
      registry_(registry),
      limiter_(limits.rate_per_second, limits.rate_burst, limits.flood_close_after),
      reader_(limits.max_message_bytes),
      frames_(limits.max_queued_messages, limits.max_queued_bytes) {
  // The same descriptor, on a socket typed with the context's own executor
  // (no type-erased executor copied per operation). On failure the socket
  // stays closed and run() ends the session.
  error_code ec;
  const tcp::endpoint local = socket.local_endpoint(ec);
  if (!ec) {
    const int fd = socket.release(ec);
    if (!ec) socket_.assign(local.protocol(), fd, ec);
    if (!ec) socket_.non_blocking(true, ec);
  }
  // Answers completed on other threads reach this one through its inbox.
  inbox_ = &ReplyInbox::of(executor_.context());
}

WebsocketSession::~WebsocketSession() {
  registry_.remove(this);
}

void WebsocketSession::run(const std::string& accept) {
  arm_timer(limits_.handshake_timeout);
  // The 101 answer lives in the handler until it is written.
  auto answer = std::make_shared<const std::string>(rfc6455::switching_protocols(accept));
  net::async_write(
      socket_, net::buffer(*answer),
      [self = self(), answer](error_code ec, std::size_t) { self->on_handshake_written(ec); });
}

void WebsocketSession::on_handshake_written(error_code ec) {
  if (phase_ == Phase::finished) return;
  if (ec) return finish();
  registry_.add(self());
  metrics_.connection_opened();
  opened_ = true;
  phase_ = Phase::open;
  last_received_ = Clock::now();
  arm_timer(limits_.idle_timeout / 2);
  if (!frames_.empty()) do_write();
  if (closing_) return start_close();
  pump();
}

// ---- reading -------------------------------------------------------------

void WebsocketSession::read_next() {
  if (executor_.running_in_this_thread() && in_pump_) {
    // The handler finished the message while consume() is on the stack:
    // its loop goes on with the next one.
    awaiting_ = false;
    return;
  }
  // Never inline otherwise: the caller (a request's last owner) may hold
  // locks that the next message's handler takes.
  net::post(executor_, [self = self()]() {
    self->awaiting_ = false;
    self->pump();
  });
}

void WebsocketSession::pump() {
  if (phase_ == Phase::finished || awaiting_ || in_pump_ || close_received_ || broken_) return;
  if (!socket_.is_open()) return finish();
  bool more = true;
  if (inpos_ < inbuf_.size()) {
    in_pump_ = true;
    more = consume(inbuf_.data() + inpos_, inbuf_.size() - inpos_, true);
    in_pump_ = false;
  }
  if (more && !awaiting_ && phase_ != Phase::finished) wait_readable();
}

void WebsocketSession::wait_readable() {
  if (waiting_) return;
  waiting_ = true;
  socket_.async_wait(Socket::wait_read, [self = self()](error_code ec) { self->on_readable(ec); });
}

void WebsocketSession::on_readable(error_code ec) {
  waiting_ = false;
  if (phase_ == Phase::finished) return;
  if (ec) return finish();
  char* const buffer = thread_buffer();
  for (;;) {
    const std::size_t n = socket_.read_some(net::buffer(buffer, kReadBytes), ec);
    if (ec == net::error::would_block || ec == net::error::try_again) return wait_readable();
    if (ec) return finish();  // the client went away (or reset)
    last_received_ = Clock::now();
    ping_sent_ = false;
    if (!lingering_) {
      in_pump_ = true;
      const bool more = consume(buffer, n, false);
      in_pump_ = false;
      if (!more || awaiting_ || phase_ == Phase::finished) return;
    }
    // A short read emptied the socket: the next bytes make it ready again.
    if (n < kReadBytes) return wait_readable();
  }
}

bool WebsocketSession::consume(char* data, std::size_t size, bool from_inbuf) {
  rfc6455::ReadEvent event;
  for (;;) {
    const std::size_t used = reader_.read(data, size, event);
    data += used;
    size -= used;
    switch (event.kind) {
      case rfc6455::ReadEvent::Kind::need_more:
        if (from_inbuf) {
          inbuf_.clear();
          inpos_ = 0;
          shrink_if_above(inbuf_, kKeptInputBytes);
        }
        if (reader_.at_boundary()) reader_.shrink();
        return true;
      case rfc6455::ReadEvent::Kind::ping:
        enqueue({std::move(event.payload), nullptr, rfc6455::Opcode::pong});
        break;
      case rfc6455::ReadEvent::Kind::pong:
        break;
      case rfc6455::ReadEvent::Kind::close:
        close_received_ = true;
        if (!close_queued_) {
          // Echo the client's code (none when it sent none), after the
          // answers already queued.
          closing_ = true;
          frames_.push({event.code == rfc6455::kCloseNoStatus ? std::string()
                                                              : rfc6455::close_payload(event.code),
                        nullptr, rfc6455::Opcode::close});
          close_queued_ = true;
          if (!frames_.writing()) do_write();
        } else if (phase_ == Phase::closing) {
          // The answer to our close frame: the handshake is complete.
          finish();
        }
        return false;
      case rfc6455::ReadEvent::Kind::error:
        if (event.code == rfc6455::kCloseTooBig) {
          // 1009 after the answers due; the rest of the message is
          // skipped while looking for the client's close frame.
          reader_.discard_messages();
          close(websocket::close_code::too_big);
          break;
        }
        broken_ = true;
        close(static_cast<websocket::close_code>(event.code));
        return false;
      case rfc6455::ReadEvent::Kind::text:
      case rfc6455::ReadEvent::Kind::binary: {
        if (closing_) break;  // no message is handled once closing
        // What follows the message is kept before the handler runs.
        if (from_inbuf) {
          inpos_ = static_cast<std::size_t>(data - inbuf_.data());
        } else if (size > 0) {
          inbuf_.assign(data, size);
          inpos_ = 0;
          from_inbuf = true;
        }
        awaiting_ = true;
        on_message(std::move(event.payload), event.kind == rfc6455::ReadEvent::Kind::text);
        if (awaiting_ || phase_ == Phase::finished || close_received_ || broken_) return true;
        if (from_inbuf) {
          data = inbuf_.data() + inpos_;
          size = inbuf_.size() - inpos_;
        }
        break;
      }
    }
  }
}

void WebsocketSession::on_message(std::string text, bool is_text) {
  // Every message counts against the rate, binary ones included.
  const RateLimiter::Verdict verdict = limiter_.take();
  if (verdict == RateLimiter::Verdict::close) {
    awaiting_ = false;
    return close(websocket::close_code::policy_error);
  }
  Reply reply(weak_from_this(), replies_.take());
  if (!is_text) {
    text.clear();
    if (verdict != RateLimiter::Verdict::refuse) {
      handler_.on_binary(self(), std::move(reply));
      awaiting_ = false;
      return;
    }
  }
  // The handler calls read_next() when the request is done, perhaps before
  // this returns.
  handler_.on_message(self(), std::move(text), verdict == RateLimiter::Verdict::refuse,
                      std::move(reply));
}

// ---- writing -------------------------------------------------------------

void WebsocketSession::fill_slot(std::uint64_t slot, std::optional<std::string> message) {
  replies_.fill(slot, std::move(message), [this](std::string text) {
    enqueue({std::move(text), nullptr, rfc6455::Opcode::text});
  });
  // The last answer a close waits for (or a slot released without one).
  if (closing_) close_when_answered();
}

void WebsocketSession::push(SharedText message) {
  net::post(executor_, [self = self(), m = std::move(message)]() mutable {
    self->enqueue({std::string(), std::move(m), rfc6455::Opcode::text});
  });
}

void WebsocketSession::enqueue(OutgoingFrame message) {
  if (phase_ == Phase::finished || close_queued_ || cut_off_) return;
  if (!frames_.push(std::move(message))) {
    // A reader this slow gets cut off rather than buffered without bound.
    // The session ends from the failed operations, or from the post below
    // (finish() is not called here: a reply may be delivered inline while
    // its sender holds locks); answers arriving meanwhile are dropped, and
    // the cut counted once.
    cut_off_ = true;
    metrics_.slow_consumer_dropped();
    error_code ignored;
    socket_.close(ignored);
    net::post(executor_, [self = self()]() { self->finish(); });
    return;
  }
  if (!frames_.writing() && phase_ != Phase::handshake) do_write();
}

void WebsocketSession::do_write() {
  std::span<const net::const_buffer> buffers = frames_.begin_batch();
  // At once first: a reply almost always fits in the socket's send buffer,
  // and then costs one sendmsg and no operation, allocation or completion.
  error_code ec;
  std::size_t left = net::buffer_size(buffers);
  const std::size_t total = left;
  while (left > 0) {
    const std::size_t n = socket_.write_some(buffers, ec);
    if (ec) break;
    left -= n;
    frames_.consume(n);
    buffers = frames_.unwritten();
  }
  if (!ec) {
    if (!frames_.batch_ends_with_close()) return on_write(ec, total);
    // The end of the session follows a close frame: from a handler.
    return net::post(executor_, [self = self(), total]() { self->on_write({}, total); });
  }
  if (ec && ec != net::error::would_block && ec != net::error::try_again) {
    // Ends the session from a handler of its own, never from here: a reply
    // may be delivered inline while its sender holds locks.
    return net::post(executor_, [self = self(), ec]() { self->on_write(ec, 0); });
  }
  // The rest when the socket can take it. A span, not the vector:
  // async_write keeps a copy of the sequence it is given, and copying a
  // span allocates nothing.
  net::async_write(socket_, buffers, [self = self()](error_code ec, std::size_t bytes) {
    self->on_write(ec, bytes);
  });
}

void WebsocketSession::on_write(error_code ec, std::size_t) {
  const bool wrote_close = frames_.end_batch();
  if (phase_ == Phase::finished) return;
  if (ec) return finish();
  if (wrote_close) return after_close_written();
  if (!frames_.empty()) return do_write();
  // An idle connection keeps no large batch's capacity.
  frames_.shrink();
  if (closing_) close_when_answered();
}

// ---- closing -------------------------------------------------------------
// The closing handshake from either side, the lingering close after a
// broken stream, and the one timer that bounds the opening handshake, pings
// an idle client and bounds the closing.

void WebsocketSession::close(websocket::close_code code) {
  auto begin = [self = self(), code]() {
    if (self->closing_ || self->phase_ == Phase::finished) return;
    self->closing_ = true;
    self->close_code_ = code;
    // Before the handshake is written no message has been read; the close
    // follows it (on_handshake_written).
    if (self->phase_ != Phase::open) return;
    // The answers of the requests already read go first, for at most the
    // drain timeout (on_timer then closes without them).
    if (!self->replies_.settled()) self->arm_timer(self->limits_.close_drain_timeout);
    self->close_when_answered();
  };
  if (executor_.running_in_this_thread()) return begin();
  net::post(executor_, std::move(begin));
}

void WebsocketSession::close_when_answered() {
  if (close_queued_ || phase_ != Phase::open || !replies_.settled()) return;
  // While frames are being written, on_write() comes back here.
  if (frames_.writing() || !frames_.empty()) return;
  start_close();
}

void WebsocketSession::start_close() {
  if (close_queued_ || phase_ == Phase::finished) return;
  frames_.push({rfc6455::close_payload(static_cast<std::uint16_t>(close_code_)), nullptr,
                rfc6455::Opcode::close});
  close_queued_ = true;
  if (!frames_.writing()) do_write();
}

void WebsocketSession::after_close_written() {
  if (close_received_) {
    // The client closed first and has had our answer: nothing more will
    // come from it, so the socket can close without a reset.
    error_code ignored;
    socket_.shutdown(Socket::shutdown_send, ignored);
    return finish();
  }
  if (broken_ || cut_off_) return linger();
  // Wait (bounded) for the client's close frame, still reading frames.
  phase_ = Phase::closing;
  arm_timer(limits_.handshake_timeout);
  pump();
}

void WebsocketSession::linger() {
  lingering_ = true;
  phase_ = Phase::closing;
  error_code ignored;
  socket_.shutdown(Socket::shutdown_send, ignored);
  arm_timer(limits_.handshake_timeout);
  wait_readable();
}

void WebsocketSession::arm_timer(Clock::duration after) {
  // Setting the expiry cancels the wait in flight (its handler sees
  // operation_aborted and does nothing).
  timer_.expires_after(after);
  timer_.async_wait([self = self()](error_code ec) { self->on_timer(ec); });
}

void WebsocketSession::on_timer(error_code ec) {
  if (ec == net::error::operation_aborted || phase_ == Phase::finished) return;
  // A wait that had already expired when the timer was set again (its
  // handler queued, too late to be cancelled): the new deadline stands.
  if (timer_.expiry() > Clock::now()) return;
  if (phase_ != Phase::open) return finish();  // handshake or closing overdue
  // A close still waiting for answers after the drain timeout: it goes
  // without them (those arriving later are dropped).
  if (closing_ && !close_queued_) return start_close();
  const Clock::duration half = limits_.idle_timeout / 2;
  const Clock::time_point now = Clock::now();
  if (awaiting_ || now - last_received_ < half) {
    // Heard from recently (or busy with its message): check again later.
    return arm_timer(awaiting_ ? half : last_received_ + half - now);
  }
  if (ping_sent_) return finish();  // silent for the whole idle timeout
  ping_sent_ = true;
  enqueue({std::string(), nullptr, rfc6455::Opcode::ping});
  arm_timer(half);
}

void WebsocketSession::finish() {
  if (phase_ == Phase::finished) return;
  phase_ = Phase::finished;
  error_code ignored;
  timer_.cancel();
  socket_.close(ignored);
  registry_.remove(this);
  if (opened_) metrics_.connection_closed();
  handler_.on_close(shared_from_this());
}

}  // namespace tilecrush::server
