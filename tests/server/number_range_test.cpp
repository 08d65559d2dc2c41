// Over a real WebSocket: a message with a number no double can hold is
// answered bad_request with its id (protocol.md, "id" and "Fields"), and the
// connection stays usable.
#include <gtest/gtest.h>

#include <string>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

// Sends raw text; the answer must be bad_request with id `id`.
json expect_bad_request(WsClient& c, const std::string& text, const json& id) {
  SCOPED_TRACE(text);
  c.send_text(text);
  const json reply = c.receive();
  EXPECT_TRUE(is_error(reply, "bad_request"));
  EXPECT_TRUE(reply.contains("id")) << reply;
  EXPECT_EQ(reply["id"], id) << reply;
  return reply;
}

TEST(WsNumberRange, AnOutOfRangeNumberIsBadRequestWithTheId) {
  TestServer ts;
  WsClient c(ts.port());
  // Before hello too: the refusal is about the message itself.
  const json before = expect_bad_request(c, R"({"type":"ping","id":5,"x":1e999999})", 5);
  EXPECT_EQ(before["message"], "x is a number out of range (magnitude over 1.8e308)");
  ASSERT_EQ(c.hello("ranges")["type"], "welcome");
  expect_bad_request(c, R"({"type":"ping","id":5,"x":1e999999})", 5);
  expect_bad_request(c, R"({"type":"click","id":"c1","game_id":"g","x":-1e999,"y":0})", "c1");
  const json nested = expect_bad_request(
      c, R"({"type":"new_game","id":6,"mode":"same","board":[[1,2],[2,1e400]]})", 6);
  EXPECT_EQ(nested["message"], "board[1][1] is a number out of range (magnitude over 1.8e308)");
  expect_bad_request(c, R"({"type":"ping","id":7,"x":)" + std::string(400, '9') + "}", 7);
  // An id out of range has no value to echo.
  const json id = expect_bad_request(c, R"({"type":"ping","id":1e999})", nullptr);
  EXPECT_EQ(id["message"], "id is a number out of range (magnitude over 1.8e308)");
  // Too small for a double: 0.
  c.send_text(R"({"type":"ping","id":1e-999999})");
  const json zero = c.receive();
  EXPECT_EQ(zero["type"], "pong") << zero;
  EXPECT_EQ(zero["id"], 0.0) << zero;
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");
  EXPECT_TRUE(c.is_open());
}

}  // namespace
}  // namespace tilecrush::testing
