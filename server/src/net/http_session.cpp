#include "net/http_session.hpp"

#include "net/websocket_session.hpp"
#include "net/ws_handshake.hpp"
#include "tilecrush/protocol/http_query.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;
using protocol::http_error_body;

constexpr std::string_view kServerName = "tilecrush";
// The client is served from this origin only: no inline scripts, sockets to self.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

}  // namespace

HttpSession::HttpSession(tcp::socket&& socket, std::string remote, std::shared_ptr<void> ticket,
                         HttpContext& context)
    : stream_(std::move(socket)),
      remote_(std::move(remote)),
      ticket_(std::move(ticket)),
      context_(context) {}

void HttpSession::run() {
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->header_limit(8192);
  parser_->body_limit(context_.limits->max_http_body);
  stream_.expires_after(context_.limits->http_timeout);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return close();
  if (ec) {
    // Timeouts and oversize requests end the connection; a malformed request
    // gets a 400 first when the socket still works.
    if (ec == http::error::body_limit || ec == http::error::header_limit) {
      return send_answer({413, http_error_body(ErrorCode::bad_request, "request too large")}, 11,
                         false, false);
    }
    if (ec != beast::error::timeout &&
        ec.category() == http::make_error_code(http::error::bad_method).category()) {
      return send_answer({400, http_error_body(ErrorCode::bad_request, "malformed request")}, 11,
                         false, false);
    }
    return close();
  }
  route(parser_->release());
}

void HttpSession::route(http::request<http::string_body>&& request) {
  context_.metrics->http_request();
  const std::string target(request.target());
  const std::string_view path = std::string_view(target).substr(0, target.find('?'));
  const bool keep_alive = request.keep_alive();
  const unsigned version = request.version();

  if (websocket::is_upgrade(request)) {
    if (path != "/ws") {
      return send_answer({404, http_error_body(ErrorCode::not_found, "no WebSocket here")}, version,
                         false, false);
    }
    const rfc6455::UpgradeCheck check = rfc6455::check_upgrade(request);
    if (check.status != 0) {
      HttpAnswer refusal{check.status, http_error_body(ErrorCode::bad_request, check.reason)};
      if (check.status == 426) refusal.headers.emplace_back("Sec-WebSocket-Version", "13");
      return send_answer(refusal, version, false, false);
    }
    auto session = std::make_shared<WebsocketSession>(stream_.release_socket(), remote_, ticket_,
                                                      *context_.ws_handler, *context_.metrics,
                                                      *context_.limits, *context_.registry);
    session->run(check.accept);
    return;
  }
  const bool head = request.method() == http::verb::head;
  const bool post = request.method() == http::verb::post;
  const bool api = path == "/metrics" || path == "/api" || path.starts_with("/api/");
  if (request.method() != http::verb::get && !head && !(post && api)) {
    return send_answer(
        {405, http_error_body(ErrorCode::bad_request, "only GET and HEAD (and POST under /api/)")},
        version, keep_alive, false);
  }
  if (api) {
    ApiRequest call;
    call.method = post ? "POST" : "GET";
    call.target = target;
    if (post) call.body = std::move(request.body());
    if (const auto auth = request.find(http::field::authorization); auth != request.end()) {
      call.authorization = std::string(auth->value());
    }
    if (const auto tags = request.find(http::field::if_none_match); tags != request.end()) {
      call.if_none_match = std::string(tags->value());
    }
    context_.api(std::move(call),
                 [self = shared_from_this(), version, keep_alive, head](HttpAnswer answer) {
                   net::post(self->stream_.get_executor(),
                             [self, answer = std::move(answer), version, keep_alive, head]() {
                               self->send_answer(answer, version, keep_alive, head);
                             });
                 });
    return;
  }
  if (path == "/ws") {
    return send_answer({426, http_error_body(ErrorCode::bad_request, "WebSocket upgrade required")},
                       version, keep_alive, head);
  }
  serve_static(request, path);
}

void HttpSession::serve_static(const http::request<http::string_body>& request,
                               std::string_view path) {
  auto file = context_.static_files ? context_.static_files->resolve(path) : std::nullopt;
  auto status = http::status::ok;
  if (!file && context_.static_files && StaticFiles::is_page_address(path)) {
    // An address a person may have typed or been given: the client's own
    // page, with 404, says so in the site's language and links home
    // (web-client/js/pages/not_found.js). A missing file (a name with an
    // extension) stays a plain 404.
    file = context_.static_files->resolve("/");
    status = http::status::not_found;
  }
  if (!file) {
    return send_answer({404, "not found\n", "text/plain; charset=utf-8"}, request.version(),
                       request.keep_alive(), request.method() == http::verb::head);
  }
  http::file_body::value_type body;
  error_code ec;
  body.open(file->path.c_str(), beast::file_mode::scan, ec);
  if (ec) {
    return send_answer({404, "not found\n", "text/plain; charset=utf-8"}, request.version(),
                       request.keep_alive(), false);
  }
  const auto size = body.size();
  auto set_headers = [&](auto& res) {
    res.set(http::field::server, kServerName);
    res.set(http::field::content_type, file->content_type);
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Content-Type-Options", "nosniff");
    res.set("Content-Security-Policy", kContentSecurityPolicy);
    res.keep_alive(request.keep_alive());
  };
  if (request.method() == http::verb::head) {
    http::response<http::empty_body> res{status, request.version()};
    set_headers(res);
    res.content_length(size);
    return send(http::message_generator(std::move(res)), request.keep_alive());
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(status, request.version())};
  set_headers(res);
  res.content_length(size);
  send(http::message_generator(std::move(res)), request.keep_alive());
}

void HttpSession::send_answer(const HttpAnswer& answer, unsigned version, bool keep_alive,
                              bool head) {
  http::response<http::string_body> res{static_cast<http::status>(answer.status), version};
  res.set(http::field::server, kServerName);
  res.set(http::field::cache_control,
          answer.cache_control.empty() ? std::string_view("no-store") : answer.cache_control);
  if (!answer.etag.empty()) res.set(http::field::etag, answer.etag);
  for (const auto& [name, value] : answer.headers) res.set(name, value);
  res.set("X-Content-Type-Options", "nosniff");
  res.set(http::field::access_control_allow_origin, "*");
  res.keep_alive(keep_alive);
  if (answer.status == 304) {
    // No body and no Content-Length: the cached copy's stand.
    return send(http::message_generator(std::move(res)), keep_alive);
  }
  res.set(http::field::content_type, answer.content_type);
  if (head) {
    res.content_length(answer.body.size());
  } else {
    res.body() = answer.body;
    res.prepare_payload();
  }
  send(http::message_generator(std::move(res)), keep_alive);
}

void HttpSession::send(http::message_generator message, bool keep_alive) {
  stream_.expires_after(context_.limits->http_timeout);
  beast::async_write(
      stream_, std::move(message),
      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) return close();
  do_read();
}

void HttpSession::close() {
  error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace tilecrush::server
