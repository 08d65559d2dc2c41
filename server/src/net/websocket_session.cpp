#include "net/websocket_session.hpp"

#include "net/reply_inbox.hpp"
#include "net/session_registry.hpp"

namespace tilecrush::server {
namespace {

constexpr std::size_t kFirstReadBytes = 256;

}  // namespace

WebsocketSession::WebsocketSession(tcp::socket&& socket, std::string remote,
                                   std::shared_ptr<void> ticket, MessageHandler& handler,
                                   Metrics& metrics, const SessionLimits& limits,
                                   SessionRegistry& registry)
    : ws_(std::move(socket)),
      remote_(std::move(remote)),
      ticket_(std::move(ticket)),
      handler_(handler),
      metrics_(metrics),
      limits_(limits),
      registry_(registry),
      limiter_(limits.rate_per_second, limits.rate_burst, limits.flood_close_after) {
  // Answers completed on other threads reach this one through its inbox.
  if (ws_.get_executor().target<net::io_context::executor_type>()) {
    inbox_ = &ReplyInbox::of(ws_.get_executor());
  }
}

WebsocketSession::~WebsocketSession() {
  registry_.remove(this);
}

void WebsocketSession::run(http::request<http::string_body> request) {
  // The WebSocket layer has its own timeouts from here on.
  websocket::stream_base::timeout timeouts =
      websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.handshake_timeout = limits_.handshake_timeout;
  timeouts.idle_timeout = limits_.idle_timeout;
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "tilecrush"); }));
  // The message limit is enforced by do_read/on_read, not by Beast: on a
  // message over its read_message_max, Beast sends the close frame and then
  // tears the connection down at once (its TCP teardown reads at most one
  // chunk before closing the socket). A client still sending the rest of
  // the message then gets a reset, which can destroy the close frame before
  // it is read: the client sees the connection dropped (1006), not 1009.
  // 0: no limit of Beast's own.
  ws_.read_message_max(0);
  ws_.async_accept(request, beast::bind_front_handler(
                                &WebsocketSession::on_accept,
                                std::static_pointer_cast<WebsocketSession>(shared_from_this())));
}

void WebsocketSession::on_accept(error_code ec) {
  if (ec) return finish();
  registry_.add(std::static_pointer_cast<WebsocketSession>(shared_from_this()));
  metrics_.connection_opened();
  opened_ = true;
  do_read();
}

void WebsocketSession::do_read() {
  if (finished_ || closing_ || reading_) return;
  reading_ = true;
  // The message part by part, never past one byte over the limit: a
  // message too big is known without buffering any more of it. A message's
  // first part asks for little (most messages are under 200 bytes): the
  // buffer an idle connection holds while it waits is that small.
  const std::size_t room =
      buffer_.size() == 0 ? kFirstReadBytes : limits_.max_message_bytes + 1 - buffer_.size();
  ws_.async_read_some(
      buffer_, room,
      beast::bind_front_handler(&WebsocketSession::on_read,
                                std::static_pointer_cast<WebsocketSession>(shared_from_this())));
}

void WebsocketSession::on_read(error_code ec, std::size_t) {
  if (ec) return finish();
  if (buffer_.size() > limits_.max_message_bytes) {
    // 1009 through the close handshake (start_close): async_close sends the
    // close frame, then reads and discards the rest of the message until
    // the client's own close frame (or the handshake timeout), and only then
    // tears the connection down, so the client always gets to read it.
    buffer_.consume(buffer_.size());
    return close(websocket::close_code::too_big);
  }
  reading_ = false;
  if (!ws_.is_message_done()) return do_read();
  on_message();
}

void WebsocketSession::on_message() {
  auto self = std::static_pointer_cast<WebsocketSession>(shared_from_this());
  // Every frame counts against the rate, binary ones included.
  const RateLimiter::Verdict verdict = limiter_.take();
  if (verdict == RateLimiter::Verdict::close) {
    buffer_.consume(buffer_.size());
    return close(websocket::close_code::policy_error);
  }
  Reply reply(weak_from_this(), next_slot_++);
  std::string text;
  if (ws_.got_text()) {
    text = beast::buffers_to_string(buffer_.data());
  } else if (verdict != RateLimiter::Verdict::refuse) {
    buffer_.consume(buffer_.size());
    handler_.on_binary(self, std::move(reply));
    return do_read();
  }
  buffer_.consume(buffer_.size());
  // After a large message, an idle connection does not keep its capacity.
  if (buffer_.capacity() > 8 * kFirstReadBytes) buffer_.shrink_to_fit();
  // The handler calls read_next() when the request is done, perhaps before
  // this returns.
  handler_.on_message(self, std::move(text), verdict == RateLimiter::Verdict::refuse,
                      std::move(reply));
}

void WebsocketSession::read_next() {
  net::dispatch(executor(), [self = std::static_pointer_cast<WebsocketSession>(
                                 shared_from_this())]() { self->do_read(); });
}

void WebsocketSession::fill_slot(std::uint64_t slot, std::optional<std::string> message) {
  if (slot == flush_slot_ && pending_.empty()) {
    // The usual case, answers ready in order: no reordering needed.
    ++flush_slot_;
    if (message) enqueue(std::move(*message));
    return;
  }
  pending_.emplace(slot, std::move(message));
  while (!pending_.empty() && pending_.begin()->first == flush_slot_) {
    if (pending_.begin()->second) enqueue(std::move(*pending_.begin()->second));
    pending_.erase(pending_.begin());
    ++flush_slot_;
  }
}

void WebsocketSession::push(std::string message) {
  net::post(executor(), [self = std::static_pointer_cast<WebsocketSession>(shared_from_this()),
                         m = std::move(message)]() mutable { self->enqueue(std::move(m)); });
}

void WebsocketSession::enqueue(std::string message) {
  if (finished_ || close_sent_ || cut_off_) return;
  if (queue_size() >= limits_.max_queued_messages ||
      queued_bytes_ + message.size() > limits_.max_queued_bytes) {
    // A reader this slow gets cut off rather than buffered without bound.
    // The aborted read or write ends the session (finish() is not called
    // here: a reply may be delivered inline while its sender holds locks);
    // answers arriving meanwhile are dropped, and the cut counted once.
    cut_off_ = true;
    metrics_.slow_consumer_dropped();
    error_code ignored;
    ws_.next_layer().close(ignored);
    return;
  }
  queued_bytes_ += message.size();
  queue_.push_back(std::move(message));
  if (!writing_) do_write();
}

void WebsocketSession::do_write() {
  writing_ = true;
  // Out of the queue while it is written: the queue may grow (and move its
  // strings) meanwhile.
  in_flight_ = std::move(queue_[queue_head_]);
  if (++queue_head_ == queue_.size()) {
    queue_.clear();
    queue_head_ = 0;
  }
  ws_.text(true);
  ws_.async_write(
      net::buffer(in_flight_),
      beast::bind_front_handler(&WebsocketSession::on_write,
                                std::static_pointer_cast<WebsocketSession>(shared_from_this())));
}

void WebsocketSession::on_write(error_code ec, std::size_t) {
  writing_ = false;
  if (ec) return finish();
  queued_bytes_ -= in_flight_.size();
  in_flight_.clear();
  if (queue_size() > 0) return do_write();
  // An idle connection keeps no answer's capacity.
  in_flight_.shrink_to_fit();
  if (closing_) start_close();
}

void WebsocketSession::close(websocket::close_code code) {
  net::dispatch(executor(),
                [self = std::static_pointer_cast<WebsocketSession>(shared_from_this()), code]() {
                  if (self->closing_ || self->finished_) return;
                  self->closing_ = true;
                  self->close_code_ = code;
                  if (!self->writing_ && self->queue_size() == 0) self->start_close();
                });
}

void WebsocketSession::start_close() {
  if (close_sent_ || finished_) return;
  close_sent_ = true;
  ws_.async_close(close_code_, [self = std::static_pointer_cast<WebsocketSession>(
                                    shared_from_this())](error_code) { self->finish(); });
}

void WebsocketSession::finish() {
  if (finished_) return;
  finished_ = true;
  registry_.remove(this);
  if (opened_) metrics_.connection_closed();
  handler_.on_close(shared_from_this());
}

}  // namespace tilecrush::server
