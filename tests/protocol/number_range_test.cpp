// Numbers no double can hold (beyond about ±1.8e308: 1e999999, an integer of
// 400 digits) are valid JSON: the message is still read far enough to echo
// its id, and is refused with bad_request naming the field (protocol.md,
// "id" and "Fields"). Numbers too small for a double read as 0.
#include <gtest/gtest.h>

#include <string>

#include "tilecrush/protocol/commands.hpp"

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

// bad_request, the given id echoed, and a message naming `field`.
void expect_out_of_range(const std::string& text, const std::string& field, const json& id = 5) {
  const ParseResult r = parse_client_message(text);
  EXPECT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.error.code, ErrorCode::bad_request) << text;
  EXPECT_EQ(r.id, id) << text;
  EXPECT_EQ(r.error.message, field + " is a number out of range (magnitude over 1.8e308)") << text;
}

const std::string kHugeInteger = "1" + std::string(400, '0');

TEST(NumberRange, AnUnknownFieldOutOfRangeIsRefusedWithTheId) {
  expect_out_of_range(R"({"type":"ping","id":5,"x":1e999999})", "x");
  expect_out_of_range(R"({"type":"ping","x":1e999999,"id":5})", "x");
  expect_out_of_range(R"({"x":-1e999999,"id":5,"type":"ping"})", "x");
  expect_out_of_range(R"({"type":"ping","id":"req-1","x":1E+400})", "x", "req-1");
  expect_out_of_range(R"({"type":"ping","id":5,"x":1.5e309})", "x");
  expect_out_of_range(R"({"type":"ping","id":5,"x":1.8e308})", "x");
  expect_out_of_range(R"({"type":"ping","id":5,"x":)" + kHugeInteger + "}", "x");
  expect_out_of_range(R"({"type":"ping","id":5,"x":-)" + kHugeInteger + ".5}", "x");
  expect_out_of_range(R"({"type":"ping","id":5,"x":1e99999999999999999999999})", "x");
}

TEST(NumberRange, TheLargestDoubleIsStillANumber) {
  const ParseResult r =
      parse_client_message(R"({"type":"ping","id":5,"x":1.7976931348623157e308})");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.id, 5);
}

TEST(NumberRange, WithoutAnIdTheAnswerHasNone) {
  expect_out_of_range(R"({"type":"ping","x":1e999999})", "x", nullptr);
  expect_out_of_range(R"({"type":"hello","name":"Ada","token":1e999})", "token", nullptr);
}

TEST(NumberRange, NestedArraysAndObjectsAreNamedByPath) {
  expect_out_of_range(
      R"({"type":"new_game","id":5,"mode":"same","board":[[1,2],[1e999,1]],"seed":"s"})",
      "board[1][0]");
  expect_out_of_range(R"({"type":"ping","id":5,"extra":{"deep":[0,[1,-1e999]]}})",
                      "extra.deep[1][1]");
  expect_out_of_range(R"({"type":"ping","id":5,"a":[[[[[[1e999]]]]]]})", "a[0][0][0][0][0][0]");
  // The first in text order is named.
  expect_out_of_range(R"({"type":"ping","id":5,"a":[1e999,2,1e999],"b":1e999})", "a[0]");
}

TEST(NumberRange, AKeyThatCannotBeShownIsAQuestionMark) {
  // The message stays short valid text whatever the keys hold (found by
  // fuzz_protocol: a key with \u0000 was copied into the message).
  expect_out_of_range(R"({"type":"ping","id":5,"a\u0000b":1e999})", "?");
  expect_out_of_range(R"({"type":"ping","id":5,"x":{"\"q\"":[1e999]}})", "x.?[0]");
  expect_out_of_range(R"({"type":"ping","id":5,")" + std::string(65, 'k') + R"(":1e999})", "?");
  expect_out_of_range(R"({"type":"ping","id":5,"é":1e999})", "?");
  // A path past 200 bytes is not named.
  const std::string key(60, 'k');
  expect_out_of_range(R"({"type":"ping","id":5,")" + key + R"(":{")" + key + R"(":{")" + key +
                          R"(":{")" + key + R"(":1e999}}}})",
                      "a field");
}

TEST(NumberRange, NumbersAroundTheOutOfRangeOneKeepTheirValues) {
  // Each out-of-range number is marked by its position among all the numbers.
  expect_out_of_range(R"({"type":"ping","n":[0,-1,2.5,1e3,1e-999],"x":1e999,"id":9})", "x", 9);
  expect_out_of_range(R"({"type":"ping","n":[0,1e999,2],"x":[3,4],"id":-2.5})", "n[1]", -2.5);
  expect_out_of_range(
      R"({"type":"new_game","id":5,"mode":"match3","width":9,"height":7,"colors":5,"moves":1e400})",
      "moves");
}

TEST(NumberRange, Coordinates) {
  expect_out_of_range(R"({"type":"click","id":5,"game_id":"g","x":1e999999,"y":0})", "x");
  expect_out_of_range(R"({"type":"click","id":5,"game_id":"g","x":0,"y":-1e999999})", "y");
  expect_out_of_range(
      R"({"type":"preview","id":5,"game_id":"g","x":)" + kHugeInteger + R"(,"y":0})", "x");
  expect_out_of_range(R"({"type":"swap","id":5,"game_id":"g","a":[1e999,0],"b":[0,1]})", "a[0]");
  expect_out_of_range(R"({"type":"swap","id":5,"game_id":"g","a":[0,0],"b":[0,-1e999]})", "b[1]");
}

TEST(NumberRange, AnIdOutOfRangeCannotBeEchoed) {
  for (const std::string& id :
       {std::string("1e999999"), std::string("-1e999999"), std::string("1.8e308"), kHugeInteger}) {
    const std::string text = R"({"type":"ping","id":)" + id + "}";
    const ParseResult r = parse_client_message(text);
    EXPECT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error.code, ErrorCode::bad_request) << text;
    EXPECT_EQ(r.id, nullptr) << text;
    EXPECT_EQ(r.error.message, "id is a number out of range (magnitude over 1.8e308)") << text;
  }
  // Of duplicate keys the last one wins, an out-of-range one too.
  const ParseResult last = parse_client_message(R"({"type":"ping","id":1e999,"id":5})");
  EXPECT_TRUE(last.ok());
  EXPECT_EQ(last.id, 5);
  EXPECT_TRUE(parse_client_message(R"({"type":"ping","id":5,"x":1e999,"x":1})").ok());
}

TEST(NumberRange, LargeIdsThatADoubleHoldsAreEchoedByValue) {
  const ParseResult big = parse_client_message(R"({"type":"ping","id":1e308})");
  EXPECT_TRUE(big.ok());
  EXPECT_EQ(big.id, 1e308);
  const ParseResult integer =
      parse_client_message(R"({"type":"ping","id":123456789012345678901234567890})");
  EXPECT_TRUE(integer.ok());
  EXPECT_TRUE(integer.id.is_number_float());
  EXPECT_EQ(integer.id, 123456789012345678901234567890.0);
}

TEST(NumberRange, NumbersTooSmallForADoubleReadAsZero) {
  // As an id: echoed by value, 0.0.
  const ParseResult id = parse_client_message(R"({"type":"ping","id":1e-999999})");
  EXPECT_TRUE(id.ok());
  EXPECT_TRUE(id.id.is_number_float());
  EXPECT_EQ(id.id, 0.0);
  // As an unknown field: ignored like any other.
  EXPECT_TRUE(parse_client_message(R"({"type":"ping","id":5,"x":-1e-999999})").ok());
  // As a coordinate: a number with an exponent is no JSON integer.
  for (const char* bad : {R"({"type":"click","id":5,"game_id":"g","x":1e-999999,"y":0})",
                          R"({"type":"swap","id":5,"game_id":"g","a":[0,0],"b":[0,0e-999]})"}) {
    const ParseResult r = parse_client_message(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error.code, ErrorCode::bad_request) << bad;
    EXPECT_EQ(r.id, 5) << bad;
  }
}

TEST(NumberRange, TextInStringsIsNotANumber) {
  const ParseResult r = parse_client_message(R"({"type":"hello","id":5,"name":"1e999"})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::get<Hello>(*r.command).name, "1e999");
  // An escaped quote does not end the string.
  const ParseResult q = parse_client_message(R"({"type":"hello","id":5,"name":"a\"1e999"})");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(std::get<Hello>(*q.command).name, "a\"1e999");
  expect_out_of_range(R"({"type":"hello","id":5,"name":"a\\","x":1e999})", "x");
}

TEST(NumberRange, InvalidJsonStaysInvalid) {
  for (const char* text :
       {R"({"type":"ping","id":5,"x":1e999,})", R"({"type":"ping","id":5,"x":01e999})",
        R"({"type":"ping","id":5,"x":1e999e1})", R"({"type":"ping","id":5,"x":1e999 2})",
        R"({"type":"ping","id":5,"x":1e999-})", R"({"type":"ping","id":5,"x":-1e999)",
        R"({"type":"ping","id":5,"x":+1e999})", R"({"type":"ping","id":5,"x":1e})"}) {
    const ParseResult r = parse_client_message(text);
    EXPECT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error.code, ErrorCode::bad_request) << text;
    EXPECT_EQ(r.error.message, "message is not valid JSON") << text;
    EXPECT_EQ(r.id, nullptr) << text;
  }
}

TEST(NumberRange, OutOfRangeValuesThatAreNotObjects) {
  for (const char* text : {"1e999", "[1e999]", "[1,{\"id\":5,\"x\":1e999}]"}) {
    const ParseResult r = parse_client_message(text);
    EXPECT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error.message, "message must be a JSON object") << text;
    EXPECT_EQ(r.id, nullptr) << text;
  }
}

TEST(NumberRange, AFullMessageOfOutOfRangeNumbers) {
  std::string text = R"({"type":"ping","id":5,"x":[)";
  while (text.size() < 16000) text += "1e999,";
  text += "1e999]}";
  expect_out_of_range(text, "x[0]");
}

}  // namespace
}  // namespace tilecrush::protocol
