// How a load tool keeps its own copy of each game (to pick legal moves and
// check every state_hash) now that ranked boards are dealt from secret keys
// (rules version 2, docs/rules.md): a copy needs its board's key, which only
// the server's database holds. With --db (the server's SQLite file, on this
// machine: load runs target loopback only) the key is read from it through
// a read-only handle; without it, a Same Game copy is dealt as a practice
// game on the visible board (the same rules and the same state_hash, since
// nothing is hidden), and other modes are refused.
//
// Thread safety: copy_of() may be called from any thread (storage reads
// are thread-safe).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/views.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::bench {

class LocalCopies {
 public:
  // db_path empty: no database (Same Game only for ranked boards).
  explicit LocalCopies(const std::string& db_path) {
    if (db_path.empty()) return;
    storage::Options options;
    options.path = db_path;
    options.read_only = true;
    options.readers = 2;
    db_ = std::make_unique<storage::Database>(options);
  }

  bool has_keys() const { return db_ != nullptr; }

  // A copy of the game `view` (a GameView) started from `setup` (mode,
  // preset, seed); null when its board cannot be dealt here.
  std::unique_ptr<game::Game> copy_of(game::GameSetup setup, const nlohmann::json& view) const {
    if (setup.ranked() && db_) {
      const std::string scope = view.value("competition", nlohmann::json()).is_string()
                                    ? view["competition"].get<std::string>()
                                    : std::string();
      const auto board = db_->find_board({setup.mode, setup.preset, setup.seed, scope});
      if (!board) return nullptr;
      setup.board_key = board->key;
    } else if (setup.ranked()) {
      if (setup.mode != game::Mode::same || !view.contains("board")) return nullptr;
      setup.preset.clear();
      setup.board = protocol::board_from_rows(view["board"]);
    }
    return game::create_game(setup).game;
  }

 private:
  std::unique_ptr<storage::Database> db_;
};

}  // namespace tilecrush::bench
