// Limits every connection is held to (see protocol.md and SECURITY.md).
#pragma once

#include <chrono>
#include <cstddef>

namespace tilecrush::server {

struct SessionLimits {
  std::size_t max_message_bytes = 16384;
  // Outgoing queue: a client that does not read is disconnected instead of
  // letting its queue grow.
  std::size_t max_queued_messages = 1024;
  std::size_t max_queued_bytes = 4 * 1024 * 1024;
  double rate_per_second = 100;
  double rate_burst = 200;
  std::chrono::milliseconds flood_close_after{5000};
  // WebSocket idle timeout; pings go out at half of it.
  std::chrono::seconds idle_timeout{60};
  std::chrono::seconds handshake_timeout{10};
  // A close the server starts (shutdown's 1001, a limit's close) waits this
  // long at most for the answers of the requests already read.
  std::chrono::milliseconds close_drain_timeout{2000};
  // HTTP: a request's header and body must arrive within this time.
  std::chrono::seconds http_timeout{15};
  std::size_t max_http_body = 8192;
};

}  // namespace tilecrush::server
