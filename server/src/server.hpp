// The whole server in one object: storage, game service, HTTP API, listener
// and the network threads. main() and the integration tests both use it.
//
// Thread safety: start() and stop() are called from one controlling thread.
#pragma once

#include <memory>
#include <thread>
#include <vector>

#include "board_keys.hpp"
#include "competitions.hpp"
#include "config.hpp"
#include "connection_limits.hpp"
#include "game_service.hpp"
#include "http_api.hpp"
#include "listener.hpp"
#include "metrics.hpp"
#include "session_registry.hpp"
#include "static_files.hpp"

namespace tilecrush::server {

class RoomService;

class Server {
 public:
  // Opens the database and binds the port; throws std::exception when either fails.
  explicit Server(const Config& config);
  ~Server();

  // Starts the network threads and returns.
  void start();
  // Graceful stop: no new connections; queued writes are committed and
  // their answers sent; every connection is closed (1001); the database is
  // flushed and closed. Idempotent.
  void stop();

  unsigned short port() const { return listener_->port(); }
  Metrics& metrics() { return metrics_; }
  storage::Database& database() { return *db_; }
  GameService& games() { return *service_; }

 private:
  void schedule_eviction();
  // Every second: competitions past their close get their closing work
  // (on the game service's pool), and the next day's dailies are created.
  void schedule_closing();

  Config config_;
  net::io_context ioc_;
  Metrics metrics_;
  SessionLimits limits_;
  SessionRegistry registry_;
  std::shared_ptr<ConnectionLimits> connection_limits_;
  std::unique_ptr<StaticFiles> static_files_;
  std::unique_ptr<storage::Database> db_;
  std::function<std::int64_t()> now_;
  std::unique_ptr<BoardKeys> board_keys_;
  std::unique_ptr<Competitions> competitions_;
  std::unique_ptr<GameService> service_;
  std::unique_ptr<RoomService> rooms_;
  std::unique_ptr<HttpApi> api_;
  HttpContext http_context_;
  std::shared_ptr<Listener> listener_;
  // The eviction timer is replaced in its own handler and cancelled by
  // stop(): both on this strand.
  net::strand<net::io_context::executor_type> eviction_strand_{net::make_strand(ioc_)};
  std::unique_ptr<net::steady_timer> eviction_timer_;
  std::unique_ptr<net::steady_timer> closing_timer_;
  // A closing pass is running on the pool: the next tick skips.
  std::shared_ptr<std::atomic<bool>> closing_busy_ = std::make_shared<std::atomic<bool>>(false);
  std::vector<std::thread> threads_;
  bool stopped_ = false;
};

}  // namespace tilecrush::server
