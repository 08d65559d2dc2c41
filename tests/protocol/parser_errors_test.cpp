// Every validation failure is bad_request, echoes a valid id, and never throws.
#include <gtest/gtest.h>

#include "tilecrush/protocol/commands.hpp"

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

void expect_bad(std::string_view text, const json& id = 5) {
  const ParseResult r = parse_client_message(text);
  EXPECT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.error.code, ErrorCode::bad_request) << text;
  EXPECT_FALSE(r.error.message.empty()) << text;
  EXPECT_EQ(r.id, id) << text;
}

// `fields` merged into {"type": type, "id": 5}.
void expect_bad_fields(const char* type, json fields) {
  fields["type"] = type;
  fields["id"] = 5;
  expect_bad(fields.dump());
}

TEST(ParserErrors, NotAnObject) {
  expect_bad("", nullptr);
  expect_bad("{", nullptr);
  expect_bad("not json", nullptr);
  expect_bad(R"({"type":"ping","id":5} trailing)", nullptr);
  expect_bad("[1,2]", nullptr);
  expect_bad("42", nullptr);
  expect_bad("\"ping\"", nullptr);
  expect_bad("null", nullptr);
}

TEST(ParserErrors, Type) {
  expect_bad(R"({"id":5})");
  expect_bad(R"({"id":5,"type":7})");
  expect_bad(R"({"id":5,"type":null})");
  expect_bad(R"({"id":5,"type":"fly"})");
  expect_bad(R"({"id":5,"type":"PING"})");
}

TEST(ParserErrors, BadIdIsNotEchoed) {
  expect_bad(R"({"type":"ping","id":{"a":1}})", nullptr);
  expect_bad(R"({"type":"ping","id":[1]})", nullptr);
  expect_bad(R"({"type":"ping","id":true})", nullptr);
  expect_bad(json{{"type", "ping"}, {"id", std::string(65, 'x')}}.dump(), nullptr);
}

TEST(ParserErrors, ErrorsEchoStringIds) {
  const ParseResult r = parse_client_message(R"({"type":"nope","id":"req-1"})");
  EXPECT_EQ(r.error.code, ErrorCode::bad_request);
  EXPECT_EQ(r.id, "req-1");
}

TEST(ParserErrors, HelloName) {
  expect_bad(R"({"type":"hello","id":5})");
  expect_bad_fields("hello", {{"name", ""}});
  expect_bad_fields("hello", {{"name", std::string(33, 'a')}});
  expect_bad_fields("hello", {{"name", 12}});
  expect_bad_fields("hello", {{"name", nullptr}});
  expect_bad_fields("hello", {{"name", "a\tb"}});
  expect_bad_fields("hello", {{"name", std::string("a\0b", 3)}});
  expect_bad_fields("hello", {{"name", "a\x7f"}});
  expect_bad_fields("hello", {{"name", "a\xC2\x85"}});  // U+0085, a C1 control
  std::string long_name;
  for (int i = 0; i < 33; ++i) long_name += "\xC3\xA9";
  expect_bad_fields("hello", {{"name", long_name}});
  // A name that would show as nothing, or hold an invisible look-alike.
  for (const char* invisible :
       {"\u200B\u200B", "   ", "\u00A0", "\u3000", "\u2800", "\u200D", "Kim\u200B",
        "\u202E"
        "Ada",
        "A\u00AD"
        "da",
        "Ada\uFEFF", "\u3164"}) {
    const ParseResult r =
        parse_client_message(json{{"type", "hello"}, {"id", 5}, {"name", invisible}}.dump());
    EXPECT_EQ(r.error.code, ErrorCode::bad_request) << invisible;
    EXPECT_TRUE(r.error.message == "name must show at least one visible character" ||
                r.error.message == "name must not contain invisible characters")
        << invisible << ": " << r.error.message;
  }
  expect_bad_fields("hello", {{"name", "Ada"}, {"token", 5}});
  expect_bad_fields("hello", {{"name", "Ada"}, {"token", ""}});
  // A recovery code: a string of 1-64 characters without controls, never
  // with a token.
  expect_bad_fields("hello", {{"name", "Ada"}, {"recovery", 5}});
  expect_bad_fields("hello", {{"name", "Ada"}, {"recovery", ""}});
  expect_bad_fields("hello", {{"name", "Ada"}, {"recovery", std::string(65, 'A')}});
  expect_bad_fields("hello", {{"name", "Ada"}, {"recovery", "AB\nCD"}});
  expect_bad_fields("hello", {{"name", "Ada"}, {"token", "t"}, {"recovery", "AB"}});
}

TEST(ParserErrors, InvalidUtf8InNameIsNotJson) {
  // The JSON text itself is then invalid, so no id can be read.
  expect_bad("{\"type\":\"hello\",\"id\":5,\"name\":\"a\xff\"}", nullptr);
  expect_bad("{\"type\":\"hello\",\"id\":5,\"name\":\"\xC0\xAF\"}", nullptr);
  expect_bad("{\"type\":\"hello\",\"id\":5,\"name\":\"\xED\xA0\x80\"}", nullptr);
  expect_bad(R"({"type":"hello","id":5,"name":"\ud800"})", nullptr);
}

TEST(ParserErrors, Coordinates) {
  for (const char* bad : {"1.0", "1e2", "\"1\"", "2147483648", "-2147483649", "null", "true", "[1]",
                          "18446744073709551616", "1.5"}) {
    expect_bad(std::string(R"({"type":"click","id":5,"game_id":"g","y":0,"x":)") + bad + "}");
    expect_bad(std::string(R"({"type":"preview","id":5,"game_id":"g","x":0,"y":)") + bad + "}");
  }
  expect_bad(R"({"type":"peek","id":5,"game_id":"g","x":1})");
  expect_bad(R"({"type":"select","id":5,"x":1,"y":1})");
}

TEST(ParserErrors, Swap) {
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","a":[1,2,3],"b":[1,3]})");
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","a":[1],"b":[1,3]})");
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","a":[1,2]})");
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","a":[1,2],"b":[1.0,3]})");
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","a":{"x":1,"y":2},"b":[1,3]})");
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","a":[1,2],"b":[1,2147483648]})");
  expect_bad(R"({"type":"swap","id":5,"game_id":"g","x":1,"y":2})");
}

TEST(ParserErrors, GameIdsAndCodes) {
  expect_bad(R"({"type":"resume","id":5})");
  expect_bad(R"({"type":"resume","id":5,"game_id":7})");
  expect_bad(R"({"type":"undo","id":5,"game_id":""})");
  expect_bad_fields("resign", {{"game_id", std::string(65, 'g')}});
  expect_bad(R"({"type":"join_room","id":5})");
  expect_bad(R"({"type":"join_room","id":5,"code":"A","as":"judge"})");
  expect_bad(R"({"type":"join_room","id":5,"code":"A","as":true})");
  expect_bad(R"({"type":"leave_room","id":5,"code":[]})");
  expect_bad(R"({"type":"start_room","id":5})");
}

TEST(ParserErrors, NewGameModeAndPreset) {
  expect_bad_fields("new_game", {{"preset", "easy"}});
  expect_bad_fields("new_game", {{"mode", "tetris"}, {"preset", "easy"}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "crush"}});
  expect_bad_fields("new_game", {{"mode", "match3"}, {"preset", "easy"}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", 3}});
  expect_bad_fields("new_game", {{"mode", "same"}});
  expect_bad_fields("create_room", {{"mode", "same"}});
  expect_bad_fields("create_room", {{"mode", "same"}, {"preset", "huge"}});
  expect_bad_fields("create_room", {{"mode", "same"}, {"preset", "easy"}, {"seed", ""}});
}

TEST(ParserErrors, NewGameSeedAndDaily) {
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "easy"}, {"seed", ""}});
  expect_bad_fields("new_game",
                    {{"mode", "same"}, {"preset", "easy"}, {"seed", std::string(65, 's')}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "easy"}, {"seed", 12}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "easy"}, {"seed", "a\nb"}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "easy"}, {"daily", "yes"}});
  expect_bad_fields("new_game",
                    {{"mode", "same"}, {"preset", "easy"}, {"daily", true}, {"seed", "x"}});
  expect_bad_fields(
      "new_game", {{"mode", "same"}, {"width", 5}, {"height", 5}, {"colors", 3}, {"daily", true}});
  // A daily board is played as it is.
  expect_bad_fields(
      "new_game", {{"mode", "match3"}, {"preset", "classic"}, {"daily", true}, {"refill", false}});
  expect_bad_fields(
      "new_game", {{"mode", "hidden"}, {"preset", "classic"}, {"daily", true}, {"compress", true}});
  // A competition's board is its own: nothing else may be chosen with it.
  for (const char* other : {"mode", "preset", "seed", "daily", "refill"}) {
    json fields = {{"competition", "abc"}};
    fields[other] =
        std::string(other) == "daily" || std::string(other) == "refill" ? json(true) : json("same");
    expect_bad_fields("new_game", fields);
  }
  expect_bad_fields("new_game", {{"competition", ""}});
  expect_bad_fields("new_game", {{"competition", 7}});
}

TEST(ParserErrors, NewGameCustomSizes) {
  expect_bad_fields("new_game", {{"mode", "same"}, {"width", 5}, {"height", 5}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"width", 1}, {"height", 5}, {"colors", 3}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"width", 41}, {"height", 5}, {"colors", 3}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"width", 5}, {"height", 5}, {"colors", 11}});
  expect_bad_fields("new_game", {{"mode", "match3"}, {"width", 33}, {"height", 5}, {"colors", 3}});
  expect_bad_fields("new_game", {{"mode", "match3"}, {"width", 5}, {"height", 5}, {"colors", 13}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"width", 5.0}, {"height", 5}, {"colors", 3}});
  expect_bad_fields("new_game",
                    {{"mode", "match3"}, {"width", 5}, {"height", 5}, {"colors", 3}, {"moves", 0}});
  expect_bad_fields(
      "new_game",
      {{"mode", "match3"}, {"width", 5}, {"height", 5}, {"colors", 3}, {"moves", 1001}});
  expect_bad_fields("new_game",
                    {{"mode", "same"}, {"width", 5}, {"height", 5}, {"colors", 3}, {"moves", 10}});
  expect_bad_fields("new_game", {{"mode", "match3"}, {"preset", "classic"}, {"moves", 10}});
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "easy"}, {"width", 10}});
}

TEST(ParserErrors, NewGamePracticeOptions) {
  expect_bad_fields("new_game", {{"mode", "same"}, {"preset", "easy"}, {"refill", false}});
  expect_bad_fields("new_game", {{"mode", "match3"}, {"preset", "big"}, {"compress", true}});
  expect_bad_fields("new_game", {{"mode", "match3"}, {"preset", "big"}, {"refill", 0}});
}

TEST(ParserErrors, NewGameBoard) {
  const auto board = [](json rows, const char* mode = "same") {
    expect_bad_fields("new_game", {{"mode", mode}, {"board", std::move(rows)}});
  };
  board(json::parse("[[1,2],[1]]"));  // not rectangular
  board(json::parse("[[1,2],[1,2,3]]"));
  board(json::parse("[[1,2],[1,13]]"), "match3");  // cell 13
  board(json::parse("[[1,2,3],[1,2,3],[1,2,13]]"), "match3");
  board(json::parse("[[1,2],[1,11]]"));  // same: cells 0..10
  board(json::parse("[[1,2],[1,-1]]"));
  board(json::parse("[[1,2],[1,1.0]]"));
  board(json::parse("[[1,2],[1,\"1\"]]"));
  board(json::parse("[[0,0],[0,0]]"));            // no tile
  board(json::parse("[[1,2]]"));                  // one row
  board(json::parse("[[1,2],[1,2]]"), "match3");  // match3: at least 3x3
  board(json::parse("[]"));
  board(json::parse("[1,2]"));
  board(json::parse("{\"a\":1}"));
  board(json::array({std::vector<int>(41, 1), std::vector<int>(41, 1)}));
  json tall = json::array();
  for (int i = 0; i < 41; ++i) tall.push_back(std::vector<int>{1, 2});
  board(tall);
  expect_bad_fields("new_game",
                    {{"mode", "same"}, {"board", json::parse("[[1,1],[1,1]]")}, {"width", 2}});
  expect_bad_fields(
      "new_game", {{"mode", "same"}, {"board", json::parse("[[1,1],[1,1]]")}, {"preset", "easy"}});
}

TEST(ParserErrors, DeepNestingIsRefusedWithoutCrashing) {
  for (const char* open : {"[", "{\"a\":"}) {
    std::string text = R"({"type":"ping","id":5,"x":)";
    for (int i = 0; i < 10000; ++i) text += open;
    const ParseResult r = parse_client_message(text);
    EXPECT_EQ(r.error.code, ErrorCode::bad_request);
  }
  std::string balanced = R"({"type":"ping","id":5,"x":)";
  balanced += std::string(10000, '[') + std::string(10000, ']') + "}";
  EXPECT_EQ(parse_client_message(balanced).error.code, ErrorCode::bad_request);
  // Brackets inside strings do not count.
  std::string quoted = R"({"type":"ping","x":")" + std::string(10000, '[') + "\"}";
  EXPECT_TRUE(parse_client_message(quoted).ok());
  std::string escaped = R"({"type":"ping","x":"\"\\)" + std::string(100, '{') + "\"}";
  EXPECT_TRUE(parse_client_message(escaped).ok()) << escaped;
  // Nesting up to the limit is fine (the message itself is depth 1).
  std::string deep = R"({"type":"ping","x":)";
  deep += std::string(kMaxDepth - 1, '[') + std::string(kMaxDepth - 1, ']') + "}";
  EXPECT_TRUE(parse_client_message(deep).ok());
}

TEST(ParserErrors, ArbitraryBytesNeverThrow) {
  std::string text = R"({"type":"click","game_id":"g","x":1,"y":2})";
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const char c : {'\0', '"', '{', ']', '\\', '\xff', '9', '.'}) {
      std::string mutated = text;
      mutated[i] = c;
      EXPECT_NO_THROW(parse_client_message(mutated));
      mutated.insert(i, 1, c);
      EXPECT_NO_THROW(parse_client_message(mutated));
    }
  }
}

}  // namespace
}  // namespace tilecrush::protocol
