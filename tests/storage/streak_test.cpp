// Daily streaks (rules.md, "Streaks"): a day counts for a player's streak
// in a mode when a ranked game of theirs on that day's daily board of that
// mode ends; consecutive days make a run; a missed day breaks it; a day
// counted late joins the runs around it. On both backends.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "schema.hpp"
#include "sqlite_connection.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

class Streaks : public CompetitionsTest {
 protected:
  void SetUp() override {
    CompetitionsTest::SetUp();
    ada_ = make_player(*db_, "Ada");
  }

  // The daily of `day` for (mode, preset), created once.
  std::string daily(std::int64_t day, game::Mode mode = game::Mode::hidden,
                    const std::string& preset = "classic") {
    CompetitionRecord comp = daily_competition(day, mode, preset);
    comp.attempts = 1;
    return keep_competition(comp, static_cast<std::uint8_t>(day & 0xff)).scope;
  }

  // A game of `player` on that daily, finished at `finished_at` (default:
  // during its day); `ranked` false makes it practice.
  WriteResult play(PlayerId player, std::int64_t day, game::Mode mode = game::Mode::hidden,
                   std::optional<std::int64_t> finished_at = std::nullopt, int limit = 0) {
    GameRecord g = competition_game(numbered("g", ++games_), player, boards_.at(daily(day, mode)),
                                    day * kDay + 1000);
    if (limit > 0) g.attempt_rule->limit = limit;
    g.attempt_rule->practice_beyond_limit = true;
    return create_and_finish(*db_, g,
                             {g.id, 100, 10, game::OverReason::resigned,
                              finished_at.value_or(day * kDay + 60'000), 5000});
  }

  // The streak of `mode` as of `today`: {current, best}, {0, 0} for none.
  std::pair<std::int64_t, std::int64_t> streak(PlayerId player, std::int64_t today,
                                               game::Mode mode = game::Mode::hidden) {
    for (const StreakRecord& s : db_->player_streaks(player)) {
      if (s.mode == mode) return {current_streak(s, today), s.best};
    }
    return {0, 0};
  }

  PlayerId ada_ = 0;
};

TEST_F(Streaks, ConsecutiveDaysMakeARunThatSurvivesTheDayBoundary) {
  EXPECT_TRUE(db_->player_streaks(ada_).empty());
  ASSERT_TRUE(play(ada_, kFirstDay).ok());
  EXPECT_EQ(streak(ada_, kFirstDay), std::make_pair(std::int64_t{1}, std::int64_t{1}));
  // The next day, before playing: yesterday's run still stands.
  EXPECT_EQ(streak(ada_, kFirstDay + 1).first, 1);
  ASSERT_TRUE(play(ada_, kFirstDay + 1).ok());
  ASSERT_TRUE(play(ada_, kFirstDay + 2).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 2), std::make_pair(std::int64_t{3}, std::int64_t{3}));
  const auto streaks = db_->player_streaks(ada_);
  ASSERT_EQ(streaks.size(), 1u);
  EXPECT_EQ(streaks[0].last_day, kFirstDay + 2);
  EXPECT_EQ(streaks[0].last_run, 3);
}

TEST_F(Streaks, AMissedDayBreaksTheRunAndTheBestStays) {
  for (std::int64_t d = 0; d < 3; ++d) ASSERT_TRUE(play(ada_, kFirstDay + d).ok());
  // Day +3 missed: on day +4 the current streak is gone, the best is kept.
  EXPECT_EQ(streak(ada_, kFirstDay + 4), std::make_pair(std::int64_t{0}, std::int64_t{3}));
  ASSERT_TRUE(play(ada_, kFirstDay + 4).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 4), std::make_pair(std::int64_t{1}, std::int64_t{3}));
}

TEST_F(Streaks, ASecondGameTheSameDayCountsOnce) {
  ASSERT_TRUE(play(ada_, kFirstDay).ok());
  ASSERT_TRUE(play(ada_, kFirstDay).ok());
  ASSERT_TRUE(play(ada_, kFirstDay + 1).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 1), std::make_pair(std::int64_t{2}, std::int64_t{2}));
}

TEST_F(Streaks, TheDayIsTheDailysNotTheFinish) {
  // Day 0's game ends at the close (the next midnight); day 1 is then
  // played: two days, not one.
  ASSERT_TRUE(play(ada_, kFirstDay, game::Mode::hidden, (kFirstDay + 1) * kDay).ok());
  ASSERT_TRUE(play(ada_, kFirstDay + 1).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 1), std::make_pair(std::int64_t{2}, std::int64_t{2}));
}

TEST_F(Streaks, ADayCountedLateJoinsTheRunsAroundIt) {
  // Days 0, 2 and 3 first (day 1's game still running), then day 1 ends.
  ASSERT_TRUE(play(ada_, kFirstDay).ok());
  ASSERT_TRUE(play(ada_, kFirstDay + 2).ok());
  ASSERT_TRUE(play(ada_, kFirstDay + 3).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 3), std::make_pair(std::int64_t{2}, std::int64_t{2}));
  ASSERT_TRUE(play(ada_, kFirstDay + 1).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 3), std::make_pair(std::int64_t{4}, std::int64_t{4}));
}

TEST_F(Streaks, ModesAndPlayersAreApartAndPracticeDoesNotCount) {
  const PlayerId bo = make_player(*db_, "Bo");
  ASSERT_TRUE(play(ada_, kFirstDay, game::Mode::same).ok());
  ASSERT_TRUE(play(ada_, kFirstDay + 1, game::Mode::hidden).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 1, game::Mode::same).first, 1);
  EXPECT_EQ(streak(ada_, kFirstDay + 1, game::Mode::hidden).first, 1);
  EXPECT_EQ(streak(bo, kFirstDay + 1, game::Mode::hidden).first, 0);
  // Bo's first attempt counts; his second that day is practice (limit 1):
  // still one day.
  ASSERT_TRUE(play(bo, kFirstDay + 1, game::Mode::hidden, std::nullopt, 1).ok());
  ASSERT_TRUE(play(bo, kFirstDay + 1, game::Mode::hidden, std::nullopt, 1).ok());
  EXPECT_EQ(streak(bo, kFirstDay + 1, game::Mode::hidden),
            std::make_pair(std::int64_t{1}, std::int64_t{1}));
}

TEST_F(Streaks, CasualAndOrganisersGamesDoNotCount) {
  const BoardKey casual{game::Mode::hidden, "classic", "some-seed", ""};
  ASSERT_TRUE(play_ranked(*db_, "casual-1", ada_, casual, 10, 3, 1000, kFirstDay * kDay).ok());
  EXPECT_TRUE(db_->player_streaks(ada_).empty());
}

TEST_F(Streaks, ADisqualificationTakesTheDayBack) {
  for (std::int64_t d = 0; d < 4; ++d) ASSERT_TRUE(play(ada_, kFirstDay + d).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 3), std::make_pair(std::int64_t{4}, std::int64_t{4}));
  // Disqualified from day 1's daily: days 0 | 2, 3 remain.
  const WriteResult r = wait_for([&](WriteCallback cb) {
    db_->disqualify(daily(kFirstDay + 1), ada_, "second account", (kFirstDay + 4) * kDay,
                    std::move(cb));
  });
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(streak(ada_, kFirstDay + 3), std::make_pair(std::int64_t{2}, std::int64_t{2}));
  // A later game there does not count the day again.
  ASSERT_TRUE(play(ada_, kFirstDay + 1).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 3), std::make_pair(std::int64_t{2}, std::int64_t{2}));
}

// A daily game ended by its last move (Database::append_final_move, whose
// statement reads the game's row for its end) counts its day as an end
// stored alone does; a disqualified player's does not.
TEST_F(Streaks, AGameEndedByItsLastMoveCountsItsDayUnlessDisqualified) {
  const PlayerId bo = make_player(*db_, "Bo");
  const auto last_move = [&](const std::string& id, PlayerId player, std::int64_t day) {
    GameRecord g = competition_game(id, player, boards_.at(daily(day)), day * kDay + 1000);
    g.attempt_rule->limit = 5;
    EXPECT_TRUE(store_game(*db_, g).ok());
    return wait_for([&](WriteCallback cb) {
      db_->append_final_move(
          click(0, 0), day * kDay + 1500, 500,
          GameResult{id, 100, 1, game::OverReason::no_moves, day * kDay + 2000, 500},
          std::move(cb));
    });
  };
  ASSERT_TRUE(last_move("ada-last", ada_, kFirstDay).ok());
  EXPECT_EQ(streak(ada_, kFirstDay), std::make_pair(std::int64_t{1}, std::int64_t{1}));
  EXPECT_EQ(db_->load_game("ada-last")->state, GameState::over);

  // Bo's first game counts; disqualified, Bo's day is gone, and a later
  // ranked attempt ended by its last move does not bring it back.
  ASSERT_TRUE(play(bo, kFirstDay, game::Mode::hidden, std::nullopt, 5).ok());
  ASSERT_EQ(streak(bo, kFirstDay).first, 1);
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db_->disqualify(daily(kFirstDay), bo, "r", kFirstDay * kDay, std::move(cb));
              }).ok());
  ASSERT_TRUE(db_->player_streaks(bo).empty());
  ASSERT_TRUE(last_move("bo-last", bo, kFirstDay).ok());
  const auto game = db_->load_game("bo-last");
  EXPECT_EQ(game->state, GameState::over);
  EXPECT_TRUE(game->ranked);
  EXPECT_TRUE(db_->player_streaks(bo).empty());
}

TEST_F(Streaks, ADayStaysCountedWhileAnotherDailyOfItCountsIt) {
  ASSERT_TRUE(play(ada_, kFirstDay).ok());
  // A second hidden daily of the same day (another preset) counts it too.
  const std::string other = daily(kFirstDay, game::Mode::hidden, "large");
  GameRecord g;
  g.id = "other-preset";
  g.player_id = ada_;
  g.setup.mode = game::Mode::hidden;
  g.setup.preset = "large";
  g.setup.seed = std::to_string(kFirstDay);
  g.setup.board_key.emplace();
  g.setup.board_key->fill(static_cast<std::uint8_t>(kFirstDay & 0xff));
  g.ranked = true;
  g.created_at = kFirstDay * kDay + 2000;
  g.competition = other;
  g.attempt_rule = GameRecord::AttemptRule{};
  ASSERT_TRUE(store_game(*db_, g).ok());
  GameResult result;
  result.game_id = g.id;
  result.score = 5;
  result.finished_at = kFirstDay * kDay + 90'000;
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { db_->finish_game(result, std::move(cb)); }).ok());
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db_->disqualify(daily(kFirstDay), ada_, "r", kFirstDay * kDay, std::move(cb));
              }).ok());
  EXPECT_EQ(streak(ada_, kFirstDay), std::make_pair(std::int64_t{1}, std::int64_t{1}));
  // Disqualified from both: the day is gone, and so is the streak.
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db_->disqualify(other, ada_, "r", kFirstDay * kDay, std::move(cb));
              }).ok());
  EXPECT_TRUE(db_->player_streaks(ada_).empty());
}

TEST_F(Streaks, AnOlderFileGetsTheStreaksOfItsFinishedDailies) {
  SKIP_UNLESS_SQLITE();
  // Days 0, 1, 2 and 4 played, then the file is taken back to version 8.
  for (const std::int64_t d : {0, 1, 2, 4}) ASSERT_TRUE(play(ada_, kFirstDay + d).ok());
  db_.reset();
  {
    detail::SqliteConnection c(dir_.file(), detail::OpenMode::read_write,
                               std::chrono::milliseconds(1000));
    // The later versions' tables go too (seasons).
    c.execute(
        "DROP TABLE season_boards; DROP TABLE season_points; DROP TABLE season_standings; "
        "DROP TABLE season_periods;");
    c.execute("DROP TABLE streak_days; DROP TABLE streaks; PRAGMA user_version = 8;");
    // And the later steps' changes (move times), so that they apply again.
    c.execute("ALTER TABLE games DROP COLUMN move_times;");
  }
  db_ = std::make_unique<Database>(options_for(dir_.file()));
  EXPECT_EQ(db_->settings().schema_version, kSchemaVersion);
  EXPECT_EQ(streak(ada_, kFirstDay + 4), std::make_pair(std::int64_t{1}, std::int64_t{3}));
  const auto streaks = db_->player_streaks(ada_);
  ASSERT_EQ(streaks.size(), 1u);
  EXPECT_EQ(streaks[0].last_day, kFirstDay + 4);
  // And the next day continues the backfilled run.
  ASSERT_TRUE(play(ada_, kFirstDay + 5).ok());
  EXPECT_EQ(streak(ada_, kFirstDay + 5), std::make_pair(std::int64_t{2}, std::int64_t{3}));
}

}  // namespace
}  // namespace tilecrush::storage::testing
