// The server's side of the WebSocket opening handshake (RFC 6455 section
// 4.2): checks an upgrade request and writes the 101 answer. No extension
// (permessage-deflate) and no subprotocol is ever agreed to.
#pragma once

#include <string>
#include <string_view>

#include "net/net.hpp"

namespace tilecrush::server::rfc6455 {

struct UpgradeCheck {
  // 0 when the request may be upgraded; else the HTTP status to refuse it
  // with (400, or 426 for a version other than 13) and why.
  unsigned status = 0;
  std::string reason;
  std::string accept;  // Sec-WebSocket-Accept, when accepted
};

// `request` is an upgrade (websocket::is_upgrade: GET, HTTP/1.1 or later,
// "Connection: upgrade", "Upgrade: websocket"); this checks the rest: a
// Sec-WebSocket-Key that is the base64 of 16 bytes and
// Sec-WebSocket-Version 13.
UpgradeCheck check_upgrade(const http::request<http::string_body>& request);

// The whole 101 Switching Protocols answer for `accept`.
std::string switching_protocols(std::string_view accept);

}  // namespace tilecrush::server::rfc6455
