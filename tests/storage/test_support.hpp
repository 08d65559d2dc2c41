// Shared helpers for the storage tests: temporary databases, waiting for a
// queued write, holding the writer thread, building records.
//
// The suite runs on either backend. With TILECRUSH_TEST_BACKEND=postgres a
// "file" is a fresh PostgreSQL schema in the database named by
// TILECRUSH_TEST_PG_URL (scripts/pg_scratch.sh starts one), dropped with
// its TempDir; without that URL the PostgreSQL run skips every test
// (backend_environment.cpp), unless TILECRUSH_TEST_PG_REQUIRED is set (the
// test command sets it), when it fails instead. Tests of SQLite's own
// files call SKIP_UNLESS_SQLITE().
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "test_database.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/storage/database.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::storage::testing {

using tilecrush::testing::postgres_run;
using tilecrush::testing::postgres_url;

// A test of SQLite's own files, settings or plans: skipped on PostgreSQL.
#define SKIP_UNLESS_SQLITE()                             \
  do {                                                   \
    if (::tilecrush::storage::testing::postgres_run()) { \
      GTEST_SKIP() << "tests SQLite's own behaviour";    \
    }                                                    \
  } while (false)

// A test of what only PostgreSQL has (its schema table, several nodes on
// one database): skipped on SQLite.
#define SKIP_UNLESS_POSTGRES()                                                        \
  do {                                                                                \
    if (!::tilecrush::storage::testing::postgres_run()) GTEST_SKIP() << "PostgreSQL"; \
  } while (false)

// A fresh directory under /tmp, removed with everything in it; file(name)
// is a database there (on PostgreSQL a fresh schema, see test_database.hpp),
// the same one for the same name.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tilecrush-storage-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    databases_.clear();
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name = "tilecrush.db") {
    auto it = databases_.find(name);
    if (it == databases_.end()) {
      it = databases_
               .emplace(name, std::make_unique<tilecrush::testing::ScratchDatabase>(path_, name))
               .first;
    }
    return it->second->location();
  }

 private:
  std::filesystem::path path_;
  std::map<std::string, std::unique_ptr<tilecrush::testing::ScratchDatabase>> databases_;
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
    db.create_player({numbered("gate-", reinterpret_cast<std::uintptr_t>(this)), "-", 0},
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
    db.create_player({name, hash_token("token-" + name), created_at}, std::move(cb));
  });
  EXPECT_TRUE(r.ok()) << r.message;
  return r.id;
}

inline WriteResult store_game(Database& db, const GameRecord& game) {
  return wait_for([&](WriteCallback cb) { db.create_game(game, std::move(cb)); });
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

// A practice game of `player` on a custom board (no preset): never ranked.
inline GameRecord custom_game(const std::string& id, PlayerId player, game::Mode mode,
                              const std::string& seed, int width, int height, int colors) {
  GameRecord g;
  g.id = id;
  g.player_id = player;
  g.setup.mode = mode;
  g.setup.seed = seed;
  g.setup.width = width;
  g.setup.height = height;
  g.setup.colors = colors;
  return g;
}

// A UTC day in milliseconds, and the day number of 2026-11-20, where the
// tests of dailies (streaks, histories) start.
inline constexpr std::int64_t kDay = 86'400'000;
inline constexpr std::int64_t kFirstDay = 20'412;

// The competition `id` on (mode, preset), open during [opens_at,
// closes_at) and made when it opens, named and seeded with its id, its
// attempts unlimited, listed, an organiser's (not a daily).
inline CompetitionRecord competition_record(const std::string& id, game::Mode mode,
                                            const std::string& preset, std::int64_t opens_at,
                                            std::int64_t closes_at) {
  CompetitionRecord comp;
  comp.id = id;
  comp.name = id;
  comp.mode = mode;
  comp.preset = preset;
  comp.seed = id;
  comp.opens_at = opens_at;
  comp.closes_at = closes_at;
  comp.created_at = opens_at;
  return comp;
}

// The daily of UTC day `day` for (mode, preset): open through that day,
// made the day before, seeded with the day's number, its attempts unlimited.
inline CompetitionRecord daily_competition(std::int64_t day, game::Mode mode,
                                           const std::string& preset) {
  CompetitionRecord comp = competition_record(
      "daily-" + std::to_string(day) + "-" + std::string(game::to_string(mode)) + "-" + preset,
      mode, preset, day * kDay, (day + 1) * kDay);
  comp.seed = std::to_string(day);
  comp.daily = true;
  comp.created_at = (day - 1) * kDay;
  return comp;
}

// The board a competition is played on: its rules and seed, a key of
// `key_byte` repeated with its commitment, made and closed with it.
inline BoardRecord competition_board(const CompetitionRecord& comp, std::uint8_t key_byte) {
  BoardRecord board;
  board.scope = comp.id;
  board.mode = comp.mode;
  board.preset = comp.preset;
  board.seed = comp.seed;
  board.key.fill(key_byte);
  board.commitment = game::commitment(board.key);
  board.created_at = comp.created_at;
  board.closes_at = comp.closes_at;
  return board;
}

// Stores `comp` on `board`, expecting it to succeed.
inline void store_competition(Database& db, const CompetitionRecord& comp,
                              const BoardRecord& board) {
  const WriteResult r =
      wait_for([&](WriteCallback cb) { db.create_competition(comp, board, std::move(cb)); });
  EXPECT_TRUE(r.ok()) << r.message;
}

// A ranked game of `player` in the competition `board` belongs to, on its
// rules, seed and key, under the default attempt rule.
inline GameRecord competition_game(const std::string& id, PlayerId player, const BoardRecord& board,
                                   std::int64_t created_at) {
  GameRecord g =
      ranked_game(id, player, {board.mode, board.preset, board.seed, board.scope}, created_at);
  g.setup.rules_version = 2;
  g.setup.board_key = board.key;
  g.competition = board.scope;
  g.attempt_rule = GameRecord::AttemptRule{};
  return g;
}

// Creates `game` and ends it with `end`: the creation's result when it
// fails (the end is then not tried), else the end's.
inline WriteResult create_and_finish(Database& db, const GameRecord& game, const GameResult& end) {
  const WriteResult made = store_game(db, game);
  if (!made.ok()) return made;
  return wait_for([&](WriteCallback cb) { db.finish_game(end, std::move(cb)); });
}

// A fixture's base for the tests of competitions and their games: a fresh
// database (made in SetUp), the boards of the competitions the test stored
// (by id), and a count of the games it made, for their ids.
class CompetitionsTest : public ::testing::Test {
 protected:
  void SetUp() override { db_ = std::make_unique<Database>(options_for(dir_.file())); }

  // Stores `comp` on a board keyed with `key_byte`, unless a competition of
  // its id is stored already; the board it is played on.
  const BoardRecord& keep_competition(const CompetitionRecord& comp, std::uint8_t key_byte) {
    auto it = boards_.find(comp.id);
    if (it == boards_.end()) {
      it = boards_.emplace(comp.id, competition_board(comp, key_byte)).first;
      store_competition(*db_, comp, it->second);
    }
    return it->second;
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::map<std::string, BoardRecord> boards_;  // by competition
  int games_ = 0;
};

inline game::Move click(int x, int y) {
  return {game::MoveKind::click, {x, y}, {}};
}

}  // namespace tilecrush::storage::testing
