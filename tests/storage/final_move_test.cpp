// A move that ends its game (Database::append_final_move): the move and the
// end are stored together or not at all, alone or inside a batch; the lock
// keys of a transaction's ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "backend_open.hpp"
#include "stores.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;
using game::Move;

class FinalMoves : public ::testing::Test {
 protected:
  FinalMoves() : db_(options_for(dir_.file())), alice_(make_player(db_, "alice")) {}

  WriteResult create(const std::string& id) {
    return store_game(db_, ranked_game(id, alice_, easy_));
  }
  WriteResult append(const std::string& id, std::int64_t seq, Move m, std::int64_t score) {
    return wait_for(
        [&](WriteCallback cb) { db_.append_move(id, seq, m, score, seq + 1, {}, 0, cb); });
  }
  static GameResult end_of(const std::string& id, std::int64_t score, std::int64_t moves,
                           game::OverReason reason = game::OverReason::no_moves) {
    // moves_stored left false: the operation sets it whatever it is given.
    return GameResult{id, score, moves, reason, 9000, 8000};
  }
  void final_move(Move m, GameResult end, WriteCallback cb) {
    db_.append_final_move(m, 1500, 7000, std::move(end), std::move(cb));
  }
  WriteResult final_move(Move m, GameResult end) {
    return wait_for([&](WriteCallback cb) { final_move(m, std::move(end), cb); });
  }
  std::int64_t entries() { return db_.leaderboard(easy_, 10, 0).total; }

  // The game as stored: playing with these moves, or over with them.
  void expect_stored(const std::string& id, GameState state, std::size_t moves,
                     std::int64_t score) {
    const auto g = db_.load_game(id);
    ASSERT_TRUE(g.has_value()) << id;
    EXPECT_EQ(g->state, state) << id;
    EXPECT_EQ(g->moves.size(), moves) << id;
    EXPECT_EQ(g->move_count, static_cast<std::int64_t>(moves)) << id;
    EXPECT_EQ(g->score, score) << id;
  }

  TempDir dir_;
  Database db_;
  PlayerId alice_;
  const BoardKey easy_{Mode::same, "easy", "2024-05-01", ""};
};

TEST_F(FinalMoves, StoresTheMoveAndTheEndTogether) {
  ASSERT_TRUE(create("g").ok());
  ASSERT_TRUE(append("g", 0, click(0, 0), 4).ok());
  const WriteResult r = final_move(click(1, 1), end_of("g", 1010, 2));
  ASSERT_TRUE(r.ok()) << r.message;

  expect_stored("g", GameState::over, 2, 1010);
  const auto g = db_.load_game("g");
  EXPECT_EQ(g->moves.back(), click(1, 1));
  EXPECT_EQ(g->over_reason, game::OverReason::no_moves);
  EXPECT_EQ(g->finished_at, 9000);
  EXPECT_EQ(g->duration_ms, 8000);
  EXPECT_EQ(g->move_times, (std::vector<std::int64_t>{0, 7000}));
  EXPECT_EQ(g->first_move_at, 1500);
  // Counted as finish_game counts a ranked game, once.
  EXPECT_EQ(entries(), 1);
  EXPECT_EQ(db_.find_player_by_id(alice_)->games_played, 1);
  EXPECT_TRUE(db_.unfinished_games().empty());

  // A game's first move may end it.
  ASSERT_TRUE(create("one").ok());
  ASSERT_TRUE(final_move(click(2, 2), end_of("one", 7, 1)).ok());
  expect_stored("one", GameState::over, 1, 7);
}

TEST_F(FinalMoves, ARefusalOfEitherStoresNeither) {
  ASSERT_TRUE(create("g").ok());
  ASSERT_TRUE(append("g", 0, click(0, 0), 4).ok());

  // The move is not the next (another node moved the game on): no end.
  EXPECT_EQ(final_move(click(1, 1), end_of("g", 50, 3)).status, WriteStatus::conflict);
  EXPECT_EQ(final_move(click(1, 1), end_of("g", 50, 1)).status, WriteStatus::conflict);
  // (Read afresh: else its later writes are refused too, Database::reload_game.)
  db_.reload_game("g");
  // The move would be stored but the end is refused: the move goes too.
  EXPECT_EQ(final_move(click(1, 1), end_of("g", 50, 2, game::OverReason::none)).status,
            WriteStatus::invalid);
  // A move that cannot be stored.
  EXPECT_EQ(final_move(click(64, 0), end_of("g", 50, 2)).status, WriteStatus::failed);
  EXPECT_EQ(final_move(click(1, 1), end_of("nope", 50, 1)).status, WriteStatus::not_found);
  expect_stored("g", GameState::playing, 1, 4);
  EXPECT_EQ(entries(), 0);
  EXPECT_EQ(db_.find_player_by_id(alice_)->games_played, 0);

  // Over already (resigned): neither the move nor a second end.
  GameResult resigned = end_of("g", 4, 1, game::OverReason::resigned);
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { db_.finish_game(resigned, cb); }).ok());
  EXPECT_EQ(final_move(click(1, 1), end_of("g", 50, 2)).status, WriteStatus::conflict);
  expect_stored("g", GameState::over, 1, 4);
  EXPECT_EQ(entries(), 1);
  EXPECT_EQ(db_.leaderboard(easy_, 10, 0).entries.at(0).score, 4);
  EXPECT_EQ(db_.find_player_by_id(alice_)->games_played, 1);
}

TEST_F(FinalMoves, InABatchEachStandsAlone) {
  for (const char* id : {"a", "b", "c", "d"}) ASSERT_TRUE(create(id).ok());
  ASSERT_TRUE(append("c", 0, click(0, 0), 1).ok());
  std::vector<WriteStatus> statuses(7, WriteStatus::failed);
  const auto record = [&](int i) {
    return [&statuses, i](const WriteResult& r) { statuses[i] = r.status; };
  };
  {
    WriterGate gate(db_);
    db_.append_move("a", 0, click(1, 1), 2, 1, {}, 0, record(0));
    db_.append_move("b", 0, click(1, 1), 2, 1, {}, 0, record(1));
    final_move(click(2, 2), end_of("a", 100, 2), record(2));  // a's second move ends it
    db_.append_move("b", 1, click(2, 2), 3, 2, {}, 0, record(3));
    final_move(click(3, 3), end_of("c", 100, 3), record(4));  // c holds 1 move, not 2
    final_move(click(3, 3), end_of("d", 100, 1), record(5));  // d's first move ends it
    db_.append_move("b", 2, click(3, 3), 4, 3, {}, 0, record(6));
  }
  db_.flush();
  const std::vector<WriteStatus> expected = {
      WriteStatus::ok,       WriteStatus::ok, WriteStatus::ok, WriteStatus::ok,
      WriteStatus::conflict, WriteStatus::ok, WriteStatus::ok};
  EXPECT_EQ(statuses, expected);
  EXPECT_EQ(db_.metrics().last_batch_size, 7u);  // all in one transaction
  expect_stored("a", GameState::over, 2, 100);
  expect_stored("b", GameState::playing, 3, 4);
  expect_stored("c", GameState::playing, 1, 1);
  expect_stored("d", GameState::over, 1, 100);
  EXPECT_EQ(db_.find_player_by_id(alice_)->games_played, 2);
}

// The writer takes the locks of a transaction's game ends ahead, read for
// all of them at once (on PostgreSQL one statement): each ranked game's
// board and player; nothing for an unranked or an unknown game.
TEST(GameEnds, TheLockKeysOfSeveralEndsAreReadAtOnce) {
  TempDir dir;
  const std::string where = dir.file();
  const BoardKey easy{Mode::same, "easy", "keys-1", ""};
  const BoardKey normal{Mode::same, "normal", "keys-2", ""};
  PlayerId alice = 0;
  PlayerId bob = 0;
  {
    Database db(options_for(where));
    alice = make_player(db, "alice");
    bob = make_player(db, "bob");
    ASSERT_TRUE(store_game(db, ranked_game("a", alice, easy)).ok());
    ASSERT_TRUE(store_game(db, ranked_game("b", bob, normal)).ok());
    ASSERT_TRUE(store_game(db, custom_game("c", alice, Mode::same, "free", 6, 6, 3)).ok());
  }
  const auto connection = detail::reader_factory(options_for(where))();
  const std::vector<std::string_view> ids = {"a", "b", "c", "none"};
  std::vector<std::int32_t> keys;
  detail::finish_games_lock_keys(*connection, ids, keys);
  std::vector<std::int32_t> expected = {detail::board_lock(easy), detail::player_lock(alice),
                                        detail::board_lock(normal), detail::player_lock(bob)};
  std::sort(keys.begin(), keys.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(keys, expected);

  keys.clear();
  detail::finish_games_lock_keys(*connection, {}, keys);
  EXPECT_TRUE(keys.empty());
}

}  // namespace
}  // namespace tilecrush::storage::testing
