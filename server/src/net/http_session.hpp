// One HTTP connection: reads a request at a time (with a deadline, so slow
// headers are cut off), routes it, and hands WebSocket upgrades on /ws over
// to a WebsocketSession.
//
// Thread safety: runs on its connection's network thread; API answers computed on
// other threads are posted back to it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "net/connection.hpp"
#include "net/session_limits.hpp"
#include "net/static_files.hpp"
#include "ops/metrics.hpp"

namespace tilecrush::server {

class SessionRegistry;

struct HttpAnswer {
  HttpAnswer() = default;
  HttpAnswer(unsigned status_code, std::string text,
             std::string type = std::string("application/json"))
      : status(status_code), body(std::move(text)), content_type(std::move(type)) {}

  unsigned status = 200;
  std::string body;
  std::string content_type = "application/json";
  // Empty: "no-store". Answers that may be kept say how long and carry
  // their validator; a 304 carries both and no body.
  std::string cache_control;
  std::string etag;
  // Further headers, name and value (a refused WebSocket upgrade's
  // Sec-WebSocket-Version).
  std::vector<std::pair<std::string, std::string>> headers;
};

// A request under /api/ or /metrics: GET (or HEAD) everywhere, POST where
// the API takes one (competitions).
struct ApiRequest {
  std::string method = "GET";  // "GET" or "POST" (HEAD is answered as GET)
  std::string target;
  std::string body;           // POST only
  std::string authorization;  // the Authorization header, verbatim
  std::string if_none_match;  // the If-None-Match header, verbatim
};

// Answers an API request; calls `done` once, on any thread.
using ApiHandler = std::function<void(ApiRequest request, std::function<void(HttpAnswer)> done)>;

// Everything an HTTP session needs, owned by the Server.
struct HttpContext {
  const StaticFiles* static_files = nullptr;  // null: no web client served
  ApiHandler api;
  MessageHandler* ws_handler = nullptr;
  Metrics* metrics = nullptr;
  const SessionLimits* limits = nullptr;
  SessionRegistry* registry = nullptr;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::string remote, std::shared_ptr<void> ticket,
              HttpContext& context);
  void run();

 private:
  void do_read();
  void on_read(error_code ec, std::size_t bytes);
  void route(http::request<http::string_body>&& request);
  void serve_static(const http::request<http::string_body>& request, std::string_view path);
  void send(http::message_generator message, bool keep_alive);
  void send_answer(const HttpAnswer& answer, unsigned version, bool keep_alive, bool head);
  void on_write(bool keep_alive, error_code ec, std::size_t bytes);
  void close();

  beast::tcp_stream stream_;
  std::string remote_;
  std::shared_ptr<void> ticket_;
  HttpContext& context_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace tilecrush::server
