// The end of a WebSocket session: the closing handshake from either side,
// the lingering close after a broken stream, and the one timer that bounds
// the opening handshake, pings an idle client and bounds the closing.
#include "net/session_registry.hpp"
#include "net/websocket_session.hpp"

namespace tilecrush::server {

void WebsocketSession::close(websocket::close_code code) {
  auto begin = [self = self(), code]() {
    if (self->closing_ || self->phase_ == Phase::finished) return;
    self->closing_ = true;
    self->close_code_ = code;
    if (self->phase_ == Phase::open && !self->writing_ && self->queue_.empty()) {
      self->start_close();
    }
  };
  if (executor_.running_in_this_thread()) return begin();
  net::post(executor_, std::move(begin));
}

void WebsocketSession::start_close() {
  if (close_queued_ || phase_ == Phase::finished) return;
  queue_.push_back({rfc6455::close_payload(static_cast<std::uint16_t>(close_code_)), nullptr,
                    rfc6455::Opcode::close});
  close_queued_ = true;
  if (!writing_) do_write();
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
