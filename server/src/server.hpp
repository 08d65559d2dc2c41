// The whole server in one object: storage, game service, HTTP API, listener
// and the network threads. main() and the integration tests both use it.
//
// Thread safety: start() and stop() are called from one controlling thread.
#pragma once

#include <memory>
#include <thread>
#include <vector>

#include "dispatch/dispatcher.hpp"
#include "http/http_api.hpp"
#include "net/connection_limits.hpp"
#include "net/io_context_pool.hpp"
#include "net/listener.hpp"
#include "net/session_registry.hpp"
#include "net/static_files.hpp"
#include "ops/config.hpp"
#include "ops/metrics.hpp"
#include "play/board_keys.hpp"
#include "play/competitions.hpp"
#include "play/game_service.hpp"
#include "rooms/room_manager.hpp"

namespace tilecrush::server {

class Server {
 public:
  // Opens the database and binds the port; throws std::exception when either fails.
  explicit Server(const Config& config);
  ~Server();

  // Starts the network threads and returns.
  void start();
  // Graceful stop: no new connections; queued writes are committed; every
  // connection sends the answers of the requests it has read, then closes
  // (1001); the database is flushed and closed. Idempotent.
  void stop();

  unsigned short port() const { return listener_->port(); }
  Metrics& metrics() { return metrics_; }
  storage::Database& database() { return db_; }
  GameService& games() { return service_; }

 private:
  void schedule_eviction();
  // Every second: competitions past their close get their closing work
  // (on the game service's pool), and the next day's dailies are created.
  void schedule_closing();

  Config config_;
  IoContextPool pool_;
  Metrics metrics_;
  SessionLimits limits_;
  SessionRegistry registry_;
  std::shared_ptr<ConnectionLimits> connection_limits_;
  std::unique_ptr<StaticFiles> static_files_;  // none without a static folder
  // Built in this order, each over those before it, and destroyed in
  // reverse: the order is the dependencies'.
  storage::Database db_;
  std::function<std::int64_t()> now_;
  BoardKeys board_keys_;
  Competitions competitions_;
  GameService service_;
  RoomManager rooms_;
  Dispatcher dispatcher_;
  HttpApi api_;
  HttpContext http_context_;
  std::shared_ptr<Listener> listener_;
  // The eviction timer is replaced in its own handler and cancelled by
  // stop(): both on the first network thread.
  net::io_context::executor_type timer_executor_{pool_.at(0).get_executor()};
  std::unique_ptr<net::steady_timer> eviction_timer_;
  std::unique_ptr<net::steady_timer> closing_timer_;
  // An eviction pass is running on the pool: the next tick skips. The ticks
  // are counted on the timer's thread.
  std::shared_ptr<std::atomic<bool>> eviction_busy_ = std::make_shared<std::atomic<bool>>(false);
  unsigned eviction_ticks_ = 0;
  // A closing pass is running on the pool: the next tick skips.
  std::shared_ptr<std::atomic<bool>> closing_busy_ = std::make_shared<std::atomic<bool>>(false);
  bool stopped_ = false;
};

}  // namespace tilecrush::server
