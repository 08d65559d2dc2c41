// The JSON HTTP API under /api/ and /metrics (protocol.md, "HTTP API").
//
// Thread safety: handle() may be called from any thread; answers are
// computed on the API's own thread pool (storage reads block there, never on
// the network threads) and delivered through the callback.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "http_session.hpp"
#include "metrics.hpp"
#include "tilecrush/protocol/http_query.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class HttpApi {
 public:
  using NowFn = std::function<std::int64_t()>;

  HttpApi(storage::Database& db, Metrics& metrics, NowFn now, std::string version);
  ~HttpApi();

  void handle(std::string target, std::function<void(HttpAnswer)> done);
  // Synchronous form, for tests and the thread pool.
  HttpAnswer answer(const std::string& target);
  void stop();

 private:
  HttpAnswer health() const;
  HttpAnswer daily() const;
  HttpAnswer leaderboard(const protocol::RequestTarget& target);
  HttpAnswer leaderboard_around(const protocol::RequestTarget& target);
  HttpAnswer player(const std::string& name);
  HttpAnswer finished_game(const std::string& game_id, bool verify);

  storage::Database& db_;
  Metrics& metrics_;
  NowFn now_;
  std::string version_;
  std::int64_t started_at_;
  std::unique_ptr<net::thread_pool> pool_;
};

}  // namespace tilecrush::server
