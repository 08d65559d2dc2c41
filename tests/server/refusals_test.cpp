// invalid_move and not_allowed in every mode; after every refusal the game
// is unchanged (resume gives the same view and hash as the local engine).
// A refused move's message is part of the contract (protocol.md, "The
// messages of a refused move"; the web client translates each one): the
// tests check it word for word where they name it.
#include <gtest/gtest.h>

#include <algorithm>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

// One player's game on the server next to its local engine copy.
struct Tracked {
  WsClient* client;
  std::string id;
  std::unique_ptr<game::Game> local;

  json msg(json fields) const {
    fields["game_id"] = id;
    return fields;
  }
  void refused(json fields, const std::string& code, const std::string& message = {}) {
    SCOPED_TRACE(fields.dump());
    const json reply = client->request(msg(std::move(fields)));
    EXPECT_TRUE(is_error(reply, code));
    if (!message.empty()) {
      EXPECT_EQ(reply.value("message", ""), message) << reply;
    }
    expect_resume_matches(*client, id, *local);
  }
  void play(const game::Move& m) { play_move(*client, id, *local, m); }
};

// A server and one player on it, who starts the game a test refuses moves in.
class Refusals : public ::testing::Test {
 protected:
  void SetUp() override { c_.hello("refuser"); }

  // The game `request` starts, tracked by a local engine built from `setup`.
  Tracked start(json request, game::GameSetup setup) {
    const json view = start_game(c_, std::move(request));
    Tracked t{&c_, view.value("game_id", ""), nullptr};
    setup.seed = view.value("seed", "");
    t.local = make_local(setup);
    if (t.local) {
      EXPECT_EQ(view, expected_view(*t.local, t.id, view));
    }
    return t;
  }
  Tracked start(game::Mode mode, const std::string& preset, const std::string& seed) {
    return start({{"mode", game::to_string(mode)}, {"preset", preset}, {"seed", seed}},
                 preset_setup(mode, preset, seed));
  }

  TestServer ts_;
  WsClient c_{ts_.port()};
};

json click(int x, int y) {
  return {{"type", "click"}, {"x", x}, {"y", y}};
}
json swap(int ax, int ay, int bx, int by) {
  return {{"type", "swap"}, {"a", {ax, ay}}, {"b", {bx, by}}};
}
json cell(const char* type, int x, int y) {
  return {{"type", type}, {"x", x}, {"y", y}};
}

TEST_F(Refusals, SameGameInvalidMoves) {
  Tracked t = start(game::Mode::same, "easy", "refusals");
  ASSERT_TRUE(t.local);
  const int w = t.local->width();
  const int h = t.local->height();
  for (const json& m :
       {click(-1, 0), click(0, -1), click(w, 0), click(0, h), click(2147483647, 0)}) {
    t.refused(m, "invalid_move", "no tile there");  // Same Game's word for outside too
  }
  // A group of one, found on the engine's board; its preview is refused too.
  std::optional<game::Point> single;
  for (int y = 0; y < h && !single; ++y) {
    for (int x = 0; x < w && !single; ++x) {
      game::Preview p;
      if (!t.local->preview({x, y}, p).ok()) single = game::Point{x, y};
    }
  }
  ASSERT_TRUE(single) << "the test board has no group of one; pick another seed";
  t.refused(click(single->x, single->y), "invalid_move", "a single tile cannot be removed");
  t.refused(cell("preview", single->x, single->y), "invalid_move",
            "a single tile cannot be removed");
  t.refused(cell("preview", w, 0), "invalid_move");

  // An empty cell: a custom board with a hole after gravity.
  game::GameSetup holed;
  holed.mode = game::Mode::same;
  holed.board = board_from_rows(json{{0, 1, 2}, {1, 1, 2}});
  Tracked t2 = start({{"mode", "same"}, {"board", {{0, 1, 2}, {1, 1, 2}}}}, holed);
  ASSERT_TRUE(t2.local);
  t2.refused(click(0, 0), "invalid_move", "no tile there");
  t2.refused(cell("preview", 0, 0), "invalid_move", "no tile there");
}

TEST_F(Refusals, SameGameNotAllowed) {
  Tracked t = start(game::Mode::same, "easy", "undo");
  ASSERT_TRUE(t.local);
  t.refused({{"type", "undo"}}, "not_allowed", "nothing to undo");
  // Undo is allowed in a ranked Same Game, back to the start and no further.
  game::Hint hint;
  ASSERT_TRUE(t.local->hint(hint).ok());
  t.play(hint.move);
  ASSERT_TRUE(t.local->hint(hint).ok());
  t.play(hint.move);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(t.local->undo().ok());
    const json reply = c_.request(t.msg({{"type", "undo"}}));
    ASSERT_EQ(reply["type"], "game") << reply;
    EXPECT_EQ(reply["game"], expected_view(*t.local, t.id, reply["game"]));
  }
  t.refused({{"type", "undo"}}, "not_allowed");

  // A finished game (cleared): nothing more is allowed.
  game::GameSetup tiny;
  tiny.mode = game::Mode::same;
  tiny.board = board_from_rows(json{{1, 1}, {2, 2}});
  Tracked done = start({{"mode", "same"}, {"board", {{1, 1}, {2, 2}}}}, tiny);
  ASSERT_TRUE(done.local);
  done.play({game::MoveKind::click, {0, 0}, {}});
  done.play({game::MoveKind::click, {0, 1}, {}});
  ASSERT_TRUE(done.local->over());
  EXPECT_EQ(done.local->over_reason(), game::OverReason::cleared);
  done.refused({{"type", "undo"}}, "not_allowed", "the game is over");
  done.refused({{"type", "hint"}}, "not_allowed", "the game is over");
  done.refused(click(0, 1), "not_allowed", "the game is over");
  done.refused({{"type", "resign"}}, "not_allowed", "the game is over");

  // A resigned game likewise.
  game::EventList ignored;
  ASSERT_TRUE(t.local->resign(ignored).ok());
  const json resigned = c_.request(t.msg({{"type", "resign"}}));
  EXPECT_EQ(resigned, protocol::events_reply(resigned["id"], t.id, *t.local, ignored));
  t.refused({{"type", "resign"}}, "not_allowed");
  t.refused({{"type", "undo"}}, "not_allowed");
  t.refused({{"type", "hint"}}, "not_allowed");
  t.refused(click(0, 9), "not_allowed");
}

TEST_F(Refusals, Match3InvalidMovesAndUndo) {
  Tracked t = start(game::Mode::match3, "classic", "refusals");
  ASSERT_TRUE(t.local);
  // An adjacent swap the engine refuses: it makes no run.
  const auto legal = t.local->legal_moves();
  std::optional<json> no_run;
  for (int y = 0; y < t.local->height() && !no_run; ++y) {
    for (int x = 0; x + 1 < t.local->width() && !no_run; ++x) {
      const game::Move m{game::MoveKind::swap, {x, y}, {x + 1, y}};
      const game::Move r{game::MoveKind::swap, {x + 1, y}, {x, y}};
      if (std::find(legal.begin(), legal.end(), m) == legal.end() &&
          std::find(legal.begin(), legal.end(), r) == legal.end()) {
        no_run = swap(x, y, x + 1, y);
      }
    }
  }
  ASSERT_TRUE(no_run);
  t.refused(*no_run, "invalid_move", "the swap makes no run");
  t.refused(swap(0, 0, 2, 0), "invalid_move", "the tiles are not next to each other");
  t.refused(swap(0, 0, 1, 1), "invalid_move", "the tiles are not next to each other");
  t.refused(swap(0, 0, 0, 0), "invalid_move", "the tiles are not next to each other");
  t.refused(swap(-1, 0, 0, 0), "invalid_move", "outside the board");
  t.refused(swap(7, 7, 8, 7), "invalid_move", "outside the board");
  t.refused(click(0, 0), "bad_request");

  // Ranked match-3: no undo, even after a move.
  t.refused({{"type", "undo"}}, "not_allowed", "no undo in ranked match-3");
  game::Hint hint;
  ASSERT_TRUE(t.local->hint(hint).ok());
  t.play(hint.move);
  t.refused({{"type", "undo"}}, "not_allowed");

  // Practice match-3: undo restores board, score, count and generator.
  game::GameSetup practice;
  practice.mode = game::Mode::match3;
  practice.width = 7;
  practice.height = 7;
  practice.colors = 5;
  Tracked p = start({{"mode", "match3"}, {"width", 7}, {"height", 7}, {"colors", 5}}, practice);
  ASSERT_TRUE(p.local);
  p.refused({{"type", "undo"}}, "not_allowed");
  std::mt19937 rng(5);
  for (int i = 0; i < 3; ++i) p.play(pick_move(*p.local, rng));
  ASSERT_TRUE(p.local->undo().ok());
  const json undone = c_.request(p.msg({{"type", "undo"}}));
  ASSERT_EQ(undone["type"], "game") << undone;
  EXPECT_EQ(undone["game"], expected_view(*p.local, p.id, undone["game"]));
  for (int i = 0; i < 3; ++i) p.play(pick_move(*p.local, rng));  // spawns must still match
}

TEST_F(Refusals, HiddenInvalidMovesAndNotAllowed) {
  // A T of colour 1 (five cells), single cells of 2 and 3 below its arms.
  const json rows = {{1, 1, 1}, {2, 1, 2}, {3, 1, 3}};
  game::GameSetup setup;
  setup.mode = game::Mode::hidden;
  setup.board = board_from_rows(rows);
  Tracked t = start({{"mode", "hidden"}, {"board", rows}}, setup);
  ASSERT_TRUE(t.local);
  t.refused({{"type", "hint"}}, "not_allowed", "no hint in this mode");
  t.refused({{"type", "undo"}}, "not_allowed", "no undo in this mode");
  t.refused(cell("peek", 3, 0), "invalid_move", "outside the board");
  t.refused(cell("peek", 0, -1), "invalid_move", "outside the board");
  t.refused(cell("select", 0, 1), "invalid_move",
            "that tile cannot be selected");  // a group of one
  t.refused(cell("select", 3, 3), "invalid_move", "outside the board");
  t.refused(cell("unselect", 1, 0), "invalid_move", "that tile is not selected");
  t.refused(click(1, 0), "bad_request");
  t.refused(swap(0, 0, 1, 0), "bad_request");

  t.play({game::MoveKind::peek, {0, 1}, {}});
  t.play({game::MoveKind::select, {1, 0}, {}});
  t.refused(cell("select", 1, 0), "invalid_move", "that tile is already selected");
  t.refused(cell("select", 0, 2), "invalid_move", "select a tile next to the selection");
  t.play({game::MoveKind::select, {0, 0}, {}});
  t.play({game::MoveKind::select, {2, 0}, {}});
  t.refused(cell("unselect", 1, 0), "invalid_move",
            "unselecting that tile would split the selection");
  t.play({game::MoveKind::select, {1, 1}, {}});
  t.refused(cell("unselect", 1, 0), "invalid_move",
            "a tile with three or more selected neighbours cannot be unselected");
  // Next to the selection, another colour.
  t.refused(cell("select", 0, 1), "invalid_move", "that tile cannot be selected");
  t.refused({{"type", "undo"}}, "not_allowed");
  t.play({game::MoveKind::unselect, {0, 0}, {}});  // an end of the selection may go
  t.play({game::MoveKind::select, {0, 0}, {}});
  t.play({game::MoveKind::select, {1, 2}, {}});  // the whole group: removed
  EXPECT_EQ(t.local->score(), 49);
  // The 2s and 3s left are split by the empty middle column: over.
  ASSERT_TRUE(t.local->over());
  EXPECT_EQ(t.local->over_reason(), game::OverReason::no_moves);
  t.refused({{"type", "hint"}}, "not_allowed");
  t.refused({{"type", "undo"}}, "not_allowed");
  t.refused({{"type", "resign"}}, "not_allowed");
  t.refused(cell("peek", 0, 2), "not_allowed", "the game is over");
  t.refused(cell("select", 0, 2), "not_allowed", "the game is over");
}

}  // namespace
}  // namespace tilecrush::testing
