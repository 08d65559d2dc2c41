// What the game logic sees of one WebSocket connection, and the interface it
// implements to handle that connection's messages.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "net/net.hpp"
#include "net/reply.hpp"

namespace tilecrush::server {

// A message written to many connections (a room's update): serialised once,
// shared by every connection's queue until the last one has written it.
using SharedText = std::shared_ptr<const std::string>;

// Per-connection state owned by the game logic; touched only on the
// connection's thread.
struct ConnectionState {
  std::optional<std::int64_t> player_id;
  std::string player_name;
};

class Connection : public ReplyTarget, public std::enable_shared_from_this<Connection> {
 public:
  virtual ~Connection() = default;

  // The executor of the one network thread every handler of this
  // connection runs on, and its replies are filled on (ReplyTarget).
  net::any_io_executor executor() override = 0;
  // Reads the next message (after the request before it is done, see
  // request.hpp). Thread-safe.
  virtual void read_next() = 0;
  // Queues a message pushed by the server (no id). Thread-safe.
  virtual void push(SharedText message) = 0;
  void push(std::string message) { push(std::make_shared<const std::string>(std::move(message))); }
  // Closes with a close frame after the queued messages and the answers of
  // the requests already read (for at most SessionLimits::close_drain_timeout);
  // no message is read meanwhile. Thread-safe.
  virtual void close(websocket::close_code code) = 0;
  virtual const std::string& remote_address() const = 0;

  ConnectionState& state() { return state_; }

 private:
  ConnectionState state_;
};

// Implemented by the dispatcher.
class MessageHandler {
 public:
  virtual ~MessageHandler() = default;
  // On the connection's thread, one text message at a time: the connection
  // reads its next message only once the handler calls conn->read_next()
  // (the dispatcher's Request does, when it is done). `reply` answers this
  // message. `rate_limited`: the message exceeded the connection's rate and
  // must only be refused.
  virtual void on_message(const std::shared_ptr<Connection>& conn, std::string text,
                          bool rate_limited, Reply reply) = 0;
  // A binary frame: refused with bad_request.
  virtual void on_binary(const std::shared_ptr<Connection>& conn, Reply reply) = 0;
  // After the connection is gone (on its thread, once).
  virtual void on_close(const std::shared_ptr<Connection>& conn) = 0;
};

}  // namespace tilecrush::server
