// Recovery codes over a real WebSocket (protocol.md, "Recovery codes"): a
// name survives its browser. A code is made once and shown once; another
// device signs in with it and gets a token of its own while the first
// device keeps its token; wrong codes are refused and limited per name; a
// replaced code stops working; only the newest 8 device tokens are kept.
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "itest_util.hpp"
#include "play/recovery_code.hpp"

namespace tilecrush::testing {
namespace {

constexpr std::int64_t kStart = 1'893'492'000'000;  // 2030-01-01T10:00:00Z
constexpr std::int64_t kMinute = 60'000;

// A test server whose clock the test moves.
class ClockedServer {
 public:
  ClockedServer() : clock_(std::make_shared<std::atomic<std::int64_t>>(kStart)) {
    server::Config c = unthrottled_config();
    c.now = [clock = clock_]() { return clock->load(); };
    ts_ = std::make_unique<TestServer>(c);
  }
  TestServer& ts() { return *ts_; }
  unsigned short port() { return ts_->port(); }
  void advance_ms(std::int64_t ms) { clock_->fetch_add(ms); }

 private:
  std::shared_ptr<std::atomic<std::int64_t>> clock_;
  std::unique_ptr<TestServer> ts_;
};

json recover(unsigned short port, const std::string& name, const std::string& code) {
  WsClient c(port);
  return c.request({{"type", "hello"}, {"name", name}, {"recovery", code}});
}

// A new player `name`, greeted on a connection of its own (closed after
// the welcome): their token.
std::string first_token_of(unsigned short port, const std::string& name) {
  WsClient c(port);
  return c.hello(name)["token"];
}

// A new code for `name`, signed in with `token`.
std::string new_code(unsigned short port, const std::string& name, const std::string& token) {
  WsClient c(port);
  EXPECT_EQ(c.hello(name, token)["type"], "welcome");
  const json reply = c.request({{"type", "recovery_code"}});
  EXPECT_EQ(reply["type"], "recovery_code") << reply;
  return reply.value("code", "");
}

bool token_works(unsigned short port, const std::string& name, const std::string& token) {
  WsClient c(port);
  return c.hello(name, token)["type"] == "welcome";
}

TEST(RecoveryCodes, AreTwentyCharactersOfTheAlphabetInFourGroupsAndNeverRepeat) {
  const std::regex shape("^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$");
  std::set<std::string> seen;
  std::map<char, int> counts;
  for (int i = 0; i < 2000; ++i) {
    const auto code = server::new_recovery_code();
    ASSERT_TRUE(code.has_value());
    ASSERT_TRUE(std::regex_match(*code, shape)) << *code;
    EXPECT_TRUE(seen.insert(*code).second) << *code;
    for (char c : *code) {
      if (c != '-') ++counts[c];
    }
  }
  // Every letter of the alphabet turns up (40,000 draws of 32).
  EXPECT_EQ(counts.size(), 32u);
}

TEST(RecoveryCodes, AreReadAsAPersonTypesThem) {
  using server::canonical_recovery_code;
  const std::string canonical = "7KQ2MXW4DPHB9RT6VCNA";
  EXPECT_EQ(canonical_recovery_code("7KQ2M-XW4DP-HB9RT-6VCNA"), canonical);
  EXPECT_EQ(canonical_recovery_code(" 7kq2m xw4dp hb9rt 6vcna "), canonical);
  EXPECT_EQ(canonical_recovery_code("7KQ2MXW4DPHB9RT6VCNA"), canonical);
  // O is 0, I and L are 1.
  EXPECT_EQ(canonical_recovery_code("OOOOO-IIIII-lllll-00000"), "00000111111111100000");
  // Not a code: too short, too long, U, other characters.
  EXPECT_FALSE(canonical_recovery_code("7KQ2M-XW4DP-HB9RT-6VCN"));
  EXPECT_FALSE(canonical_recovery_code("7KQ2M-XW4DP-HB9RT-6VCNAA"));
  EXPECT_FALSE(canonical_recovery_code("UKQ2M-XW4DP-HB9RT-6VCNA"));
  EXPECT_FALSE(canonical_recovery_code("7KQ2M_XW4DP_HB9RT_6VCNA"));
  EXPECT_FALSE(canonical_recovery_code("\xC3\xA9KQ2M-XW4DP-HB9RT-6VCN"));
  EXPECT_FALSE(canonical_recovery_code(""));
}

TEST(Recovery, ACodeSignsInANewDeviceWhichPlaysAsThePlayer) {
  TestServer ts;
  std::string first_token;
  std::string code;
  std::string game_id;
  std::int64_t player_id = 0;
  {
    WsClient first(ts.port());
    const json welcome = first.hello("Ada");
    first_token = welcome["token"];
    player_id = welcome["player"]["id"];
    const json reply = first.request({{"type", "recovery_code"}});
    ASSERT_EQ(reply["type"], "recovery_code") << reply;
    code = reply["code"];
    EXPECT_TRUE(
        std::regex_match(code, std::regex("^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$")))
        << code;
    const json started = first.request(
        {{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "recovery"}});
    ASSERT_EQ(started["type"], "game") << started;
    game_id = started["game"]["game_id"];
  }
  // A new device knows only the name and the code.
  WsClient second(ts.port());
  const json welcome = second.request({{"type", "hello"}, {"name", "ada"}, {"recovery", code}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome;
  EXPECT_EQ(welcome["player"]["name"], "Ada");
  EXPECT_EQ(welcome["player"]["id"], player_id);
  const std::string device_token = welcome["token"];
  EXPECT_EQ(device_token.size(), 32u);
  EXPECT_NE(device_token, first_token);
  // It is the player: it resumes the first device's game and plays on.
  const json resumed = second.request({{"type", "resume"}, {"game_id", game_id}});
  ASSERT_EQ(resumed["type"], "game") << resumed;
  const json started = second.request(
      {{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "second"}});
  EXPECT_EQ(started["type"], "game") << started;

  // Both devices' tokens work from now on; the first device is not signed out.
  EXPECT_TRUE(token_works(ts.port(), "Ada", first_token));
  EXPECT_TRUE(token_works(ts.port(), "Ada", device_token));
  // The code serves again, for a third device, and is read as typed by a
  // person: lower case, spaces for dashes, O for 0, I and L for 1.
  std::string typed;
  for (char c : code) {
    char t = c == '-' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t == '0') t = 'o';
    if (t == '1') t = 'l';
    typed.push_back(t);
  }
  const json third = recover(ts.port(), "ADA", "  " + typed + " ");
  ASSERT_EQ(third["type"], "welcome") << third;
  EXPECT_NE(third["token"], device_token);
}

TEST(Recovery, WrongCodesAreRefusedAndCreateNothing) {
  TestServer ts;
  const std::string ada_token = first_token_of(ts.port(), "Ada");
  WsClient bob(ts.port());
  bob.hello("Bob");
  const std::string code = new_code(ts.port(), "Ada", ada_token);
  ASSERT_FALSE(code.empty());

  // Another code, a spelling that is no code, a name without a code, a name
  // that does not exist: the same answer.
  for (const auto& [name, tried] :
       std::vector<std::pair<std::string, std::string>>{{"Ada", "00000-00000-00000-00000"},
                                                        {"Ada", "not a code"},
                                                        {"Ada", code + "0"},
                                                        {"Bob", code},
                                                        {"Ghost", code}}) {
    const json reply = recover(ts.port(), name, tried);
    EXPECT_EQ(reply["type"], "error") << reply;
    EXPECT_EQ(reply["code"], "unauthorized");
    EXPECT_EQ(reply["message"], "wrong recovery code for this name") << name << " " << tried;
  }
  // Ghost was not created: its name is still free.
  WsClient ghost(ts.port());
  const json created = ghost.hello("Ghost");
  EXPECT_EQ(created["type"], "welcome") << created;

  // A token and a code together, a code too long, an empty one: bad_request.
  WsClient c(ts.port());
  json reply =
      c.request({{"type", "hello"}, {"name", "Ada"}, {"token", ada_token}, {"recovery", code}});
  EXPECT_EQ(reply["code"], "bad_request");
  EXPECT_EQ(reply["message"], "token and recovery cannot both be given");
  reply = c.request({{"type", "hello"}, {"name", "Ada"}, {"recovery", std::string(65, 'A')}});
  EXPECT_EQ(reply["code"], "bad_request");
  reply = c.request({{"type", "hello"}, {"name", "Ada"}, {"recovery", ""}});
  EXPECT_EQ(reply["code"], "bad_request");
  // A code is asked for after hello only.
  reply = c.request({{"type", "recovery_code"}});
  EXPECT_EQ(reply["code"], "unauthorized");
  EXPECT_EQ(reply["message"], "say hello first");
  // Three wrong tries for Ada, below the limit: her code still works.
  EXPECT_EQ(recover(ts.port(), "Ada", code)["type"], "welcome");
}

TEST(Recovery, AReplacedCodeStopsWorking) {
  TestServer ts;
  WsClient first(ts.port());
  const std::string token = first.hello("Ada")["token"];
  const std::string old_code = first.request({{"type", "recovery_code"}})["code"];
  const std::string new_code = first.request({{"type", "recovery_code"}})["code"];
  EXPECT_NE(old_code, new_code);
  const json refused = recover(ts.port(), "Ada", old_code);
  EXPECT_EQ(refused["code"], "unauthorized") << refused;
  EXPECT_EQ(recover(ts.port(), "Ada", new_code)["type"], "welcome");
  // Replacing the code signs no device out.
  EXPECT_TRUE(token_works(ts.port(), "Ada", token));
}

TEST(Recovery, FiveWrongCodesIn15MinutesLockTheNameUntilTheOldestIs15MinutesOld) {
  ClockedServer server;
  const unsigned short port = server.port();
  const std::string ada_token = first_token_of(port, "Ada");
  const std::string bob_token = first_token_of(port, "Bob");
  const std::string code = new_code(port, "Ada", ada_token);
  const std::string bob_code = new_code(port, "Bob", bob_token);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(recover(port, "Ada", "WRONG")["code"], "unauthorized");
    server.advance_ms(kMinute);
  }
  // 5 minutes after the first failure: locked, for the right code too.
  for (const std::string& tried : {std::string("WRONG"), code}) {
    const json reply = recover(port, "Ada", tried);
    EXPECT_EQ(reply["code"], "rate_limited") << reply;
    EXPECT_EQ(reply["message"], "too many wrong recovery codes for this name; try again later");
  }
  // Per name: Bob recovers; Ada's token still signs in.
  EXPECT_EQ(recover(port, "Bob", bob_code)["type"], "welcome");
  EXPECT_TRUE(token_works(port, "Ada", ada_token));
  // 14 minutes 59.999 seconds after the first failure: still locked.
  server.advance_ms(10 * kMinute - 1);
  EXPECT_EQ(recover(port, "Ada", code)["code"], "rate_limited");
  // 15 minutes after it, one try is free again: the right code gets in.
  server.advance_ms(1);
  const json welcome = recover(port, "Ada", code);
  EXPECT_EQ(welcome["type"], "welcome") << welcome;
  // ... and the failures are forgotten: four wrong tries do not lock.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(recover(port, "Ada", "WRONG")["code"], "unauthorized");
  EXPECT_EQ(recover(port, "Ada", code)["type"], "welcome");
}

TEST(Recovery, TheLockSurvivesARestart) {
  ClockedServer server;
  const std::string token = first_token_of(server.port(), "Ada");
  const std::string code = new_code(server.port(), "Ada", token);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(recover(server.port(), "Ada", "x")["code"], "unauthorized");
  server.ts().restart();
  EXPECT_EQ(recover(server.port(), "Ada", code)["code"], "rate_limited");
  server.advance_ms(15 * kMinute);
  EXPECT_EQ(recover(server.port(), "Ada", code)["type"], "welcome");
}

TEST(Recovery, ANinthRecoveryDropsTheOldestDeviceTokenNeverTheFirst) {
  TestServer ts;
  const std::string first_token = first_token_of(ts.port(), "Ada");
  const std::string code = new_code(ts.port(), "Ada", first_token);
  std::vector<std::string> devices;
  for (int i = 0; i < 9; ++i) {
    const json welcome = recover(ts.port(), "Ada", code);
    ASSERT_EQ(welcome["type"], "welcome") << welcome;
    devices.push_back(welcome["token"]);
  }
  WsClient dropped(ts.port());
  const json refused = dropped.hello("Ada", devices[0]);
  EXPECT_EQ(refused["code"], "unauthorized");
  EXPECT_EQ(refused["message"], "wrong token for this name");
  for (std::size_t i = 1; i < devices.size(); ++i) {
    EXPECT_TRUE(token_works(ts.port(), "Ada", devices[i])) << i;
  }
  EXPECT_TRUE(token_works(ts.port(), "Ada", first_token));
}

TEST(Recovery, CodesAndTokensStayOutOfMetricsAndHttpAnswers) {
  TestServer ts;
  WsClient c(ts.port());
  const std::string token = c.hello("Ada")["token"];
  const std::string code = c.request({{"type", "recovery_code"}})["code"];
  const std::string device = recover(ts.port(), "Ada", code)["token"];
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_messages_total{type=\"recovery_code\"} 1"));
  for (const std::string& target :
       {std::string("/metrics"), std::string("/api/players/Ada"), std::string("/api/health")}) {
    const HttpResult r = http_get(ts.port(), target);
    for (const std::string& secret : {token, code, device}) {
      EXPECT_EQ(r.body.find(secret), std::string::npos) << target;
    }
  }
}

}  // namespace
}  // namespace tilecrush::testing
