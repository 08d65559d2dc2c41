// A player's WebSocket through nginx, as the web client connects (/ws,
// /ws?room=CODE, /ws?room=CODE&node=ID), for the cluster tests.
//
// Thread safety: none; each connection belongs to one thread.
#pragma once

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "ws_client.hpp"

namespace tilecrush::testing {

// Connected to `target` through nginx on `port` and signed in (hello with
// `token` when there is one; `token` then holds the welcome's). Throws when
// the connection or the handshake fails.
inline std::unique_ptr<WsClient> connect_via(
    unsigned short port, const std::string& target, const std::string& name, std::string& token,
    std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  auto c = std::make_unique<WsClient>(port, timeout, target);
  const json welcome = c->hello(name, token.empty() ? std::nullopt : std::optional(token));
  if (welcome["type"] != "welcome") throw std::runtime_error("hello answered " + welcome.dump());
  token = welcome.value("token", "");
  return c;
}

// join_room through nginx as the client does it: /ws?room=CODE, and on
// `moved` again through /ws?room=CODE&node=ID. Retries (every `pause`, at
// most `tries` times) while the room is not stored yet (just created), its
// dead owner's claim is not yet free, or nginx has no node for it. Null
// when it never got in; `answer` holds the last answer.
inline std::unique_ptr<WsClient> join_via_nginx(
    unsigned short port, const std::string& code, const std::string& name, std::string& token,
    json& answer, int tries = 150, std::chrono::milliseconds pause = std::chrono::milliseconds(50),
    std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  std::string target = "/ws?room=" + code;
  for (int i = 0; i < tries; ++i) {
    std::unique_ptr<WsClient> c;
    try {
      c = connect_via(port, target, name, token, timeout);
      answer = c->request({{"type", "join_room"}, {"code", code}});
    } catch (const std::exception& e) {
      target = "/ws?room=" + code;  // the named node is gone
      answer = json{{"exception", e.what()}};
      std::this_thread::sleep_for(pause);
      continue;
    }
    if (answer["type"] == "room") return c;
    if (answer["code"] == "moved") {
      target = "/ws?room=" + code + "&node=" + answer["node"].get<std::string>();
    }
    std::this_thread::sleep_for(pause);
  }
  return nullptr;
}

}  // namespace tilecrush::testing
