// HttpClient: a minimal synchronous HTTP/1.1 client for benchmarks: one
// connection kept alive to one server, one GET at a time (Boost.Beast).
// It reconnects when the server closed the connection (once per request).
//
// Thread safety: one thread per HttpClient.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <optional>
#include <string>

namespace tilecrush::bench {

class HttpClient {
 public:
  struct Response {
    int status = 0;
    std::string body;
    std::string etag;  // the ETag header, empty when none
  };

  // host is an IP address or a name, resolved once here. Throws when it
  // cannot be resolved.
  HttpClient(const std::string& host, const std::string& port);

  // GET `target` (path and query), with If-None-Match when `etag` is not
  // empty. Throws std::runtime_error when the server cannot be reached or
  // answers something that is not HTTP.
  Response get(const std::string& target, const std::string& etag = {});

 private:
  void connect();
  std::optional<Response> try_get(const std::string& target, const std::string& etag);

  boost::asio::io_context io_;
  boost::asio::ip::tcp::endpoint endpoint_;
  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  std::string host_header_;
};

}  // namespace tilecrush::bench
