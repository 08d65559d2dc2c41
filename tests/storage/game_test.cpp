// Games and their move lists: create, append, undo, finish, load.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;
using game::Move;
using game::MoveKind;

class Games : public ::testing::Test {
 protected:
  Games() : db_(options_for(dir_.file())), alice_(make_player(db_, "alice")) {}

  WriteResult create(const GameRecord& g) { return store_game(db_, g); }
  WriteResult append(const std::string& id, std::int64_t seq, Move m, std::int64_t score,
                     std::optional<std::int64_t> first_move_at = std::nullopt) {
    return wait_for([&](WriteCallback cb) {
      db_.append_move(id, seq, m, score, seq + 1, first_move_at, 0, cb);
    });
  }
  WriteResult undo(const std::string& id, std::int64_t seq, std::int64_t score) {
    return wait_for([&](WriteCallback cb) { db_.undo_move(id, seq, score, seq, cb); });
  }
  WriteResult finish(const std::string& id, std::int64_t score, std::int64_t moves) {
    GameResult r{id, score, moves, game::OverReason::resigned, 9000, 8000};
    return wait_for([&](WriteCallback cb) { db_.finish_game(r, cb); });
  }

  TempDir dir_;
  Database db_;
  PlayerId alice_;
  const BoardKey easy_{Mode::same, "easy", "2024-05-01", ""};
};

TEST_F(Games, MovesAppendUndoAndLoadInOrder) {
  ASSERT_TRUE(create(ranked_game("g1", alice_, easy_, 1234)).ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(append("g1", i, click(i, 9 - i), 10 * (i + 1)).ok());
  ASSERT_TRUE(undo("g1", 4, 40).ok());
  ASSERT_TRUE(undo("g1", 3, 30).ok());
  ASSERT_TRUE(append("g1", 3, click(7, 7), 35).ok());

  const auto g = db_.load_game("g1");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->id, "g1");
  EXPECT_EQ(g->player_id, alice_);
  EXPECT_EQ(g->player_name, "alice");
  EXPECT_EQ(g->setup.mode, Mode::same);
  EXPECT_EQ(g->setup.preset, "easy");
  EXPECT_EQ(g->setup.seed, "2024-05-01");
  EXPECT_FALSE(g->setup.board.has_value());
  EXPECT_TRUE(g->ranked);
  EXPECT_EQ(g->setup.rules_version, game::kRulesVersion);
  EXPECT_EQ(g->state, GameState::playing);
  EXPECT_EQ(g->over_reason, game::OverReason::none);
  EXPECT_EQ(g->created_at, 1234);
  EXPECT_EQ(g->score, 35);
  EXPECT_EQ(g->move_count, 4);
  const std::vector<Move> expected = {click(0, 9), click(1, 8), click(2, 7), click(7, 7)};
  EXPECT_EQ(g->moves, expected);
  EXPECT_FALSE(g->finished_at.has_value());
  EXPECT_EQ(db_.unfinished_games(), std::vector<std::string>{"g1"});
  EXPECT_EQ(db_.unfinished_games(alice_), std::vector<std::string>{"g1"});
  EXPECT_TRUE(db_.unfinished_games(alice_ + 1).empty());
}

TEST_F(Games, ManyMovesComeBackInSeqOrder) {
  ASSERT_TRUE(create(ranked_game("long", alice_, easy_)).ok());
  for (int i = 0; i < 300; ++i) db_.append_move("long", i, click(i % 10, i / 30), i, i + 1, {}, 0);
  db_.flush();
  const auto g = db_.load_game("long");
  ASSERT_TRUE(g.has_value());
  ASSERT_EQ(g->moves.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(g->moves[i], click(i % 10, i / 30)) << i;
}

TEST_F(Games, SwapsAndHiddenTimerRoundTrip) {
  ASSERT_TRUE(create(ranked_game("m", alice_, {Mode::match3, "classic", "x", ""})).ok());
  const Move swap{MoveKind::swap, {3, 4}, {3, 5}};
  ASSERT_TRUE(append("m", 0, swap, 30).ok());

  ASSERT_TRUE(create(ranked_game("h", alice_, {Mode::hidden, "classic", "x", ""})).ok());
  ASSERT_TRUE(append("h", 0, {MoveKind::peek, {1, 2}, {}}, -1, 5000).ok());
  ASSERT_TRUE(append("h", 1, {MoveKind::select, {1, 2}, {}}, -1, 6000).ok());
  ASSERT_TRUE(append("h", 2, {MoveKind::unselect, {1, 2}, {}}, -1).ok());

  const auto m = db_.load_game("m");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->moves, std::vector<Move>{swap});
  EXPECT_FALSE(m->first_move_at.has_value());
  const auto h = db_.load_game("h");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->first_move_at, 5000);  // the first one is kept
  ASSERT_EQ(h->moves.size(), 3u);
  EXPECT_EQ(h->moves[2].kind, MoveKind::unselect);
  EXPECT_EQ(h->score, -1);
}

TEST_F(Games, PracticeSetupWithCustomBoardRoundTrips) {
  GameRecord g = custom_game("custom", alice_, Mode::match3, "abc", 5, 4, 6);
  g.setup.moves = 25;
  g.setup.refill = false;
  game::Board board(5, 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 5; ++x) board.set(x, y, static_cast<std::uint8_t>((x * 3 + y) % 7));
  }
  g.setup.board = board;
  g.room_code = "ROOM1";
  g.created_at = 77;
  ASSERT_TRUE(create(g).ok());

  const auto loaded = db_.load_game("custom");
  ASSERT_TRUE(loaded.has_value());
  EXPECT_FALSE(loaded->ranked);
  EXPECT_EQ(loaded->setup.preset, "");
  EXPECT_EQ(loaded->setup.width, 5);
  EXPECT_EQ(loaded->setup.height, 4);
  EXPECT_EQ(loaded->setup.colors, 6);
  EXPECT_EQ(loaded->setup.moves, 25);
  EXPECT_FALSE(loaded->setup.refill);
  EXPECT_FALSE(loaded->setup.compress);
  ASSERT_TRUE(loaded->setup.board.has_value());
  EXPECT_EQ(*loaded->setup.board, board);
  EXPECT_EQ(loaded->room_code, "ROOM1");
}

TEST_F(Games, FinishRecordsTheEnd) {
  ASSERT_TRUE(create(ranked_game("g", alice_, easy_)).ok());
  ASSERT_TRUE(append("g", 0, click(0, 0), 4).ok());
  ASSERT_TRUE(finish("g", 1004, 1).ok());
  const auto g = db_.load_game("g");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->state, GameState::over);
  EXPECT_EQ(g->over_reason, game::OverReason::resigned);
  EXPECT_EQ(g->score, 1004);
  EXPECT_EQ(g->finished_at, 9000);
  EXPECT_EQ(g->duration_ms, 8000);
  EXPECT_TRUE(db_.unfinished_games().empty());
}

TEST_F(Games, RefusedWrites) {
  EXPECT_FALSE(db_.load_game("nope").has_value());
  GameRecord orphan = ranked_game("orphan", alice_ + 42, easy_);
  EXPECT_EQ(create(orphan).status, WriteStatus::not_found);
  GameRecord no_preset = ranked_game("np", alice_, {Mode::same, "", "s", ""});
  EXPECT_EQ(create(no_preset).status, WriteStatus::invalid);
  EXPECT_EQ(create(ranked_game("", alice_, easy_)).status, WriteStatus::invalid);

  ASSERT_TRUE(create(ranked_game("g", alice_, easy_)).ok());
  EXPECT_EQ(create(ranked_game("g", alice_, easy_)).status, WriteStatus::conflict);
  EXPECT_EQ(append("nope", 0, click(0, 0), 1).status, WriteStatus::not_found);
  ASSERT_TRUE(append("g", 0, click(0, 0), 1).ok());
  ASSERT_TRUE(append("g", 1, click(1, 0), 2).ok());
  // After each conflict the game is read afresh, as the server does: else
  // its later writes are refused too (Database::reload_game).
  EXPECT_EQ(append("g", 1, click(2, 0), 3).status, WriteStatus::conflict);
  db_.reload_game("g");
  EXPECT_EQ(append("g", 3, click(2, 0), 3).status, WriteStatus::conflict);  // a gap
  db_.reload_game("g");
  EXPECT_EQ(append("g", 2, click(64, 0), 3).status, WriteStatus::failed);  // not storable
  EXPECT_EQ(undo("g", 2, 1).status, WriteStatus::not_found);               // no move 2
  EXPECT_EQ(undo("g", 0, 0).status, WriteStatus::not_found);               // not the last move
  EXPECT_EQ(undo("nope", 0, 0).status, WriteStatus::not_found);

  // Refusals changed nothing.
  auto g = db_.load_game("g");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->moves, (std::vector<Move>{click(0, 0), click(1, 0)}));
  EXPECT_EQ(g->score, 2);
  EXPECT_EQ(g->move_count, 2);

  GameResult none{"g", 2, 2, game::OverReason::none, 1, 1};
  EXPECT_EQ(wait_for([&](WriteCallback cb) { db_.finish_game(none, cb); }).status,
            WriteStatus::invalid);
  EXPECT_EQ(finish("nope", 1, 1).status, WriteStatus::not_found);
  ASSERT_TRUE(finish("g", 2, 2).ok());
  EXPECT_EQ(finish("g", 5, 2).status, WriteStatus::conflict);
  EXPECT_EQ(append("g", 2, click(0, 0), 9).status, WriteStatus::conflict);
  EXPECT_EQ(undo("g", 1, 1).status, WriteStatus::conflict);
  g = db_.load_game("g");
  EXPECT_EQ(g->score, 2);
  EXPECT_EQ(g->moves.size(), 2u);
}

TEST_F(Games, AFailureInABatchLeavesTheOthersCommitted) {
  std::vector<WriteStatus> statuses(6, WriteStatus::failed);
  const auto record = [&](int i) {
    return [&statuses, i](const WriteResult& r) { statuses[i] = r.status; };
  };
  {
    WriterGate gate(db_);
    db_.create_game(ranked_game("b", alice_, easy_), record(0));
    db_.append_move("b", 0, click(1, 1), 4, 1, {}, 0, record(1));
    db_.append_move("b", 0, click(2, 2), 9, 1, {}, 0, record(2));  // duplicate seq
    db_.reload_game("b");  // read afresh, so its next move runs (reload_game)
    db_.append_move("missing", 0, click(0, 0), 1, 1, {}, 0, record(3));
    db_.create_player({"ALICE", "h", 3}, record(4));  // name taken
    db_.append_move("b", 1, click(3, 3), 8, 2, {}, 0, record(5));
  }
  db_.flush();
  const std::vector<WriteStatus> expected = {WriteStatus::ok,         WriteStatus::ok,
                                             WriteStatus::conflict,   WriteStatus::not_found,
                                             WriteStatus::name_taken, WriteStatus::ok};
  EXPECT_EQ(statuses, expected);
  // All six in one transaction; the reload marker is not an operation.
  EXPECT_EQ(db_.metrics().last_batch_size, 6u);

  const auto g = db_.load_game("b");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->moves, (std::vector<Move>{click(1, 1), click(3, 3)}));
  EXPECT_EQ(g->score, 8);
}

TEST_F(Games, RoomResultsAreSavedAndFoundByCode) {
  const PlayerId bob = make_player(db_, "bob");
  ASSERT_TRUE(create(ranked_game("ga", alice_, easy_)).ok());
  RoomRecord room;
  room.code = "QX7P";
  room.mode = Mode::same;
  room.preset = "easy";
  room.seed = "r1";
  room.host_player_id = alice_;
  room.created_at = 100;
  room.finished_at = 200;
  room.standings = {{2, alice_, "", 50, 10, "ga"}, {1, bob, "", 80, 12, std::nullopt}};
  const WriteResult saved = wait_for([&](WriteCallback cb) { db_.save_room_result(room, cb); });
  ASSERT_TRUE(saved.ok()) << saved.message;
  EXPECT_GT(saved.id, 0);

  auto found = db_.find_room("QX7P");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, saved.id);
  EXPECT_EQ(found->seed, "r1");
  EXPECT_EQ(found->host_player_id, alice_);
  ASSERT_EQ(found->standings.size(), 2u);
  EXPECT_EQ(found->standings[0].player, "bob");
  EXPECT_EQ(found->standings[0].rank, 1);
  EXPECT_EQ(found->standings[1].player, "alice");
  EXPECT_EQ(found->standings[1].game_id, "ga");

  // A later room under the same code is the one found.
  room.seed = "r2";
  room.finished_at = 300;
  room.standings.pop_back();
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { db_.save_room_result(room, cb); }).ok());
  found = db_.find_room("QX7P");
  EXPECT_EQ(found->seed, "r2");
  EXPECT_EQ(found->standings.size(), 1u);
  EXPECT_FALSE(db_.find_room("NONE").has_value());

  room.seed = "r3";
  room.finished_at = 400;
  room.standings = {{1, alice_ + 99, "", 1, 1, std::nullopt}};
  EXPECT_EQ(wait_for([&](WriteCallback cb) { db_.save_room_result(room, cb); }).status,
            WriteStatus::not_found);
  EXPECT_EQ(db_.find_room("QX7P")->seed, "r2");  // the refused room left nothing
}

}  // namespace
}  // namespace tilecrush::storage::testing
