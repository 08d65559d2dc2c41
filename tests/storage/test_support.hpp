// Shared helpers for the storage tests: temporary files, waiting for a
// queued write, holding the writer thread, building records.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <future>
#include <string>
#include <string_view>
#include <utility>

#include "tilecrush/storage/database.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::storage::testing {

// A fresh directory under /tmp, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tilecrush-storage-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name = "tilecrush.db") const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline Options options_for(const std::string& path) {
  Options options;
  options.path = path;
  return options;
}

// Issues one write through `issue(callback)` and waits for its result.
template <class Issue>
WriteResult wait_for(Issue&& issue) {
  auto promise = std::make_shared<std::promise<WriteResult>>();
  auto future = promise->get_future();
  issue([promise](const WriteResult& r) { promise->set_value(r); });
  return future.get();
}

// prefix followed by n in decimal ("p" 7 -> "p7").
inline std::string numbered(std::string_view prefix, std::uint64_t n) {
  std::string text(prefix);
  text += std::to_string(n);
  return text;
}

// Holds the writer thread inside a callback, so that what is queued
// meanwhile is taken into one batch once the gate opens.
class WriterGate {
 public:
  explicit WriterGate(Database& db) {
    auto entered = std::make_shared<std::promise<void>>();
    auto entered_future = entered->get_future();
    std::shared_future<void> open = open_.get_future().share();
    db.create_player(numbered("gate-", reinterpret_cast<std::uintptr_t>(this)), "-", 0,
                     [entered, open](const WriteResult&) {
                       entered->set_value();
                       open.wait();
                     });
    entered_future.wait();
  }
  ~WriterGate() { open(); }
  void open() {
    if (!opened_) {
      opened_ = true;
      open_.set_value();
    }
  }

 private:
  std::promise<void> open_;
  bool opened_ = false;
};

inline PlayerId make_player(Database& db, const std::string& name, std::int64_t created_at = 1) {
  const WriteResult r = wait_for([&](WriteCallback cb) {
    db.create_player(name, hash_token("token-" + name), created_at, std::move(cb));
  });
  EXPECT_TRUE(r.ok()) << r.message;
  return r.id;
}

inline GameRecord ranked_game(const std::string& id, PlayerId player, const BoardKey& board,
                              std::int64_t created_at = 1000) {
  GameRecord g;
  g.id = id;
  g.player_id = player;
  g.setup.mode = board.mode;
  g.setup.preset = board.preset;
  g.setup.seed = board.seed;
  g.ranked = true;
  g.created_at = created_at;
  return g;
}

// Creates a ranked game on `board` and finishes it with these figures.
inline WriteResult play_ranked(Database& db, const std::string& id, PlayerId player,
                               const BoardKey& board, std::int64_t score, std::int64_t move_count,
                               std::int64_t duration_ms, std::int64_t finished_at) {
  db.create_game(ranked_game(id, player, board));
  GameResult result;
  result.game_id = id;
  result.score = score;
  result.move_count = move_count;
  result.over_reason = game::OverReason::no_moves;
  result.finished_at = finished_at;
  result.duration_ms = duration_ms;
  return wait_for([&](WriteCallback cb) { db.finish_game(result, std::move(cb)); });
}

inline game::Move click(int x, int y) {
  return {game::MoveKind::click, {x, y}, {}};
}

}  // namespace tilecrush::storage::testing
