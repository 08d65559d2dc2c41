// Accepts TCP connections and starts an HttpSession for each, within the
// connection caps. An accept error never stops the accept loop.
//
// Each accepted socket is given the next network thread's context
// (IoContextPool) and stays there.
//
// Thread safety: the accept loop runs on the first context of the pool;
// stop() may be called from any thread.
#pragma once

#include <memory>

#include "net/connection_limits.hpp"
#include "net/http_session.hpp"
#include "net/io_context_pool.hpp"

namespace tilecrush::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Binds and listens; throws boost::system::system_error if the address is
  // unusable (start-up only, never for a client).
  Listener(IoContextPool& pool, tcp::endpoint endpoint, HttpContext& context,
           std::shared_ptr<ConnectionLimits> limits);

  void run();
  void stop();
  unsigned short port() const { return port_; }

 private:
  void do_accept();
  void on_accept(error_code ec, tcp::socket socket);

  IoContextPool& pool_;
  tcp::acceptor acceptor_;
  HttpContext& context_;
  std::shared_ptr<ConnectionLimits> limits_;
  unsigned short port_ = 0;
};

}  // namespace tilecrush::server
