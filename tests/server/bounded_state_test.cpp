// Nothing a client does makes the server's state grow without bound
// (SECURITY.md, "Limits"): the connection caps forget an address once its
// connections end, a connection's rate limiter is a fixed-size bucket that
// forgets a flood after a quiet second, and the games one connection starts
// leave memory once idle (they reload from storage). The outgoing queue is
// in abuse_test.cpp, rooms in rooms_cleanup_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "itest_util.hpp"
#include "net/connection_limits.hpp"
#include "net/rate_limiter.hpp"
#include "play/board_keys.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

using namespace std::chrono_literals;
using server::RateLimiter;

TEST(BoundedState, ConnectionCapsKeepNothingForAddressesThatLeft) {
  auto limits = std::make_shared<server::ConnectionLimits>(1000, 2);
  std::vector<std::shared_ptr<server::ConnectionLimits::Ticket>> tickets;
  for (int i = 0; i < 1000; ++i) {
    const std::string address = "10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256);
    tickets.push_back(limits->try_acquire(address));
    ASSERT_TRUE(tickets.back());
  }
  EXPECT_EQ(limits->addresses(), 1000u);
  // Refusals (overall cap reached) leave no entry behind either.
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(limits->try_acquire("192.0.2." + std::to_string(i)));
  EXPECT_EQ(limits->addresses(), 1000u);
  tickets.clear();
  EXPECT_EQ(limits->open(), 0u);
  EXPECT_EQ(limits->addresses(), 0u);
  // And the per-address cap still holds afterwards.
  auto a = limits->try_acquire("10.0.0.1");
  auto b = limits->try_acquire("10.0.0.1");
  EXPECT_TRUE(a && b);
  EXPECT_FALSE(limits->try_acquire("10.0.0.1"));
  EXPECT_EQ(limits->addresses(), 1u);
}

TEST(BoundedState, TheRateLimiterAcceptsItsRateAndBurst) {
  RateLimiter limiter(100, 200, 5000ms);
  const auto t0 = RateLimiter::Clock::now();
  for (int i = 0; i < 200; ++i) ASSERT_EQ(limiter.take(t0), RateLimiter::Verdict::accept) << i;
  EXPECT_EQ(limiter.take(t0), RateLimiter::Verdict::refuse);
  // With the bucket empty, 100 a second are accepted, for as long as they come.
  for (int i = 1; i <= 6000; ++i) {
    ASSERT_EQ(limiter.take(t0 + i * 10ms), RateLimiter::Verdict::accept) << i;
  }
}

TEST(BoundedState, TheRateLimiterClosesAFloodAndForgetsItAfterAQuietSecond) {
  RateLimiter limiter(100, 200, 5000ms);
  auto t = RateLimiter::Clock::now();
  // Two floods of 1,000 messages a second, each just under 5 s, apart by a
  // quiet 1.5 s: the second does not add to the first.
  for (int flood = 0; flood < 2; ++flood) {
    int refused = 0;
    for (int ms = 0; ms < 4900; ++ms) {
      const RateLimiter::Verdict v = limiter.take(t + ms * 1ms);
      ASSERT_NE(v, RateLimiter::Verdict::close) << "flood " << flood << " at " << ms << " ms";
      refused += v == RateLimiter::Verdict::refuse;
    }
    EXPECT_GT(refused, 4000);
    t += 4900ms + 1500ms;
  }
  // A flood that goes on is closed once it has lasted 5 s.
  int closed_at = -1;
  for (int ms = 0; ms < 6000 && closed_at < 0; ++ms) {
    if (limiter.take(t + ms * 1ms) == RateLimiter::Verdict::close) closed_at = ms;
  }
  EXPECT_GE(closed_at, 5000);
}

TEST(BoundedState, GamesOfOneConnectionLeaveMemoryWhenIdleAndComeBackFromStorage) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  ASSERT_EQ(c.hello("many-games")["type"], "welcome");
  constexpr std::size_t kGames = 200;
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < kGames; ++i) {
    const json view = start_game(c, {{"mode", "same"}, {"preset", "easy"}});
    ASSERT_TRUE(view.contains("game_id"));
    ids.push_back(view["game_id"]);
  }
  server::GameService& games = ts.server().games();
  EXPECT_EQ(games.live_games(), kGames);
  ts.server().database().flush();
  std::this_thread::sleep_for(5ms);
  // The server's timer does this every minute for games idle 10 minutes.
  EXPECT_EQ(games.evict_idle(0ms), kGames);
  EXPECT_EQ(games.live_games(), 0u);
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_live_games 0"));
  // Asked for again, a game is loaded back from storage.
  for (const std::string& id : {ids.front(), ids.back()}) {
    const json reply = c.request({{"type", "resume"}, {"game_id", id}});
    ASSERT_EQ(reply["type"], "game") << reply;
    EXPECT_EQ(reply["game"]["move_count"], 0);
  }
  EXPECT_EQ(games.live_games(), 2u);
}

// A finished game has nothing left to do in memory: it leaves within about
// a second of its last write (the server's timer), while a running one
// stays; asked for again, the finished one comes back from storage as it
// ended.
TEST(BoundedState, AFinishedGameLeavesMemoryWithinSecondsAndComesBackFromStorage) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  ASSERT_EQ(c.hello("finisher")["type"], "welcome");
  const json running = start_game(c, {{"mode", "same"}, {"preset", "easy"}});
  const json ended = start_game(c, {{"mode", "same"}, {"preset", "easy"}});
  const json hint = c.request({{"type", "hint"}, {"game_id", ended["game_id"]}});
  ASSERT_TRUE(hint.contains("click")) << hint;
  const json moved = c.request({{"type", "click"},
                                {"game_id", ended["game_id"]},
                                {"x", hint["click"][0]},
                                {"y", hint["click"][1]}});
  ASSERT_EQ(moved["type"], "events") << moved;
  const json resigned = c.request({{"type", "resign"}, {"game_id", ended["game_id"]}});
  ASSERT_NE(resigned["type"], "error") << resigned;
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_live_games 1", std::chrono::seconds(5)));
  EXPECT_EQ(ts.server().games().live_games(), 1u);
  const json back = c.request({{"type", "resume"}, {"game_id", ended["game_id"]}});
  ASSERT_EQ(back["type"], "game") << back;
  EXPECT_EQ(back["game"]["over"], true);
  EXPECT_EQ(back["game"]["move_count"], 1);
  EXPECT_GT(back["game"]["score"], 0);
  const json still = c.request({{"type", "resume"}, {"game_id", running["game_id"]}});
  EXPECT_EQ(still["game"]["over"], false) << still;
}

// Every game on a seed the server draws is a new board: its key stays in
// the cache only until the board is stored (then storage has it), and the
// boards read back from storage fill the cache up to its bound, where it
// starts over, rather than growing with every game of the day.
TEST(BoundedState, TheBoardKeyCacheKeepsToItsBound) {
  const std::filesystem::path dir = make_temp_dir("tilecrush-keys-");
  storage::Options options;
  options.path = (dir / "keys.db").string();
  storage::Database db(options);
  server::BoardKeys keys(db, server::BoardKeys::system_random(), [] { return std::int64_t{1}; });
  constexpr std::size_t kBoards = server::BoardKeys::kMaxCached + 100;
  auto board = [](std::size_t i) {
    return storage::BoardKey{game::Mode::same, "easy", "s" + std::to_string(i), ""};
  };
  std::vector<game::BoardSecret> drawn;
  for (std::size_t i = 0; i < kBoards; ++i) {
    const auto key = keys.casual_key(board(i), true);
    ASSERT_TRUE(key.has_value());
    drawn.push_back(*key);
  }
  db.flush();
  EXPECT_EQ(keys.cached_count(), 0u);  // all stored: storage has them
  std::size_t most = 0;
  for (std::size_t i = 0; i < kBoards; ++i) {
    ASSERT_EQ(keys.casual_key(board(i), false), drawn[i]) << i;  // read back, the same key
    most = std::max(most, keys.cached_count());
  }
  EXPECT_EQ(most, server::BoardKeys::kMaxCached);
  EXPECT_LE(keys.cached_count(), 100u);
  db.close();
  std::filesystem::remove_all(dir);
}

// Everything else that grows with use has a gauge (server/README.md, "What
// grows with use"): the sessions and the per-address table follow the
// connections, and each gauge is there from the start.
TEST(BoundedState, EveryTableThatGrowsWithUseHasAGauge) {
  TestServer ts(unthrottled_config());
  for (const char* name :
       {"tilecrush_live_games", "tilecrush_rank_index_boards", "tilecrush_rank_index_keys",
        "tilecrush_page_cache_pages", "tilecrush_page_cache_bytes", "tilecrush_board_keys_cached",
        "tilecrush_sessions", "tilecrush_connection_addresses", "tilecrush_rooms",
        "tilecrush_room_indexed_players"}) {
    const std::string text = ts.server().metrics().render();
    EXPECT_NE(text.find(std::string("# TYPE ") + name + " gauge\n"), std::string::npos) << name;
  }
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_sessions 0"));
  {
    WsClient a(ts.port());
    WsClient b(ts.port());
    ASSERT_EQ(a.hello("gauge-a")["type"], "welcome");
    ASSERT_EQ(b.hello("gauge-b")["type"], "welcome");
    EXPECT_TRUE(ts.wait_for_metric("tilecrush_sessions 2"));
    EXPECT_TRUE(ts.wait_for_metric("tilecrush_connection_addresses 1"));  // both from 127.0.0.1
  }
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_sessions 0"));
  EXPECT_TRUE(ts.wait_for_metric("tilecrush_connection_addresses 0"));
}

}  // namespace
}  // namespace tilecrush::testing
