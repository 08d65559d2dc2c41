// bad_request, unauthorized and not_found as protocol.md lists them; after
// every refusal the game is unchanged (resume gives the same view and hash).
#include <gtest/gtest.h>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

class ErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    client_ = std::make_unique<WsClient>(ts_.port());
    const json welcome = client_->hello("alice");
    ASSERT_EQ(welcome["type"], "welcome") << welcome;
    token_ = welcome["token"];
    const json view =
        start_game(*client_, {{"mode", "same"}, {"preset", "easy"}, {"seed", "errors"}});
    ASSERT_TRUE(view.is_object());
    game_id_ = view["game_id"];
    local_ = make_local(preset_setup(game::Mode::same, "easy", "errors"));
    game::Hint hint;
    ASSERT_TRUE(local_->hint(hint).ok());
    play_move(*client_, game_id_, *local_, hint.move);
  }

  // Sends `message` (with an id), expects `code` with the id echoed, then
  // checks the game did not change.
  void expect_refused(json message, const std::string& code) {
    SCOPED_TRACE(message.dump());
    const json reply = client_->request(std::move(message));
    EXPECT_TRUE(is_error(reply, code));
    expect_resume_matches(*client_, game_id_, *local_);
  }

  // Sends raw text whose answer must be `code` with id `id` (null: none).
  void expect_raw_refused(const std::string& text, const std::string& code, const json& id) {
    SCOPED_TRACE(text);
    client_->send_text(text);
    const json reply = client_->receive();
    EXPECT_TRUE(is_error(reply, code));
    EXPECT_TRUE(reply.contains("id")) << reply;
    EXPECT_EQ(reply["id"], id);
    expect_resume_matches(*client_, game_id_, *local_);
  }

  json move(json fields) {
    fields["game_id"] = game_id_;
    return fields;
  }

  TestServer ts_;
  std::unique_ptr<WsClient> client_;
  std::string token_;
  std::string game_id_;
  std::unique_ptr<game::Game> local_;
};

TEST_F(ErrorsTest, BadRequestForTextThatIsNotAMessage) {
  expect_raw_refused("{oops", "bad_request", nullptr);
  expect_raw_refused("", "bad_request", nullptr);
  expect_raw_refused("[1,2]", "bad_request", nullptr);
  expect_raw_refused("42", "bad_request", nullptr);
  expect_raw_refused("\"ping\"", "bad_request", nullptr);
  expect_raw_refused(R"({"id":3})", "bad_request", 3);
  expect_raw_refused(R"({"type":"dance","id":4})", "bad_request", 4);
  expect_raw_refused(R"({"type":"PING","id":"five"})", "bad_request", "five");
  expect_raw_refused(R"({"type":7,"id":6})", "bad_request", 6);
  expect_raw_refused(R"({"type":"ping","id":")" + std::string(65, 'i') + R"("})", "bad_request",
                     nullptr);
  expect_raw_refused(R"({"type":"ping","id":[1]})", "bad_request", nullptr);
  // Not JSON (a lone surrogate), too deep to parse: the id cannot be read.
  expect_raw_refused(R"({"type":"hello","id":7,"name":"\ud800"})", "bad_request", nullptr);
  expect_raw_refused(
      R"({"type":"ping","id":8,"deep":)" + std::string(40, '[') + std::string(40, ']') + "}",
      "bad_request", nullptr);
}

TEST_F(ErrorsTest, BadRequestForMissingOrWronglyTypedFields) {
  expect_refused(move({{"type", "click"}, {"x", 0}}), "bad_request");
  expect_refused(move({{"type", "click"}, {"y", 0}}), "bad_request");
  expect_refused({{"type", "click"}, {"x", 0}, {"y", 0}}, "bad_request");
  expect_refused(move({{"type", "click"}, {"x", "1"}, {"y", 0}}), "bad_request");
  expect_refused(move({{"type", "click"}, {"x", 0}, {"y", nullptr}}), "bad_request");
  expect_refused(move({{"type", "click"}, {"x", true}, {"y", 0}}), "bad_request");
  expect_refused({{"type", "click"}, {"game_id", 17}, {"x", 0}, {"y", 0}}, "bad_request");
  expect_refused({{"type", "resume"}}, "bad_request");
  expect_refused({{"type", "resume"}, {"game_id", json::array()}}, "bad_request");
  expect_refused({{"type", "new_game"}, {"preset", "easy"}}, "bad_request");
  expect_refused({{"type", "new_game"}, {"mode", "tetris"}, {"preset", "easy"}}, "bad_request");
  expect_refused({{"type", "new_game"}, {"mode", "same"}, {"preset", 3}}, "bad_request");
  expect_refused({{"type", "new_game"}, {"mode", "same"}, {"preset", "nope"}}, "bad_request");
  expect_refused({{"type", "new_game"}, {"mode", "hidden"}, {"preset", "easy"}}, "bad_request");
  expect_refused(
      {{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", std::string(65, 's')}},
      "bad_request");
  expect_refused(
      {{"type", "new_game"}, {"mode", "same"}, {"width", 41}, {"height", 5}, {"colors", 3}},
      "bad_request");
  expect_refused({{"type", "new_game"}, {"mode", "same"}, {"board", {{1, 11}, {1, 2}}}},
                 "bad_request");
  expect_refused(move({{"type", "swap"}, {"a", {0, 0}}}), "bad_request");
  expect_refused(move({{"type", "swap"}, {"a", {0, 0}}, {"b", {1}}}), "bad_request");
}

TEST_F(ErrorsTest, BadRequestForAMoveOfAnotherMode) {
  expect_refused(move({{"type", "swap"}, {"a", {0, 9}}, {"b", {1, 9}}}), "bad_request");
  expect_refused(move({{"type", "peek"}, {"x", 0}, {"y", 9}}), "bad_request");
  expect_refused(move({{"type", "select"}, {"x", 0}, {"y", 9}}), "bad_request");
}

TEST_F(ErrorsTest, BadRequestForCoordinatesThatAreNotInt32Integers) {
  const std::string head = R"({"type":"click","game_id":")" + game_id_ + R"(","id":)";
  expect_raw_refused(head + R"(10,"x":1.0,"y":0})", "bad_request", 10);
  expect_raw_refused(head + R"(11,"x":1e2,"y":0})", "bad_request", 11);
  expect_raw_refused(head + R"(12,"x":0,"y":2147483648})", "bad_request", 12);
  expect_raw_refused(head + R"(13,"x":-2147483649,"y":0})", "bad_request", 13);
  expect_raw_refused(head + R"(14,"x":0.5,"y":0})", "bad_request", 14);
  expect_raw_refused(head + R"(15,"x":"0","y":0})", "bad_request", 15);
  // In 32 bits but outside the board: the rules refuse it.
  expect_raw_refused(head + R"(16,"x":2147483647,"y":0})", "invalid_move", 16);
  expect_raw_refused(head + R"(17,"x":0,"y":-2147483648})", "invalid_move", 17);
}

TEST_F(ErrorsTest, BadRequestForANameTooLongOrWithControlCharacters) {
  WsClient c(ts_.port());
  EXPECT_TRUE(is_error(c.hello(std::string(33, 'n')), "bad_request"));
  EXPECT_TRUE(is_error(c.hello(""), "bad_request"));
  EXPECT_TRUE(is_error(c.hello("tab\there"), "bad_request"));
  EXPECT_TRUE(is_error(c.request({{"type", "hello"}}), "bad_request"));
  // 32 code points (64 bytes) is fine, and the connection still works.
  std::string longest;
  for (int i = 0; i < 32; ++i) longest += "\xc3\xa9";
  EXPECT_EQ(c.hello(longest)["type"], "welcome");
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");
}

TEST_F(ErrorsTest, UnauthorizedBeforeHelloAndTheConnectionStaysOpen) {
  WsClient c(ts_.port());
  EXPECT_TRUE(is_error(c.request({{"type", "ping"}}), "unauthorized"));
  EXPECT_TRUE(is_error(c.request({{"type", "resume"}, {"game_id", game_id_}}), "unauthorized"));
  EXPECT_TRUE(is_error(c.request({{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}}),
                       "unauthorized"));
  EXPECT_TRUE(is_error(c.request(move({{"type", "click"}, {"x", 0}, {"y", 9}})), "unauthorized"));
  ASSERT_TRUE(c.is_open());
  EXPECT_EQ(c.hello("latecomer")["type"], "welcome");
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");
  expect_resume_matches(*client_, game_id_, *local_);
}

TEST_F(ErrorsTest, UnauthorizedForAWrongTokenOrATakenName) {
  WsClient c(ts_.port());
  EXPECT_TRUE(is_error(c.hello("alice"), "unauthorized"));
  EXPECT_TRUE(is_error(c.hello("ALICE"), "unauthorized"));
  EXPECT_TRUE(is_error(c.hello("alice", std::string(32, '0')), "unauthorized"));
  std::string wrong = token_;
  wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
  EXPECT_TRUE(is_error(c.hello("alice", wrong), "unauthorized"));
  EXPECT_TRUE(is_error(c.hello("alice", token_ + "0"), "unauthorized"));
  // Still not logged in: game requests are refused.
  EXPECT_TRUE(is_error(c.request({{"type", "resume"}, {"game_id", game_id_}}), "unauthorized"));
  // Another player's token does not open this name either.
  WsClient bob(ts_.port());
  const json bob_welcome = bob.hello("bob");
  ASSERT_EQ(bob_welcome["type"], "welcome");
  EXPECT_TRUE(is_error(c.hello("alice", bob_welcome["token"].get<std::string>()), "unauthorized"));
  // A new name ignores the token sent and gets a fresh one.
  const json carol = c.hello("carol", token_);
  ASSERT_EQ(carol["type"], "welcome") << carol;
  EXPECT_NE(carol["token"], token_);
  expect_resume_matches(*client_, game_id_, *local_);
}

TEST_F(ErrorsTest, UnauthorizedForSomeoneElsesGame) {
  WsClient bob(ts_.port());
  ASSERT_EQ(bob.hello("bob")["type"], "welcome");
  const json moves[] = {
      {{"type", "resume"}},
      {{"type", "click"}, {"x", 0}, {"y", 9}},
      {{"type", "preview"}, {"x", 0}, {"y", 9}},
      {{"type", "hint"}},
      {{"type", "undo"}},
      {{"type", "resign"}},
  };
  for (const json& m : moves) {
    SCOPED_TRACE(m.dump());
    const json reply = bob.request(move(m));
    EXPECT_TRUE(is_error(reply, "unauthorized"));
    // protocol.md, "The messages of a refused move".
    EXPECT_EQ(reply.value("message", ""), "not your game") << reply;
    expect_resume_matches(*client_, game_id_, *local_);
  }
  // Alice on a second connection with her token may.
  WsClient again(ts_.port());
  ASSERT_EQ(again.hello("alice", token_)["type"], "welcome");
  expect_resume_matches(again, game_id_, *local_);
}

TEST_F(ErrorsTest, NotFoundForAnUnknownGame) {
  for (const std::string type : {"resume", "hint", "undo", "resign"}) {
    const json reply = client_->request({{"type", type}, {"game_id", "0000000000000000"}});
    EXPECT_TRUE(is_error(reply, "not_found"));
    EXPECT_EQ(reply.value("message", ""), "no such game") << reply;
  }
  EXPECT_TRUE(is_error(
      client_->request({{"type", "click"}, {"game_id", "nope"}, {"x", 0}, {"y", 0}}), "not_found"));
  EXPECT_TRUE(
      is_error(client_->request({{"type", "preview"}, {"game_id", "nope"}, {"x", 0}, {"y", 0}}),
               "not_found"));
  expect_resume_matches(*client_, game_id_, *local_);
  // Rooms are checked by the rooms' own tests.
}

}  // namespace
}  // namespace tilecrush::testing
