// One batch of the writer holding moves of several games: each move is
// judged as if alone.
#include <gtest/gtest.h>

#include <future>
#include <optional>
#include <vector>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

// One batch of moves of several games (on PostgreSQL one statement for
// them all): each move gets the result it would get alone, in the order
// queued, and only the refused ones are missing. Both backends.
TEST(MoveBatch, EachMoveGetsItsOwnResult) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId alice = make_player(db, "alice");
  const BoardKey board{game::Mode::same, "easy", "moves", ""};
  for (const char* id : {"g1", "g2", "g3", "g5"}) {
    ASSERT_TRUE(store_game(db, ranked_game(id, alice, board)).ok());
  }
  ASSERT_TRUE(wait_for([&](WriteCallback cb) {
                db.finish_game(GameResult{"g5", 0, 10, game::OverReason::no_moves, 5, 1000}, cb);
              }).ok());
  struct Sent {
    std::string game;
    std::int64_t seq;
    std::future<WriteResult> result;
  };
  std::vector<Sent> sent;
  const auto move = [&](const std::string& id, std::int64_t seq) {
    auto p = std::make_shared<std::promise<WriteResult>>();
    sent.push_back({id, seq, p->get_future()});
    db.append_move(id, seq, click(static_cast<int>(seq % 10), 0), seq * 10, seq + 1,
                   seq == 0 ? std::optional<std::int64_t>(1000 + seq) : std::nullopt, 100 * seq,
                   [p](const WriteResult& r) { p->set_value(r); });
  };
  {
    WriterGate gate(db);
    move("g1", 0);
    move("g2", 0);
    move("g1", 1);
    move("g3", 0);
    move("g1", 2);
    move("g2", 2);  // not the next: refused
    move("g3", 0);  // stored already: refused
    move("g4", 0);  // no such game
    move("g5", 0);  // over
    // g3 read afresh (else its moves after the refused one are refused too:
    // Database::reload_game); its move 1 runs.
    db.reload_game("g3");
    move("g3", 1);
  }
  const std::vector<WriteStatus> expected = {
      WriteStatus::ok,       WriteStatus::ok,       WriteStatus::ok,       WriteStatus::ok,
      WriteStatus::ok,       WriteStatus::conflict, WriteStatus::conflict, WriteStatus::not_found,
      WriteStatus::conflict, WriteStatus::ok};
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const WriteResult r = sent[i].result.get();
    EXPECT_EQ(r.status, expected[i]) << i << " " << sent[i].game << " " << r.message;
  }
  const auto g1 = db.load_game("g1");
  ASSERT_EQ(g1->moves.size(), 3u);
  EXPECT_EQ(g1->moves[2], click(2, 0));
  EXPECT_EQ(g1->score, 20);
  EXPECT_EQ(g1->move_count, 3);
  EXPECT_EQ(g1->first_move_at, 1000);
  EXPECT_EQ(g1->move_times, (std::vector<std::int64_t>{0, 100, 200}));
  EXPECT_EQ(db.load_game("g2")->moves.size(), 1u);
  EXPECT_EQ(db.load_game("g3")->moves.size(), 2u);
  EXPECT_EQ(db.load_game("g5")->moves.size(), 0u);
}

}  // namespace
}  // namespace tilecrush::storage::testing
