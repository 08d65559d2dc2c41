#include "net/listener.hpp"

#include <iostream>

namespace tilecrush::server {

Listener::Listener(IoContextPool& pool, tcp::endpoint endpoint, HttpContext& context,
                   std::shared_ptr<ConnectionLimits> limits)
    : pool_(pool), acceptor_(pool.at(0)), context_(context), limits_(std::move(limits)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
  port_ = acceptor_.local_endpoint().port();
}

void Listener::run() {
  do_accept();
}

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()]() {
    error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void Listener::do_accept() {
  acceptor_.async_accept(pool_.next(),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    // Out of descriptors and similar: keep serving; back off a little.
    std::cerr << "accept failed: " << ec.message() << "\n";
    auto timer = std::make_shared<net::steady_timer>(acceptor_.get_executor(),
                                                     std::chrono::milliseconds(50));
    timer->async_wait([self = shared_from_this(), timer](error_code) { self->do_accept(); });
    return;
  }
  error_code addr_ec;
  const tcp::endpoint remote = socket.remote_endpoint(addr_ec);
  std::string address = addr_ec ? std::string("unknown") : remote.address().to_string();
  auto ticket = limits_->try_acquire(address);
  if (!ticket) {
    context_.metrics->connection_refused();
    error_code ignored;
    socket.close(ignored);
  } else {
    socket.set_option(tcp::no_delay(true), addr_ec);
    std::make_shared<HttpSession>(std::move(socket), std::move(address), std::move(ticket),
                                  context_)
        ->run();
  }
  do_accept();
}

}  // namespace tilecrush::server
