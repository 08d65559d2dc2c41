#include "ws_client.hpp"

#include <stdexcept>

#include "message_log.hpp"

namespace tilecrush::testing {

WsClient::WsClient(unsigned short port, std::chrono::milliseconds timeout,
                   const std::string& target)
    : ws_(ioc_), timeout_(timeout) {
  beast::get_lowest_layer(ws_).expires_after(timeout_);
  throw_if(run([&](auto handler) {
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port), handler);
  }));
  beast::get_lowest_layer(ws_).expires_after(timeout_);
  throw_if(run([&](auto handler) {
    ws_.async_handshake("127.0.0.1:" + std::to_string(port), target, handler);
  }));
}

WsClient::~WsClient() {
  if (!ws_.is_open()) return;
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(2));
  run([&](auto handler) { ws_.async_close(beast::websocket::close_code::normal, handler); });
}

template <typename Start>
beast::error_code WsClient::run(Start start) {
  beast::error_code result;
  start([&result](beast::error_code ec, auto&&...) { result = ec; });
  ioc_.restart();
  ioc_.run();
  return result;
}

void WsClient::throw_if(beast::error_code ec) {
  if (ec) throw beast::system_error(ec);
}

void WsClient::send_text(const std::string& text) {
  beast::get_lowest_layer(ws_).expires_after(timeout_);
  ws_.text(true);
  throw_if(run([&](auto handler) { ws_.async_write(net::buffer(text), handler); }));
}

void WsClient::send_binary(const std::string& bytes) {
  beast::get_lowest_layer(ws_).expires_after(timeout_);
  ws_.binary(true);
  throw_if(run([&](auto handler) { ws_.async_write(net::buffer(bytes), handler); }));
}

json WsClient::receive() {
  beast::get_lowest_layer(ws_).expires_after(timeout_);
  buffer_.consume(buffer_.size());
  throw_if(run([&](auto handler) { ws_.async_read(buffer_, handler); }));
  json parsed = json::parse(beast::buffers_to_string(buffer_.data()), nullptr, false);
  if (parsed.is_discarded()) throw std::runtime_error("server sent invalid JSON");
  record_ws_message(parsed);
  return parsed;
}

json WsClient::request(json message) {
  const long id = next_id_++;
  message["id"] = id;
  send(message);
  for (;;) {
    json answer = receive();
    if (answer.contains("id") && answer["id"] == id) return answer;
    pushes_.push_back(std::move(answer));
  }
}

json WsClient::wait_for(const std::string& type) {
  for (auto it = pushes_.begin(); it != pushes_.end(); ++it) {
    if ((*it)["type"] == type) {
      json found = std::move(*it);
      pushes_.erase(it);
      return found;
    }
  }
  for (;;) {
    json message = receive();
    if (message["type"] == type) return message;
    pushes_.push_back(std::move(message));
  }
}

std::optional<int> WsClient::wait_close() {
  for (;;) {
    beast::get_lowest_layer(ws_).expires_after(timeout_);
    buffer_.consume(buffer_.size());
    const beast::error_code ec = run([&](auto handler) { ws_.async_read(buffer_, handler); });
    if (ec == beast::websocket::error::closed) return static_cast<int>(ws_.reason().code);
    if (ec == beast::error::timeout) return std::nullopt;
    if (!ec && ws_.got_text()) {
      json parsed = json::parse(beast::buffers_to_string(buffer_.data()), nullptr, false);
      if (!parsed.is_discarded()) record_ws_message(parsed);
    }
    if (ec)
      return ws_.reason().code ? std::optional<int>(ws_.reason().code) : std::optional<int>(-1);
  }
}

json WsClient::hello(const std::string& name, const std::optional<std::string>& token) {
  json message = {{"type", "hello"}, {"name", name}};
  if (token) message["token"] = *token;
  return request(message);
}

void WsClient::drop() {
  beast::error_code ec;
  beast::get_lowest_layer(ws_).socket().close(ec);
}

HttpResult http_get(unsigned short port, const std::string& target, beast::http::verb method) {
  return http_request(port, method, target, "");
}

HttpResult http_request(unsigned short port, beast::http::verb method, const std::string& target,
                        const std::string& body, const std::string& authorization,
                        const std::string& if_none_match) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.expires_after(std::chrono::seconds(10));
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::http::request<beast::http::string_body> req{method, target, 11};
  req.set(beast::http::field::host, "127.0.0.1");
  if (!authorization.empty()) req.set(beast::http::field::authorization, authorization);
  if (!if_none_match.empty()) req.set(beast::http::field::if_none_match, if_none_match);
  if (!body.empty()) req.set(beast::http::field::content_type, "application/json");
  req.body() = body;
  req.prepare_payload();
  beast::http::write(stream, req);
  beast::flat_buffer buffer;
  beast::http::response_parser<beast::http::string_body> parser;
  parser.skip(method == beast::http::verb::head);
  parser.body_limit(64 * 1024 * 1024);
  beast::http::read(stream, buffer, parser);
  auto res = parser.release();
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  HttpResult result{res.result_int(), res.body(),
                    std::string(res[beast::http::field::content_type]),
                    std::string(res[beast::http::field::etag]),
                    std::string(res[beast::http::field::cache_control])};
  record_http_answer(beast::http::to_string(method), target, result.status, result.content_type,
                     result.body);
  return result;
}

}  // namespace tilecrush::testing
