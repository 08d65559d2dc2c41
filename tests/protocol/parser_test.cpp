// Every client message of protocol.md parsed from valid JSON.
#include <gtest/gtest.h>

#include "tilecrush/protocol/commands.hpp"

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

template <typename T>
T parse_as(std::string_view text) {
  const ParseResult r = parse_client_message(text);
  EXPECT_TRUE(r.ok()) << text << " -> " << r.error.message;
  if (!r.ok() || !std::holds_alternative<T>(*r.command)) {
    ADD_FAILURE() << "wrong command for " << text;
    return T{};
  }
  return std::get<T>(*r.command);
}

TEST(Parser, Hello) {
  const auto h = parse_as<Hello>(R"({"type":"hello","name":"Ada"})");
  EXPECT_EQ(h.name, "Ada");
  EXPECT_FALSE(h.token);
  const auto t = parse_as<Hello>(R"({"type":"hello","name":"Ada","token":"abc"})");
  EXPECT_EQ(t.token, "abc");
  const auto n = parse_as<Hello>(R"({"type":"hello","name":"Ada","token":null})");
  EXPECT_FALSE(n.token);
}

TEST(Parser, HelloWithARecoveryCodeAndTheRecoveryCodeRequest) {
  const auto h = parse_as<Hello>(R"({"type":"hello","name":"Ada","recovery":"7kq2m xw4dp"})");
  EXPECT_EQ(h.recovery, "7kq2m xw4dp");
  EXPECT_FALSE(h.token);
  // null counts as absent, so a null token goes with a recovery code.
  const auto n = parse_as<Hello>(R"({"type":"hello","name":"Ada","token":null,"recovery":"X"})");
  EXPECT_EQ(n.recovery, "X");
  EXPECT_FALSE(parse_as<Hello>(R"({"type":"hello","name":"Ada","recovery":null})").recovery);
  parse_as<RecoveryCode>(R"({"type":"recovery_code","id":3})");
  EXPECT_EQ(type_name(RecoveryCode{}), "recovery_code");
}

// What names.hpp refuses is only what shows nothing: spaces inside a name,
// scripts that need the joiners, and emoji sequences stay names.
TEST(Parser, HelloAcceptsNamesThatShowWithTheirJoiners) {
  for (const char* name : {"Ada Lovelace", " Ada", "Zo\u00E9",
                           "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645",  // with ZWNJ
                           "\U0001F469\u200D\U0001F4BB", "\u2764\uFE0F", "\u00A0x"}) {
    const auto h = parse_as<Hello>(json{{"type", "hello"}, {"name", name}}.dump());
    EXPECT_EQ(h.name, name);
  }
}

TEST(Parser, HelloAcceptsThirtyTwoMultibyteCharacters) {
  std::string name;
  for (int i = 0; i < 32; ++i) name += "\xC3\xA9";  // é, two bytes each
  const auto h = parse_as<Hello>(json{{"type", "hello"}, {"name", name}}.dump());
  EXPECT_EQ(h.name, name);
  std::string emoji;
  for (int i = 0; i < 32; ++i) emoji += "\xF0\x9F\x98\x80";  // U+1F600, four bytes each
  EXPECT_EQ(parse_as<Hello>(json{{"type", "hello"}, {"name", emoji}}.dump()).name, emoji);
}

TEST(Parser, IdIsEchoed) {
  EXPECT_EQ(parse_client_message(R"({"type":"ping","id":7})").id, json(7));
  EXPECT_EQ(parse_client_message(R"({"type":"ping","id":"abc"})").id, json("abc"));
  EXPECT_EQ(parse_client_message(R"({"type":"ping","id":-1.5})").id, json(-1.5));
  EXPECT_TRUE(parse_client_message(R"({"type":"ping"})").id.is_null());
  EXPECT_TRUE(parse_client_message(R"({"type":"ping","id":null})").id.is_null());
  const std::string id64(64, 'x');
  EXPECT_EQ(parse_client_message(json{{"type", "ping"}, {"id", id64}}.dump()).id, json(id64));
}

TEST(Parser, NewGameInACompetition) {
  const auto g = parse_as<NewGame>(R"({"type":"new_game","competition":"k3j9x2m7pq2a"})");
  ASSERT_TRUE(g.competition);
  EXPECT_EQ(*g.competition, "k3j9x2m7pq2a");
  EXPECT_FALSE(g.daily);
}

TEST(Parser, NewGamePreset) {
  const auto g = parse_as<NewGame>(R"({"type":"new_game","mode":"same","preset":"easy"})");
  EXPECT_EQ(g.setup.mode, game::Mode::same);
  EXPECT_EQ(g.setup.preset, "easy");
  EXPECT_TRUE(g.setup.seed.empty());
  EXPECT_FALSE(g.daily);
  EXPECT_TRUE(g.setup.ranked());

  const auto s =
      parse_as<NewGame>(R"({"type":"new_game","mode":"match3","preset":"big","seed":"s1"})");
  EXPECT_EQ(s.setup.seed, "s1");
  EXPECT_EQ(s.setup.mode, game::Mode::match3);

  const auto d =
      parse_as<NewGame>(R"({"type":"new_game","mode":"hidden","preset":"large","daily":true})");
  EXPECT_TRUE(d.daily);
  EXPECT_TRUE(d.setup.seed.empty());

  const auto f = parse_as<NewGame>(
      R"({"type":"new_game","mode":"same","preset":"easy","daily":false,"seed":"x"})");
  EXPECT_FALSE(f.daily);
  EXPECT_EQ(f.setup.seed, "x");
}

TEST(Parser, NewGamePracticeOptions) {
  const auto r =
      parse_as<NewGame>(R"({"type":"new_game","mode":"match3","preset":"classic","refill":false})");
  EXPECT_FALSE(r.setup.refill);
  EXPECT_FALSE(r.setup.ranked());
  const auto c = parse_as<NewGame>(
      R"({"type":"new_game","mode":"hidden","preset":"classic","compress":true})");
  EXPECT_TRUE(c.setup.compress);
  // Default values are no option and are accepted in every mode.
  const auto s = parse_as<NewGame>(
      R"({"type":"new_game","mode":"same","preset":"easy","refill":true,"compress":false})");
  EXPECT_TRUE(s.setup.ranked());
}

TEST(Parser, NewGameCustomSizes) {
  const auto g =
      parse_as<NewGame>(R"({"type":"new_game","mode":"same","width":40,"height":2,"colors":10})");
  EXPECT_TRUE(g.setup.preset.empty());
  EXPECT_EQ(g.setup.width, 40);
  EXPECT_EQ(g.setup.height, 2);
  EXPECT_EQ(g.setup.colors, 10);
  EXPECT_FALSE(g.setup.moves);

  const auto m = parse_as<NewGame>(
      R"({"type":"new_game","mode":"match3","width":8,"height":9,"colors":12,"moves":1000})");
  EXPECT_EQ(m.setup.moves, 1000);
  const auto u = parse_as<NewGame>(
      R"({"type":"new_game","mode":"match3","width":8,"height":9,"colors":5,"moves":null})");
  EXPECT_FALSE(u.setup.moves);
}

TEST(Parser, NewGameCustomBoard) {
  const auto g = parse_as<NewGame>(
      R"({"type":"new_game","mode":"match3","board":[[1,2,3],[0,12,1],[3,3,1]],"seed":"b"})");
  ASSERT_TRUE(g.setup.board);
  EXPECT_EQ(g.setup.board->width(), 3);
  EXPECT_EQ(g.setup.board->height(), 3);
  EXPECT_EQ(g.setup.board->at(1, 1), 12);
  EXPECT_EQ(g.setup.board->at(0, 1), 0);
  EXPECT_EQ(g.setup.board->at(2, 0), 3);
  EXPECT_EQ(g.setup.seed, "b");

  const auto same =
      parse_as<NewGame>(R"({"type":"new_game","mode":"same","board":[[1,1],[2,10]]})");
  ASSERT_TRUE(same.setup.board);
  EXPECT_EQ(same.setup.board->at(1, 1), 10);
}

TEST(Parser, NewGameCustomBoardOfFortyByForty) {
  json rows = json::array();
  for (int y = 0; y < 40; ++y) rows.push_back(std::vector<int>(40, 1 + y % 3));
  const auto g =
      parse_as<NewGame>(json{{"type", "new_game"}, {"mode", "same"}, {"board", rows}}.dump());
  ASSERT_TRUE(g.setup.board);
  EXPECT_EQ(g.setup.board->width(), 40);
  EXPECT_EQ(g.setup.board->at(39, 39), 1 + 39 % 3);
}

TEST(Parser, ParsedSetupsAreAcceptedByTheEngine) {
  for (
      const char* text : {
          R"({"type":"new_game","mode":"same","preset":"classic"})",
          R"({"type":"new_game","mode":"same","width":2,"height":40,"colors":2})",
          R"({"type":"new_game","mode":"same","board":[[1,0],[1,2]]})",
          R"({"type":"new_game","mode":"match3","preset":"crush","refill":false})",
          R"({"type":"new_game","mode":"match3","width":5,"height":6,"colors":4,"moves":3})",
          R"({"type":"new_game","mode":"match3","board":[[1,2,1],[2,1,2],[1,2,1]],"refill":false})",
          R"({"type":"new_game","mode":"hidden","preset":"large","compress":true})",
          R"({"type":"new_game","mode":"hidden","board":[[1,1],[2,2]]})",
      }) {
    NewGame g = parse_as<NewGame>(text);
    g.setup.seed = "engine-check";
    const game::CreateResult created = game::create_game(g.setup);
    EXPECT_TRUE(created.game) << text << ": " << created.error;
  }
}

TEST(Parser, GameIdCommands) {
  EXPECT_EQ(parse_as<Resume>(R"({"type":"resume","game_id":"g1"})").game_id, "g1");
  EXPECT_EQ(parse_as<HintRequest>(R"({"type":"hint","game_id":"g2"})").game_id, "g2");
  EXPECT_EQ(parse_as<Undo>(R"({"type":"undo","game_id":"g3"})").game_id, "g3");
  EXPECT_EQ(parse_as<Resign>(R"({"type":"resign","game_id":"g4"})").game_id, "g4");
}

TEST(Parser, PointMoves) {
  const std::pair<const char*, game::MoveKind> kinds[] = {
      {"click", game::MoveKind::click},
      {"peek", game::MoveKind::peek},
      {"select", game::MoveKind::select},
      {"unselect", game::MoveKind::unselect},
  };
  for (const auto& [type, kind] : kinds) {
    const auto m = parse_as<MoveCommand>(
        json{{"type", type}, {"game_id", "g"}, {"x", 3}, {"y", -4}, {"id", 1}}.dump());
    EXPECT_EQ(m.game_id, "g");
    EXPECT_EQ(m.move.kind, kind);
    EXPECT_EQ(m.move.a, (game::Point{3, -4}));
    EXPECT_EQ(type_name(m), type);
  }
}

TEST(Parser, CoordinatesAtTheThirtyTwoBitLimits) {
  const auto m =
      parse_as<MoveCommand>(R"({"type":"click","game_id":"g","x":2147483647,"y":-2147483648})");
  EXPECT_EQ(m.move.a.x, 2147483647);
  EXPECT_EQ(m.move.a.y, -2147483647 - 1);
  // -0 is an integer in JSON's grammar.
  EXPECT_EQ(parse_as<MoveCommand>(R"({"type":"click","game_id":"g","x":-0,"y":0})").move.a.x, 0);
}

TEST(Parser, Swap) {
  const auto m = parse_as<MoveCommand>(R"({"type":"swap","game_id":"g","a":[1,2],"b":[1,3]})");
  EXPECT_EQ(m.move.kind, game::MoveKind::swap);
  EXPECT_EQ(m.move.a, (game::Point{1, 2}));
  EXPECT_EQ(m.move.b, (game::Point{1, 3}));
  EXPECT_EQ(type_name(m), "swap");
}

TEST(Parser, Preview) {
  const auto p = parse_as<Preview>(R"({"type":"preview","game_id":"g","x":0,"y":9})");
  EXPECT_EQ(p.game_id, "g");
  EXPECT_EQ(p.point, (game::Point{0, 9}));
}

TEST(Parser, Rooms) {
  const auto c = parse_as<CreateRoom>(R"({"type":"create_room","mode":"match3","preset":"crush"})");
  EXPECT_EQ(c.mode, game::Mode::match3);
  EXPECT_EQ(c.preset, "crush");
  EXPECT_FALSE(c.seed);
  EXPECT_EQ(
      parse_as<CreateRoom>(R"({"type":"create_room","mode":"same","preset":"hard","seed":"s"})")
          .seed,
      "s");

  const auto j = parse_as<JoinRoom>(R"({"type":"join_room","code":"ABCD"})");
  EXPECT_EQ(j.code, "ABCD");
  EXPECT_FALSE(j.spectator);
  EXPECT_FALSE(parse_as<JoinRoom>(R"({"type":"join_room","code":"A","as":"player"})").spectator);
  EXPECT_TRUE(parse_as<JoinRoom>(R"({"type":"join_room","code":"A","as":"spectator"})").spectator);
  EXPECT_EQ(parse_as<LeaveRoom>(R"({"type":"leave_room","code":"Q"})").code, "Q");
  EXPECT_EQ(parse_as<StartRoom>(R"({"type":"start_room","code":"R"})").code, "R");
}

TEST(Parser, PingAndUnknownFieldsIgnored) {
  parse_as<Ping>(R"({"type":"ping"})");
  parse_as<Ping>(R"({"type":"ping","extra":{"deep":[1,2,3]},"more":"x"})");
  const auto h = parse_as<Hello>(R"({"name":"Bo","whatever":1,"type":"hello"})");
  EXPECT_EQ(h.name, "Bo");
}

TEST(Parser, Running) {
  parse_as<Running>(R"({"type":"running"})");
  parse_as<Running>(R"({"type":"running","id":3,"competition":"ignored"})");
  EXPECT_EQ(type_name(Running{}), "running");
}

TEST(Parser, TypeNames) {
  EXPECT_EQ(type_name(Hello{}), "hello");
  EXPECT_EQ(type_name(NewGame{}), "new_game");
  EXPECT_EQ(type_name(HintRequest{}), "hint");
  EXPECT_EQ(type_name(JoinRoom{}), "join_room");
  EXPECT_EQ(type_name(Ping{}), "ping");
}

}  // namespace
}  // namespace tilecrush::protocol
