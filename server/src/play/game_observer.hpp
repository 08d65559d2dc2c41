// Who is told of what happens to games: rooms follow their games through
// GameObserver, and the parts of the game service tell them through the one
// GameObservers list they are given, so no part points back up at rooms.
//
// Thread safety: observers are added before traffic starts and removed
// after it ends; telling them is safe from any thread in between.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "net/connection.hpp"
#include "play/live_game.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::server {

// Told of what happens to games, under the game's lock (so in the order it
// happened); must not block.
class GameObserver {
 public:
  virtual ~GameObserver() = default;
  // After every accepted move, undo (no events) or resign.
  virtual void on_game_progress(LiveGame& live, const game::EventList& events) = 0;
  // After a player resumed a game on `conn`.
  virtual void on_resume(const std::shared_ptr<Connection>& conn, LiveGame& live) = 0;
};

class GameObservers {
 public:
  void add(GameObserver& observer) { observers_.push_back(&observer); }
  void remove(GameObserver& observer) { std::erase(observers_, &observer); }

  void progress(LiveGame& live, const game::EventList& events) const {
    for (GameObserver* o : observers_) o->on_game_progress(live, events);
  }
  void resumed(const std::shared_ptr<Connection>& conn, LiveGame& live) const {
    for (GameObserver* o : observers_) o->on_resume(conn, live);
  }

 private:
  std::vector<GameObserver*> observers_;
};

}  // namespace tilecrush::server
