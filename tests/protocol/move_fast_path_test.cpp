// The parser's fast path for plain moves (protocol/src/move_fast_path.*):
// it takes the shapes clients send, gives up on everything else, and
// whatever it takes it reads exactly as the full parser does.
#include "move_fast_path.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tilecrush/protocol/views.hpp"

namespace tilecrush::protocol {
namespace {

using detail::parse_full;
using detail::parse_move_fast;

// Same command, same id, same JSON type of id (an echoed 5 stays 5, never 5.0).
void expect_same_as_full(const std::string& text) {
  SCOPED_TRACE(text);
  const auto fast = parse_move_fast(text);
  if (!fast) return;
  const ParseResult full = parse_full(text);
  ASSERT_TRUE(full.ok()) << full.error.message;
  ASSERT_TRUE(fast->ok());
  EXPECT_EQ(dump(fast->id), dump(full.id));
  EXPECT_EQ(fast->id.type(), full.id.type());
  const auto& f = std::get<MoveCommand>(*fast->command);
  const auto& g = std::get<MoveCommand>(*full.command);
  EXPECT_EQ(f.game_id, g.game_id);
  EXPECT_EQ(f.move.kind, g.move.kind);
  EXPECT_EQ(f.move.a, g.move.a);
  EXPECT_EQ(f.seen, g.seen);
  if (f.move.kind == game::MoveKind::swap) {
    EXPECT_EQ(f.move.b, g.move.b);
  }
}

TEST(MoveFastPath, TakesWhatClientsSend) {
  const std::vector<std::string> texts = {
      R"({"type":"click","game_id":"g-0123456789abcdef","x":3,"y":7,"id":12})",
      R"({"id":"r1","type":"swap","game_id":"g1","a":[0,1],"b":[1,1]})",
      R"( { "type" : "peek" , "game_id" : "g" , "x" : 0 , "y" : 0 } )",
      "{\"type\":\"select\",\n\t\"game_id\":\"g\",\r\"x\":-2,\"y\":999999999}",
      R"({"type":"unselect","game_id":"g","x":-0,"y":1,"id":""})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":999999999999999999})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"move_count":0})",
      R"({"move_count":999999999,"type":"swap","game_id":"g","a":[0,1],"b":[1,1]})",
  };
  for (const std::string& text : texts) {
    EXPECT_TRUE(parse_move_fast(text).has_value()) << text;
    expect_same_as_full(text);
  }
  const auto r = parse_move_fast(texts[0]);
  ASSERT_TRUE(r);
  EXPECT_EQ(dump(r->id), "12");
  const auto& m = std::get<MoveCommand>(*r->command);
  EXPECT_EQ(m.game_id, "g-0123456789abcdef");
  EXPECT_EQ(m.move.kind, game::MoveKind::click);
  EXPECT_EQ(m.move.a, (game::Point{3, 7}));
  EXPECT_FALSE(m.seen);
  const auto counted = parse_move_fast(texts[6]);
  ASSERT_TRUE(counted);
  EXPECT_EQ(std::get<MoveCommand>(*counted->command).seen, 0);
}

TEST(MoveFastPath, GivesUpOnEverythingElse) {
  const std::vector<std::string> texts = {
      // Not a move, or not one object.
      R"({"type":"preview","game_id":"g","x":1,"y":2})",
      R"({"type":"hello","name":"x"})",
      R"([{"type":"click","game_id":"g","x":1,"y":2}])",
      R"({"type":"click","game_id":"g","x":1,"y":2} {})",
      R"({"type":"click","game_id":"g","x":1,"y":2)",
      "\xEF\xBB\xBF{\"type\":\"click\",\"game_id\":\"g\",\"x\":1,\"y\":2}",
      // Fields missing, doubled, unknown, or of the other move shape.
      R"({"type":"click","game_id":"g","x":1})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"x":3})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"extra":true})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"a":[1,2]})",
      R"({"type":"swap","game_id":"g","a":[0,1],"b":[1,1],"x":0})",
      R"({"type":"swap","game_id":"g","a":[0,1,2],"b":[1,1]})",
      // Values the plain form does not cover.
      R"({"type":"click","game_id":"","x":1,"y":2})",
      R"({"type":"click","game_id":"g\u0041","x":1,"y":2})",
      R"({"type":"click","game_id":"gé","x":1,"y":2})",
      R"({"type":"click","game_id":null,"x":1,"y":2})",
      R"({"type":"click","game_id":"g","x":1.0,"y":2})",
      R"({"type":"click","game_id":"g","x":1e2,"y":2})",
      R"({"type":"click","game_id":"g","x":01,"y":2})",
      R"({"type":"click","game_id":"g","x":1234567890,"y":2})",
      R"({"type":"click","game_id":"g","x":"1","y":2})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":9999999999999999999})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":99999999999999999999999})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":-1})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":null})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":1.5})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"id":"a\"b"})",
      R"({"ty\u0070e":"click","game_id":"g","x":1,"y":2})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"move_count":-1})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"move_count":null})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"move_count":1234567890})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"move_count":"3"})",
      R"({"type":"click","game_id":"g","x":1,"y":2,"move_count":1,"move_count":2})",
  };
  for (const std::string& text : texts) {
    EXPECT_FALSE(parse_move_fast(text).has_value()) << text;
  }
  const std::string long_key(65, 'k');
  EXPECT_FALSE(parse_move_fast(R"({"type":"click","game_id":")" + long_key + R"(","x":1,"y":2})"));
  const std::string long_id(65, 'i');
  EXPECT_FALSE(
      parse_move_fast(R"({"type":"click","game_id":"g","x":1,"y":2,"id":")" + long_id + R"("})"));
}

// Random moves, spaced and ordered at random, with one byte changed in some:
// whatever the fast path accepts, the full parser reads the same way.
TEST(MoveFastPath, AgreesWithTheFullParser) {
  std::mt19937 rng(20261125);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const std::vector<std::string> spaces = {"", " ", "\n", "\t ", "\r\n"};
  const std::vector<std::string> numbers = {"0", "1", "-1", "7", "42", "-0", "999999999"};
  const auto number = [&] { return numbers[static_cast<std::size_t>(pick(7))]; };
  const auto sp = [&] { return spaces[static_cast<std::size_t>(pick(5))]; };
  int taken = 0;
  for (int i = 0; i < 20000; ++i) {
    const bool swap = pick(2) == 0;
    std::vector<std::string> members;
    members.push_back(R"("type")" + sp() + ":" + sp() + (swap ? R"("swap")" : R"("click")"));
    members.push_back(R"("game_id":")" + std::string(1 + pick(64), 'g') + "\"");
    if (swap) {
      members.push_back(R"("a":[)" + number() + "," + sp() + number() + "]");
      members.push_back(R"("b":[)" + number() + "," + number() + sp() + "]");
    } else {
      members.push_back(R"("x":)" + sp() + number());
      members.push_back(R"("y":)" + number() + sp());
    }
    if (pick(3) == 0) members.push_back(R"("id":)" + std::to_string(rng()));
    if (pick(5) == 0) members.push_back(R"("id":"req-)" + std::to_string(pick(1000)) + "\"");
    if (pick(3) == 0) members.push_back(R"("move_count":)" + sp() + number());
    std::shuffle(members.begin(), members.end(), rng);
    std::string text = sp() + "{";
    for (std::size_t m = 0; m < members.size(); ++m) {
      if (m > 0) text += ',';
      text += sp();
      text += members[m];
      text += sp();
    }
    text += '}';
    text += sp();
    if (pick(4) == 0)
      text[static_cast<std::size_t>(pick(static_cast<int>(text.size())))] =
          static_cast<char>(pick(256));
    if (parse_move_fast(text)) ++taken;
    expect_same_as_full(text);
    // The entry point agrees with the full parser whichever path it took.
    const ParseResult entry = parse_client_message(text);
    const ParseResult full = parse_full(text);
    ASSERT_EQ(entry.ok(), full.ok()) << text;
    EXPECT_EQ(dump(entry.id), dump(full.id)) << text;
    if (!full.ok()) {
      EXPECT_EQ(entry.error.message, full.error.message) << text;
    }
  }
  // Most of them are plain moves (two ids make one refused by both).
  EXPECT_GT(taken, 10000);
}

}  // namespace
}  // namespace tilecrush::protocol
