// A synchronous keep-alive HTTP client: see http_client.hpp.
#include "http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/http.hpp>
#include <stdexcept>

namespace tilecrush::bench {

namespace http = boost::beast::http;
using boost::asio::ip::tcp;

HttpClient::HttpClient(const std::string& host, const std::string& port)
    : socket_(io_), host_header_(host + ":" + port) {
  tcp::resolver resolver(io_);
  const auto found = resolver.resolve(host, port);
  if (found.empty()) throw std::runtime_error("cannot resolve " + host_header_);
  endpoint_ = *found.begin();
}

void HttpClient::connect() {
  boost::system::error_code ignored;
  socket_.close(ignored);
  buffer_.clear();
  socket_.connect(endpoint_);
  socket_.set_option(tcp::no_delay(true));
}

std::optional<HttpClient::Response> HttpClient::try_get(const std::string& target,
                                                        const std::string& etag) {
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, host_header_);
  request.set(http::field::user_agent, "tilecrush-bench");
  if (!etag.empty()) request.set(http::field::if_none_match, etag);
  request.keep_alive(true);
  boost::system::error_code ec;
  http::write(socket_, request, ec);
  if (ec) return std::nullopt;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  http::read(socket_, buffer_, parser, ec);
  if (ec) return std::nullopt;
  auto& message = parser.get();
  Response out;
  out.status = static_cast<int>(message.result_int());
  out.body = std::move(message.body());
  if (const auto it = message.find(http::field::etag); it != message.end()) {
    out.etag = std::string(it->value());
  }
  if (!message.keep_alive()) {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }
  return out;
}

HttpClient::Response HttpClient::get(const std::string& target, const std::string& etag) {
  // A connection the server closed (or none yet) fails the first try.
  if (socket_.is_open()) {
    if (auto r = try_get(target, etag)) return std::move(*r);
  }
  connect();
  if (auto r = try_get(target, etag)) return std::move(*r);
  throw std::runtime_error("GET " + target + ": no answer from " + host_header_);
}

}  // namespace tilecrush::bench
