// Opening, migrations, pragmas, reopening, closing.
#include "schema.hpp"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <set>
#include <string_view>

#include "migrations.hpp"
#include "sqlite_connection.hpp"
#include "storage_upgrade.hpp"
#include "test_support.hpp"
#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage::testing {
namespace {

std::set<std::string> schema_objects(const std::string& path) {
  detail::SqliteConnection c(path, detail::OpenMode::read_only, std::chrono::milliseconds(1000));
  auto q = c.query("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'");
  std::set<std::string> names;
  while (q->step()) names.insert(q->get_text(0));
  return names;
}

TEST(Schema, MigratesAnEmptyFileToTheLatestVersion) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  Database db(options_for(dir.file()));
  const Settings s = db.settings();
  EXPECT_EQ(s.journal_mode, "wal");
  EXPECT_EQ(s.synchronous, 1);  // NORMAL
  EXPECT_TRUE(s.foreign_keys);
  EXPECT_EQ(s.schema_version, kSchemaVersion);

  const std::set<std::string> expected = {
      "players", "games", "games_by_player", "games_playing", "leaderboard", "leaderboard_order",
      "leaderboard_boards", "leaderboard_changes", "player_bests", "rooms", "rooms_by_code",
      "room_results", "boards", "organisers", "competitions", "competitions_by_close",
      "competitions_to_close", "attempts", "entry_flags", "games_playing_in_competition",
      "open_rooms", "open_room_players", "device_tokens", "device_tokens_by_player",
      "recovery_failures", "recovery_failures_by_player", "streak_days", "streaks",
      // history
      "games_finished_by_player",
      // seasons
      "season_boards", "season_points", "season_standings", "season_standings_order",
      "season_periods", "season_periods_by_mode",
      // archive
      "competitions_archive", "competitions_archive_by_mode", "competitions_archive_by_kind",
      "competitions_archive_by_mode_kind"};
  EXPECT_EQ(schema_objects(dir.file()), expected);
}

// A step's text is what databases in the field have run: a change of schema
// is a new step, never an edit. The texts are joined from shared pieces and
// PostgreSQL's are spelled from SQLite's (sqlite_steps_to_v6.hpp,
// pg_migrations.cpp), so this pins every step's SHA-256, byte for byte, on
// both backends. Neither needs a database.
TEST(Schema, EveryMigrationStepKeepsItsText) {
  const std::array<std::string_view, kSchemaVersion> sqlite = {
      "ae482e6d403de136084db1d07a63f8420d1d52798500b14841cb29f6d1215a12",
      "d934a5ca840f95df67c5565f6e7c531eb4cc5944781413fe21aaec9b1d65d291",
      "11e27f620af44394a72df9ff64ecccd0362253213f94e3025ab452fe05faa6fc",
      "2d5b4ee0e0aee5a986f188680c5dd929230503b065520fa1c43fc25fb2f70a05",
      "0f83109c5492deecba35a8c9f5a14a32fb523ab16a6a011699fbe3a5a3ca6f27",
      "871168a4da94bc6624ae3732573f1daa2d0df43d7a7d948323995d7b15698d65",
      "5a2c214ff6f232e8d599f94b43b8a41a5d0a14a2794af498b3a6baa4f8919b8d",
      "956152d8fd3c5f515483eaf3b2e840e5b707cf4f96bfeb8527430363f923ea9b",
      "779d6a2a4ce5a8e8a61b8e7c70890af57694a5409f050a5b3cd811b618e35d98",
      "991422ab22070df5330166f9f7645dedf6100ef22a3f1df15039af0f2b316228",
      "410d90975386562bc9d4c301c1b82ff4f92fa5b78f940412ffdc7f9900953074",
      "f885bb27be5b162cad44e5b52ed883db281e6f793fe1ea8748430bbc4a2b9102",
      "e27ffc20cadc16df80bfe679fedff1034632d8ba29d7b874a7d8a087649b8f59",
  };
  const std::array<std::string_view, kSchemaVersion - detail::kPgFirstVersion + 1> postgres = {
      "553f98ae9fcf012ccd4f6caae94d1c77a8b2e2a155904b8f1141ef504a7033c3",
      "ff6567362240e44891c2030cf2cfbfd87c31cd01629b789ef701050e3ede3f7b",
      "1931e068566fe48e569166604e7233abc1149e1ceb100e5708c666ef421cabf9",
      "35663f79ee50a4c66f0f2bd4649b7f6f902368d98811a29fd524b37d1ba243a1",
      "991422ab22070df5330166f9f7645dedf6100ef22a3f1df15039af0f2b316228",
      "410d90975386562bc9d4c301c1b82ff4f92fa5b78f940412ffdc7f9900953074",
      "0c0c301c9e00b0b2684008f56adcbb3364cdaca713b0b77011da78c933c0dc46",
      "e27ffc20cadc16df80bfe679fedff1034632d8ba29d7b874a7d8a087649b8f59",
  };
  const auto hex_digest = [](std::string_view text) { return game::to_hex(game::sha256(text)); };
  ASSERT_EQ(detail::sqlite_migrations().size(), sqlite.size());
  for (std::size_t i = 0; i < sqlite.size(); ++i) {
    EXPECT_EQ(hex_digest(detail::sqlite_migrations()[i]), sqlite[i]) << "SQLite step " << i;
  }
  ASSERT_EQ(detail::postgres_migrations().size(), postgres.size());
  for (std::size_t i = 0; i < postgres.size(); ++i) {
    EXPECT_EQ(hex_digest(detail::postgres_migrations()[i]), postgres[i]) << "PostgreSQL step " << i;
  }
}

TEST(Schema, FullSynchronousIsAnOption) {
  TempDir dir;
  Options options = options_for(dir.file());
  options.synchronous = Synchronous::full;
  Database db(options);
  EXPECT_EQ(db.settings().synchronous, 2);
}

TEST(Schema, ReopeningAppliesNothingTwice) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  {
    Database db(options_for(dir.file()));
    make_player(db, "alice");
  }
  const auto before = schema_objects(dir.file());
  Database db(options_for(dir.file()));
  EXPECT_EQ(db.settings().schema_version, kSchemaVersion);
  EXPECT_EQ(schema_objects(dir.file()), before);
  ASSERT_TRUE(db.find_player_by_name("alice").has_value());
}

TEST(Schema, UpgradesAnOlderFileKeepingItsData) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  ASSERT_TRUE(at_older_version(
      dir.file(), 1, "INSERT INTO players (name, token_hash, created_at) VALUES ('old', 'h', 5)"));
  EXPECT_EQ(schema_objects(dir.file()).count("leaderboard"), 0u);

  Database db(options_for(dir.file()));
  EXPECT_EQ(db.settings().schema_version, kSchemaVersion);
  const auto old = db.find_player_by_name("old");
  ASSERT_TRUE(old.has_value());
  const BoardKey board{game::Mode::same, "easy", "s", ""};
  ASSERT_TRUE(testing::play_ranked(db, "g1", old->id, board, 10, 3, 100, 2000).ok());
  EXPECT_EQ(db.leaderboard(board, 10, 0).total, 1);
}

// Version 4 folds the moves table into games.move_list: every game keeps its
// moves, in order, with their kinds and points.
TEST(Schema, UpgradeMovesTheMoveTableIntoEachGamesList) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  ASSERT_TRUE(at_older_version(dir.file(), 3, R"sql(
INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'old', 'h', 5);
INSERT INTO games (id, player_id, mode, preset, width, height, colors, refill, compress, seed,
                   rules_version, ranked, score, move_count, created_at)
VALUES ('a', 1, 'hidden', 'easy', 8, 8, 4, 0, 1, 's', 1, 0, 7, 5, 10),
       ('b', 1, 'match3', 'classic', 8, 8, 6, 1, 0, 's', 1, 0, 0, 1, 11),
       ('c', 1, 'same', 'easy', 8, 8, 3, 0, 1, 's', 1, 0, 0, 0, 12);
INSERT INTO moves (game_id, seq, kind, ax, ay, bx, by) VALUES
  ('a', 3, 'unselect', 39, 0, NULL, NULL), ('a', 0, 'peek', 1, 2, NULL, NULL),
  ('a', 2, 'select', 0, 39, NULL, NULL), ('a', 1, 'click', 3, 4, NULL, NULL),
  ('a', 4, 'click', 7, 7, NULL, NULL), ('b', 0, 'swap', 5, 6, 5, 7);
)sql"));
  Database db(options_for(dir.file()));
  EXPECT_EQ(schema_objects(dir.file()).count("moves"), 0u);
  using game::MoveKind;
  const std::vector<game::Move> a = {{MoveKind::peek, {1, 2}, {}},
                                     {MoveKind::click, {3, 4}, {}},
                                     {MoveKind::select, {0, 39}, {}},
                                     {MoveKind::unselect, {39, 0}, {}},
                                     {MoveKind::click, {7, 7}, {}}};
  EXPECT_EQ(db.load_game("a")->moves, a);
  const std::vector<game::Move> b = {{MoveKind::swap, {5, 6}, {5, 7}}};
  EXPECT_EQ(db.load_game("b")->moves, b);
  EXPECT_TRUE(db.load_game("c")->moves.empty());
  // The list goes on from where the table stopped.
  EXPECT_TRUE(testing::wait_for([&](WriteCallback done) {
                db.append_move("b", 1, {MoveKind::swap, {0, 0}, {1, 0}}, 0, 2, std::nullopt, 0,
                               std::move(done));
              }).ok());
  EXPECT_EQ(db.load_game("b")->moves.size(), 2u);
}

TEST(Schema, RefusesAFileFromANewerBuild) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  { Database db(options_for(dir.file())); }
  {
    detail::SqliteConnection c(dir.file(), detail::OpenMode::read_write,
                               std::chrono::milliseconds(1000));
    c.execute("PRAGMA user_version = 99");
  }
  EXPECT_THROW(Database db(options_for(dir.file())), StorageError);
}

TEST(Schema, UnopenablePathThrows) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  EXPECT_THROW(Database db(options_for(dir.file("missing-dir/x.db"))), StorageError);
}

TEST(Schema, ReadOnlyHandleNeedsAnExistingFileAndRefusesWrites) {
  TempDir dir;
  Options read_only = options_for(dir.file());
  read_only.read_only = true;
  EXPECT_THROW(Database db(read_only), StorageError);

  Database writer(options_for(dir.file()));
  Database reader(read_only);
  EXPECT_EQ(reader.settings().schema_version, kSchemaVersion);
  WriteResult result;
  reader.create_player({"bob", "h", 1}, [&](const WriteResult& r) { result = r; });
  EXPECT_EQ(result.status, WriteStatus::closed);  // reported at once
  reader.flush();
  EXPECT_FALSE(writer.find_player_by_name("bob").has_value());
}

TEST(Schema, CloseCheckpointsTheWalIntoTheMainFile) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  Database db(options_for(dir.file()));
  for (int i = 0; i < 50; ++i) db.create_player({numbered("p", i), "h", i});
  db.flush();
  const std::string wal = dir.file() + "-wal";
  ASSERT_TRUE(std::filesystem::exists(wal));
  EXPECT_GT(std::filesystem::file_size(wal), 0u);
  db.close();
  EXPECT_TRUE(!std::filesystem::exists(wal) || std::filesystem::file_size(wal) == 0);
  db.close();  // idempotent

  Options read_only = options_for(dir.file());
  read_only.read_only = true;
  Database reader(read_only);
  EXPECT_TRUE(reader.find_player_by_name("p49").has_value());
}

TEST(Schema, ReadsAfterCloseThrow) {
  TempDir dir;
  Database db(options_for(dir.file()));
  db.close();
  EXPECT_THROW(db.find_player_by_name("x"), StorageError);
}

}  // namespace
}  // namespace tilecrush::storage::testing
