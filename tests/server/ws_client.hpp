// A blocking WebSocket + HTTP client for the integration tests: one
// connection, JSON in and out, every wait bounded by a timeout (each call
// runs an asynchronous operation to completion: Beast's stream deadlines
// only apply to those). Pings are answered while a read is waiting.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace tilecrush::testing {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

class WsClient {
 public:
  explicit WsClient(unsigned short port,
                    std::chrono::milliseconds timeout = std::chrono::seconds(10),
                    const std::string& target = "/ws");
  ~WsClient();

  void send_text(const std::string& text);
  void send_binary(const std::string& bytes);
  void send(const json& message) { send_text(message.dump()); }
  // The next text message, parsed; throws on timeout or close.
  json receive();
  // Sends with a fresh numeric id and returns the answer with that id;
  // pushed messages (no id) received meanwhile are kept in pushes().
  json request(json message);
  // The next message of the given type (from pushes() first, then the wire).
  json wait_for(const std::string& type);
  std::vector<json>& pushes() { return pushes_; }
  // Reads until the server closes; the close code, or nullopt on timeout.
  std::optional<int> wait_close();
  bool is_open() const { return ws_.is_open(); }
  // hello with a name (and token); returns the welcome.
  json hello(const std::string& name, const std::optional<std::string>& token = std::nullopt);
  // Closes the TCP connection without a close frame.
  void drop();

 private:
  // Starts one asynchronous operation (given a completion handler) and runs
  // it to the end; its error.
  template <typename Start>
  beast::error_code run(Start start);
  static void throw_if(beast::error_code ec);

  net::io_context ioc_;
  beast::websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::chrono::milliseconds timeout_;
  std::vector<json> pushes_;
  long next_id_ = 1;
};

struct HttpResult {
  unsigned status = 0;
  std::string body;
  std::string content_type;
  std::string etag;
  std::string cache_control;
  json json_body() const { return json::parse(body, nullptr, false); }
};

// GET (or another method) over a fresh connection to 127.0.0.1:port.
HttpResult http_get(unsigned short port, const std::string& target,
                    beast::http::verb method = beast::http::verb::get);
// Any request with a body and an Authorization header (empty: none).
HttpResult http_request(unsigned short port, beast::http::verb method, const std::string& target,
                        const std::string& body, const std::string& authorization = "",
                        const std::string& if_none_match = "");

}  // namespace tilecrush::testing
