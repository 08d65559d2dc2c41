#include "play/game_service.hpp"

namespace tilecrush::server {

GameService::GameService(storage::Database& db, Metrics& metrics, NowFn now, BoardKeys& keys,
                         Competitions& competitions)
    : now_(std::move(now)),
      db_pool_(std::make_unique<net::thread_pool>(2)),
      loader_(db, competitions, games_, *db_pool_, now_),
      closer_(db, metrics, games_, loader_, now_),
      starter_(db, metrics, keys, competitions, games_, *db_pool_, now_),
      commands_(db, metrics, games_, loader_, closer_, observers_, now_),
      players_(db, *db_pool_, now_) {}

GameService::~GameService() {
  stop();
}

void GameService::stop() {
  if (db_pool_) db_pool_->join();
}

void GameService::post_to_pool(std::function<void()> work) {
  net::post(*db_pool_, std::move(work));
}

std::size_t GameService::evict_idle(std::chrono::milliseconds idle) {
  return games_.evict_idle(now_() - idle.count());
}

}  // namespace tilecrush::server
