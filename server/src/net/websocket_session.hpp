// One WebSocket connection at /ws: reads one message at a time, hands it to
// the MessageHandler, and writes answers in request order with exactly one
// write in flight and a bounded queue.
//
// Thread safety: all members run on the connection's network thread (its
// io_context has one thread: no strand); push(), close(), read_next() and
// Reply::send() may be called from any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/connection.hpp"
#include "net/rate_limiter.hpp"
#include "net/session_limits.hpp"
#include "ops/metrics.hpp"

namespace tilecrush::server {

class SessionRegistry;

class WebsocketSession final : public Connection {
 public:
  // `ticket` holds the connection's place under the connection caps.
  WebsocketSession(tcp::socket&& socket, std::string remote, std::shared_ptr<void> ticket,
                   MessageHandler& handler, Metrics& metrics, const SessionLimits& limits,
                   SessionRegistry& registry);
  ~WebsocketSession() override;

  // Takes over an HTTP upgrade request and performs the handshake.
  void run(http::request<http::string_body> request);

  net::any_io_executor executor() override { return ws_.get_executor(); }
  void read_next() override;
  void push(std::string message) override;
  void close(websocket::close_code code) override;
  const std::string& remote_address() const override { return remote_; }

  // For graceful shutdown: true while answers are still waiting to be sent.
  bool idle() const { return next_slot_ == flush_slot_ && queue_size() == 0 && !writing_; }

 private:
  void fill_slot(std::uint64_t slot, std::optional<std::string> message) override;
  void on_accept(error_code ec);
  void do_read();
  void on_read(error_code ec, std::size_t bytes);  // a part of a message
  void on_message();                               // a whole one, in buffer_
  void enqueue(std::string message);
  std::size_t queue_size() const { return queue_.size() - queue_head_; }
  void do_write();
  void on_write(error_code ec, std::size_t bytes);
  void start_close();
  void finish();

  // On the bare socket, not beast::tcp_stream: the WebSocket layer keeps its
  // own timeouts, and tcp_stream's per-operation timer bookkeeping is paid
  // on every read and write.
  websocket::stream<tcp::socket> ws_;
  std::string remote_;
  std::shared_ptr<void> ticket_;
  MessageHandler& handler_;
  Metrics& metrics_;
  const SessionLimits& limits_;
  SessionRegistry& registry_;
  RateLimiter limiter_;
  beast::flat_buffer buffer_;

  std::uint64_t next_slot_ = 0;
  std::uint64_t flush_slot_ = 0;
  std::map<std::uint64_t, std::optional<std::string>> pending_;
  // Answers waiting to be written, from queue_head_ on. A vector, not a
  // deque: an idle connection holds no allocation for it.
  std::vector<std::string> queue_;
  std::size_t queue_head_ = 0;
  std::string in_flight_;  // the answer being written
  std::size_t queued_bytes_ = 0;
  bool reading_ = false;  // a read is in flight
  bool writing_ = false;
  bool closing_ = false;
  bool close_sent_ = false;
  bool cut_off_ = false;  // dropped for not reading (outgoing queue full)
  bool finished_ = false;
  bool opened_ = false;
  websocket::close_code close_code_ = websocket::close_code::normal;
};

}  // namespace tilecrush::server
