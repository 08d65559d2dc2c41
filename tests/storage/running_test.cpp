// Database::running_attempts: a player's counted attempts still playing on
// competitions still open, latest first, bounded by a result limit and by a
// scan of the player's latest games.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"
#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;

constexpr std::int64_t kNow = 50'000;

class Running : public ::testing::Test {
 protected:
  Running()
      : db_(options_for(dir_.file())),
        alice_(make_player(db_, "alice")),
        bob_(make_player(db_, "bob")) {}

  // A competition on hidden classic open from 0 to closes_at, its board
  // keyed with `fill` bytes.
  void competition(const std::string& id, std::int64_t closes_at, std::uint8_t fill) {
    CompetitionRecord c = competition_record(id, Mode::hidden, "classic", 0, closes_at);
    c.attempts = 1;
    c.daily = true;
    const BoardRecord b = competition_board(c, fill);
    keys_[id] = b.key;
    ASSERT_TRUE(
        wait_for([&](WriteCallback cb) { db_.create_competition(c, b, std::move(cb)); }).ok());
  }

  // An attempt of `player` in competition `id` (a daily's rule: one counted
  // attempt, practice beyond it); the attempt number it got.
  std::int64_t attempt(const std::string& game_id, PlayerId player, const std::string& id,
                       std::int64_t created_at) {
    GameRecord g = ranked_game(game_id, player, {Mode::hidden, "classic", id, id}, created_at);
    g.setup.board_key = keys_.at(id);
    g.competition = id;
    g.attempt_rule = GameRecord::AttemptRule{1, true, false};
    const WriteResult r = store_game(db_, g);
    EXPECT_TRUE(r.ok()) << r.message;
    return r.id;
  }

  void casual(const std::string& game_id, PlayerId player, std::int64_t created_at) {
    const WriteResult r = wait_for([&](WriteCallback cb) {
      db_.create_game(ranked_game(game_id, player, {Mode::same, "easy", "x", ""}, created_at),
                      std::move(cb));
    });
    ASSERT_TRUE(r.ok()) << r.message;
  }

  void finish(const std::string& game_id) {
    GameResult r{game_id, 10, 0, game::OverReason::resigned, 2000, 500};
    ASSERT_TRUE(wait_for([&](WriteCallback cb) { db_.finish_game(r, std::move(cb)); }).ok());
  }

  std::vector<std::string> ids(PlayerId player, std::int64_t limit = 20, std::int64_t scan = 1000) {
    std::vector<std::string> out;
    for (const RunningAttempt& a : db_.running_attempts(player, kNow, limit, scan)) {
      out.push_back(a.game_id);
    }
    return out;
  }

  TempDir dir_;
  Database db_;
  PlayerId alice_;
  PlayerId bob_;
  std::map<std::string, game::BoardSecret> keys_;
};

TEST_F(Running, ListsARunningAttemptWithWhatResumesIt) {
  competition("open", 86'400'000, 1);
  ASSERT_EQ(attempt("g1", alice_, "open", 1000), 1);
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db_.append_move("g1", 0, {game::MoveKind::peek, {1, 2}, {}}, -1, 1, 1500, 0, cb);
              }).ok());
  const auto found = db_.running_attempts(alice_, kNow, 20, 1000);
  ASSERT_EQ(found.size(), 1u);
  const RunningAttempt& a = found[0];
  EXPECT_EQ(a.game_id, "g1");
  EXPECT_EQ(a.competition, "open");
  EXPECT_EQ(a.mode, Mode::hidden);
  EXPECT_EQ(a.preset, "classic");
  EXPECT_EQ(a.attempt, 1);
  EXPECT_TRUE(a.ranked);
  EXPECT_EQ(a.score, -1);
  EXPECT_EQ(a.move_count, 1);
  EXPECT_EQ(a.created_at, 1000);
  EXPECT_EQ(a.closes_at, 86'400'000);
}

TEST_F(Running, LeavesOutFinishedPracticeClosedCasualAndOtherPlayersGames) {
  competition("open", 86'400'000, 1);
  competition("done", 86'400'000, 2);
  competition("past", kNow, 3);  // closes exactly now: closed
  ASSERT_EQ(attempt("mine", alice_, "open", 1000), 1);
  ASSERT_EQ(attempt("practice", alice_, "open", 1100), 0);  // past the counted attempt
  ASSERT_EQ(attempt("finished", alice_, "done", 1200), 1);
  finish("finished");
  ASSERT_EQ(attempt("closed", alice_, "past", 1300), 1);
  casual("casual", alice_, 1400);
  ASSERT_EQ(attempt("bobs", bob_, "open", 1500), 1);

  EXPECT_EQ(ids(alice_), std::vector<std::string>{"mine"});
  EXPECT_EQ(ids(bob_), std::vector<std::string>{"bobs"});
  EXPECT_TRUE(ids(bob_ + alice_ + 7).empty());
}

TEST_F(Running, LatestFirstAndBounded) {
  competition("a", 86'400'000, 1);
  competition("b", 86'400'000, 2);
  competition("c", 86'400'000, 3);
  ASSERT_EQ(attempt("ga", alice_, "a", 1000), 1);
  ASSERT_EQ(attempt("gc", alice_, "c", 3000), 1);
  ASSERT_EQ(attempt("gb", alice_, "b", 2000), 1);
  EXPECT_EQ(ids(alice_), (std::vector<std::string>{"gc", "gb", "ga"}));
  EXPECT_EQ(ids(alice_, 2), (std::vector<std::string>{"gc", "gb"}));
  EXPECT_TRUE(ids(alice_, 0).empty());
  // Only the player's latest `scan` games are looked at: two later casual
  // games hide the two oldest attempts from a scan of three.
  casual("c1", alice_, 4000);
  casual("c2", alice_, 5000);
  EXPECT_EQ(ids(alice_, 20, 3), std::vector<std::string>{"gc"});
  EXPECT_EQ(ids(alice_, 20, 5), (std::vector<std::string>{"gc", "gb", "ga"}));
}

// A keyed game is stored only under its board's stored key: dealt with
// another key, or on a board that has none, it is refused (invalid) and
// leaves nothing, not even the attempt it would have counted.
TEST_F(Running, AKeyedGameIsStoredOnlyUnderItsBoardsKey) {
  competition("open", 86'400'000, 1);
  const auto try_game = [&](const std::string& game_id, const std::string& scope,
                            game::BoardSecret key) {
    GameRecord g = ranked_game(game_id, alice_, {Mode::hidden, "classic", "open", scope}, 1000);
    g.setup.board_key = key;
    g.competition = scope;
    g.attempt_rule = GameRecord::AttemptRule{1, true, false};
    return store_game(db_, g);
  };
  game::BoardSecret other = keys_.at("open");
  other[0] ^= 1;
  WriteResult r = try_game("wrong", "open", other);
  EXPECT_EQ(r.status, WriteStatus::invalid) << r.message;
  EXPECT_FALSE(db_.load_game("wrong").has_value());
  // No board at all under that scope.
  r = try_game("nowhere", "elsewhere", keys_.at("open"));
  EXPECT_NE(r.status, WriteStatus::ok) << r.message;
  EXPECT_FALSE(db_.load_game("nowhere").has_value());
  // The refusals counted no attempt: the right key's game is attempt 1.
  r = try_game("right", "open", keys_.at("open"));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.id, 1);
  const auto stored = db_.load_game("right");
  ASSERT_TRUE(stored.has_value());
  ASSERT_TRUE(stored->setup.board_key.has_value());
  EXPECT_EQ(*stored->setup.board_key, keys_.at("open"));
  EXPECT_EQ(ids(alice_), (std::vector<std::string>{"right"}));
}

}  // namespace
}  // namespace tilecrush::storage::testing
