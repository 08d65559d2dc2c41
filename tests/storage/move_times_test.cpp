// Each move's time offset from the game's start (GameRecord::move_times):
// kept by append, taken back by undo, loaded in order, absent from the games
// stored before offsets existed. Both backends.
#include <gtest/gtest.h>

#include <memory>

#include "codec.hpp"
#include "storage_upgrade.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

// The version just before move times (the migration is the latest step).
constexpr int kBeforeMoveTimes = kSchemaVersion - 1;

WriteResult append(Database& db, const std::string& id, std::int64_t seq, std::int64_t at_ms) {
  return wait_for([&](WriteCallback cb) {
    db.append_move(id, seq, click(static_cast<int>(seq % 8), 1), seq * 10, seq + 1, std::nullopt,
                   at_ms, std::move(cb));
  });
}

WriteResult undo(Database& db, const std::string& id, std::int64_t seq) {
  return wait_for([&](WriteCallback cb) { db.undo_move(id, seq, 0, seq, std::move(cb)); });
}

const BoardKey kBoard{game::Mode::same, "easy", "times", ""};

TEST(MoveTimes, AppendUndoAndLoadKeepOneOffsetPerMove) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "ada");
  ASSERT_TRUE(store_game(db, ranked_game("g", ada, kBoard)).ok());
  EXPECT_TRUE(db.load_game("g")->move_times.empty());
  for (std::int64_t seq = 0; seq < 4; ++seq) ASSERT_TRUE(append(db, "g", seq, 700 * seq).ok());
  ASSERT_TRUE(undo(db, "g", 3).ok());
  ASSERT_TRUE(undo(db, "g", 2).ok());
  ASSERT_TRUE(append(db, "g", 2, 9'000).ok());
  // A refused append changes nothing.
  EXPECT_FALSE(append(db, "g", 5, 10'000).ok());

  const auto g = db.load_game("g");
  ASSERT_TRUE(g.has_value());
  ASSERT_EQ(g->moves.size(), 3u);
  EXPECT_EQ(g->move_times, (std::vector<std::int64_t>{0, 700, 9'000}));
}

TEST(MoveTimes, OffsetsAreClampedToTheStoredRange) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "ada");
  ASSERT_TRUE(store_game(db, ranked_game("g", ada, kBoard)).ok());
  ASSERT_TRUE(append(db, "g", 0, -5).ok());
  ASSERT_TRUE(append(db, "g", 1, detail::kMaxMoveTime + 1).ok());
  EXPECT_EQ(db.load_game("g")->move_times, (std::vector<std::int64_t>{0, detail::kMaxMoveTime}));
}

TEST(MoveTimes, CreateKeepsThemOnlyWithOnePerMove) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "ada");
  GameRecord with = ranked_game("with", ada, kBoard);
  with.moves = {click(0, 0), click(1, 1)};
  with.move_times = {100, 2'500};
  GameRecord without = ranked_game("without", ada, kBoard);
  without.moves = {click(0, 0), click(1, 1)};
  for (const GameRecord& g : {with, without}) {
    ASSERT_TRUE(store_game(db, g).ok());
  }
  ASSERT_TRUE(append(db, "with", 2, 4'000).ok());
  ASSERT_TRUE(append(db, "without", 2, 4'000).ok());
  EXPECT_EQ(db.load_game("with")->move_times, (std::vector<std::int64_t>{100, 2'500, 4'000}));
  // Moves without offsets: the game's pace is unknown for good.
  EXPECT_TRUE(db.load_game("without")->move_times.empty());
  EXPECT_EQ(db.load_game("without")->moves.size(), 3u);
}

// A file (or database) at the version before offsets, with a game in
// progress: after the upgrade the game has none, and playing on (append,
// undo) never gives it a partial list.
TEST(MoveTimes, AGameStoredBeforeTheUpgradeHasNone) {
  TempDir dir;
  const std::string location = dir.file();
  ASSERT_TRUE(at_older_version(location, kBeforeMoveTimes, R"sql(
INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'old', 'h', 5);
INSERT INTO games (id, player_id, mode, preset, width, height, colors, refill, compress, seed,
                   rules_version, ranked, score, move_count, created_at, move_list)
VALUES ('old', 1, 'same', 'easy', 8, 8, 3, 0, 1, 's', 2, 0, 20, 2, 10, 'c00..c11..');
)sql"));
  Database db(options_for(location));
  EXPECT_EQ(db.settings().schema_version, kSchemaVersion);
  auto g = db.load_game("old");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->moves.size(), 2u);
  EXPECT_TRUE(g->move_times.empty());
  ASSERT_TRUE(append(db, "old", 2, 3'000).ok());
  ASSERT_TRUE(undo(db, "old", 2).ok());
  ASSERT_TRUE(append(db, "old", 2, 4'000).ok());
  g = db.load_game("old");
  EXPECT_EQ(g->moves.size(), 3u);
  EXPECT_TRUE(g->move_times.empty());
}

}  // namespace
}  // namespace tilecrush::storage::testing
