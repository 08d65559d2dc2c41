// The year benchmark's fill at a tiny size (2 days x 9 boards x 5 entries),
// on SQLite and (the "pg." run) on PostgreSQL: the dailies are the server's
// (ids, keys matching their commitments), closed, with full leaderboards,
// and the named player's streak counts every day in every mode.
#include "year_fill.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "ops/clock.hpp"
#include "play/competitions.hpp"
#include "test_database.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/storage/database.hpp"

namespace year_bench {
namespace {

namespace game = tilecrush::game;
namespace server = tilecrush::server;

constexpr std::int64_t kDayMs = 86'400'000;
// 2026-03-01T00:00:00Z: the fill's "today"; its days are Feb 27 and 28.
constexpr std::int64_t kToday = 1'772'323'200'000;

class YearFillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "tilecrush-yearfill-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    scratch_ = std::make_unique<tilecrush::testing::ScratchDatabase>(dir_, "year.db");
    storage::Options options;
    options.path = scratch_->location();
    db_ = std::make_unique<storage::Database>(options);
  }
  void TearDown() override {
    db_.reset();
    scratch_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  FillOptions tiny() const {
    FillOptions o;
    o.days = 2;
    o.entries = 5;
    o.players = 6;
    o.today_start = kToday;
    o.progress = false;
    return o;
  }

  std::filesystem::path dir_;
  std::unique_ptr<tilecrush::testing::ScratchDatabase> scratch_;
  std::unique_ptr<storage::Database> db_;
};

TEST_F(YearFillTest, FillsClosedDailiesWithFullBoardsAndAStreak) {
  const FillReport report = YearFill(*db_, tiny()).run();
  ASSERT_TRUE(report.ok) << report.error;
  EXPECT_EQ(report.boards, 18);
  EXPECT_EQ(report.boards_skipped, 0);
  EXPECT_EQ(report.entries_added, 90);
  EXPECT_EQ(report.writes_found_done, 0u);

  int boards = 0;
  for (std::int64_t day = kToday - 2 * kDayMs; day < kToday; day += kDayMs) {
    const std::string date = server::utc_date(day);
    for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
      for (const game::Preset& p : game::presets(mode)) {
        const std::string id = server::Competitions::daily_id(date, mode, p.name);
        const auto c = db_->find_competition(id);
        ASSERT_TRUE(c.has_value()) << id;
        ++boards;
        EXPECT_TRUE(c->daily) << id;
        EXPECT_TRUE(c->closed) << id;
        EXPECT_EQ(c->seed, date);
        EXPECT_EQ(c->opens_at, day);
        EXPECT_EQ(c->closes_at, day + kDayMs);
        const storage::BoardKey key{mode, std::string(p.name), date, id};
        const auto board = db_->find_board(key);
        ASSERT_TRUE(board.has_value()) << id;
        EXPECT_EQ(game::commitment(board->key), c->commitment) << id;
        const auto page = db_->leaderboard(key, 10, 0);
        EXPECT_EQ(page.total, 5) << id;
        for (const auto& e : page.entries) {
          EXPECT_GE(e.finished_at, day) << id;
          EXPECT_LT(e.finished_at, day + kDayMs) << id;
          EXPECT_EQ(e.attempts, 1) << id;
        }
        EXPECT_TRUE(db_->leaderboard_around(key, "bench-daily", 0).has_value()) << id;
      }
    }
  }
  EXPECT_EQ(boards, 18);
  // Nothing left for a server to close; today's dailies exist, open.
  EXPECT_TRUE(db_->competitions(storage::CompetitionState::to_close, kToday + 1000, 100).empty());
  const auto today = db_->find_competition(
      server::Competitions::daily_id(server::utc_date(kToday), game::Mode::same, "classic"));
  ASSERT_TRUE(today.has_value());
  EXPECT_FALSE(today->closed);

  const auto player = db_->find_player_by_name("bench-daily");
  ASSERT_TRUE(player.has_value());
  EXPECT_EQ(player->games_played, 18);
  const auto streaks = db_->player_streaks(player->id);
  ASSERT_EQ(streaks.size(), 3u);
  for (const auto& s : streaks) {
    EXPECT_EQ(s.last_run, 2) << game::to_string(s.mode);
    EXPECT_EQ(s.best, 2) << game::to_string(s.mode);
    EXPECT_EQ(s.last_day, kToday / kDayMs - 1) << game::to_string(s.mode);
    EXPECT_EQ(storage::current_streak(s, kToday / kDayMs), 2);
  }
  // Every daily's season points: February's standings of each mode hold the
  // player's boards of both days (one daily per preset a day).
  for (const game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
    const auto around = db_->season_around({"2026-02", mode}, "bench-daily", 0);
    ASSERT_TRUE(around.has_value()) << game::to_string(mode);
    ASSERT_EQ(around->entries.size(), 1u);
    EXPECT_EQ(around->entries[0].boards, static_cast<std::int64_t>(2 * game::presets(mode).size()))
        << game::to_string(mode);
  }
}

TEST_F(YearFillTest, ASecondRunFindsTheDatabaseFull) {
  ASSERT_TRUE(YearFill(*db_, tiny()).run().ok);
  const FillReport again = YearFill(*db_, tiny()).run();
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.entries_added, 0);
  EXPECT_EQ(again.boards_skipped, 18);
  const auto player = db_->find_player_by_name("bench-daily");
  ASSERT_TRUE(player.has_value());
  EXPECT_EQ(player->games_played, 18);
}

TEST_F(YearFillTest, ATopUpAddsOnlyWhatIsMissing) {
  FillOptions small = tiny();
  small.entries = 3;
  ASSERT_TRUE(YearFill(*db_, small).run().ok);
  const FillReport more = YearFill(*db_, tiny()).run();
  ASSERT_TRUE(more.ok) << more.error;
  EXPECT_EQ(more.entries_added, 18 * 2);
  const storage::BoardKey key{game::Mode::match3, "classic", "2026-02-28",
                              "daily-2026-02-28-match3-classic"};
  EXPECT_EQ(db_->leaderboard(key, 0, 0).total, 5);
  const auto player = db_->find_player_by_name("bench-daily");
  ASSERT_TRUE(player.has_value());
  EXPECT_EQ(player->games_played, 18);
}

}  // namespace
}  // namespace year_bench
