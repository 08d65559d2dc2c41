#include "play/live_game.hpp"

#include <vector>

namespace tilecrush::server {

std::int64_t LiveGame::duration_ms(std::int64_t end) const {
  return clock.duration_ms(game ? game->mode() : game::Mode::same, end);
}

protocol::GameViewMeta LiveGame::view_meta(std::int64_t now) const {
  return {id, clock.elapsed_ms(now), ranked, competition, attempt, commitment};
}

std::shared_ptr<LiveGame> GameRegistry::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto it = games_.find(id);
  return it == games_.end() ? nullptr : it->second;
}

std::shared_ptr<LiveGame> GameRegistry::insert(std::shared_ptr<LiveGame> game) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = games_.emplace(game->id, game);
  return it->second;
}

void GameRegistry::erase(const std::string& id, const LiveGame* expected) {
  std::lock_guard lock(mutex_);
  const auto it = games_.find(id);
  if (it != games_.end() && it->second.get() == expected) games_.erase(it);
}

void GameRegistry::retire(const std::shared_ptr<LiveGame>& game) {
  game->retired = true;
  erase(game->id, game.get());
}

std::size_t GameRegistry::evict_idle(std::int64_t idle_before) {
  std::vector<std::shared_ptr<LiveGame>> candidates;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, game] : games_) candidates.push_back(game);
  }
  std::size_t dropped = 0;
  for (const auto& game : candidates) {
    std::lock_guard game_lock(game->mutex);
    if (game->retired || game->pending_writes > 0 || game->last_used_ms >= idle_before) continue;
    game->retired = true;
    erase(game->id, game.get());
    ++dropped;
  }
  return dropped;
}

std::size_t GameRegistry::evict_finished() {
  std::vector<std::shared_ptr<LiveGame>> candidates;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, game] : games_) candidates.push_back(game);
  }
  std::size_t dropped = 0;
  for (const auto& game : candidates) {
    std::unique_lock game_lock(game->mutex, std::try_to_lock);
    if (!game_lock.owns_lock()) continue;
    if (game->retired || game->pending_writes > 0 || game->room_code) continue;
    if (!game->game || !game->game->over()) continue;
    game->retired = true;
    erase(game->id, game.get());
    ++dropped;
  }
  return dropped;
}

std::size_t GameRegistry::size() const {
  std::lock_guard lock(mutex_);
  return games_.size();
}

}  // namespace tilecrush::server
