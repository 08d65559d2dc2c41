// Crash safety: a move is acknowledged only once it is durable. Clients play
// while the server is killed with SIGKILL; after each restart every client
// resumes its game and must find at least its last acknowledged move (the
// state_hash it was last sent, or the one after a move it had sent but whose
// answer was lost with the process). Finished ranked games must still be on
// their leaderboards. SIGTERM must drain and exit cleanly.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>

#include "itest_util.hpp"
#include "server_process.hpp"
#include "test_server.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

constexpr int kClients = 16;
constexpr int kKills = 3;

// One player: its game's setup, the acknowledged state and the one in flight.
struct Player {
  std::string name;
  std::string token;
  std::string game_id;
  game::GameSetup setup;
  std::vector<game::Move> acked;        // moves the server acknowledged
  std::optional<game::Move> in_flight;  // sent, answer not (yet) received
  std::vector<std::string> finished;    // ranked games finished (acknowledged)
};

std::string hash_after(const game::GameSetup& setup, const std::vector<game::Move>& moves) {
  auto r = game::replay(setup, moves);
  return r.game ? game::hash_hex(r.game->state_hash()) : "replay failed";
}

// The key the server process drew for a ranked board, read from its
// database beside it (the key is committed before the game that uses it is
// answered): the players' local copies deal the same boards.
std::optional<game::BoardSecret> stored_key(const std::string& db_path, const game::GameSetup& s) {
  storage::Options options;
  options.path = db_path;
  options.read_only = true;
  options.readers = 1;
  storage::Database db(options);
  const auto board = db.find_board({s.mode, s.preset, s.seed, ""});
  if (!board) return std::nullopt;
  return board->key;
}

// Plays until the connection breaks (the server was killed).
void play(unsigned short port, const std::string& db_path, Player& p, std::uint32_t seed,
          std::atomic<long>& acked_total) {
  try {
    WsClient c(port, std::chrono::seconds(5));
    const json welcome = c.hello(p.name, p.token.empty() ? std::nullopt : std::optional(p.token));
    if (welcome["type"] != "welcome") return;
    p.token = welcome["token"];
    std::mt19937 rng(seed);
    for (;;) {
      if (p.game_id.empty()) {
        p.setup = {};
        p.setup.mode = static_cast<game::Mode>(rng() % 3);
        p.setup.preset = p.setup.mode == game::Mode::same ? "easy" : "classic";
        const json g = c.request({{"type", "new_game"},
                                  {"mode", game::to_string(p.setup.mode)},
                                  {"preset", p.setup.preset}});
        if (g["type"] != "game") return;
        p.setup.seed = g["game"]["seed"];
        p.setup.board_key = stored_key(db_path, p.setup);
        if (!p.setup.board_key) return;
        p.game_id = g["game"]["game_id"];
        p.acked.clear();
      }
      auto local = game::replay(p.setup, p.acked).game;
      if (local->over()) {
        p.finished.push_back(p.game_id);
        p.game_id.clear();
        continue;
      }
      const auto legal = local->legal_moves();
      const game::Move move = legal[rng() % legal.size()];
      p.in_flight = move;
      const json reply = c.request(move_message(p.game_id, move));
      if (reply["type"] != "events") return;
      p.acked.push_back(move);
      p.in_flight.reset();
      ++acked_total;
    }
  } catch (const std::exception&) {
    // The server went away mid-request: expected.
  }
}

TEST(CrashSafety, EveryAcknowledgedMoveSurvivesSigkill) {
  const auto dir = make_temp_dir("tilecrush-crash-");
  const ScratchDatabase database(dir, "crash.db");
  ServerProcess server(TILECRUSH_SERVER_BINARY, database.location());
  std::vector<Player> players(kClients);
  for (int i = 0; i < kClients; ++i)
    players[static_cast<std::size_t>(i)].name = "crash" + std::to_string(i);
  long checked = 0;
  std::atomic<long> acked_total{0};

  for (int round = 0; round < kKills; ++round) {
    server.start();
    // Every player first checks its game survived the previous kill.
    for (auto& p : players) {
      if (p.game_id.empty()) continue;
      WsClient c(server.port());
      ASSERT_EQ(c.hello(p.name, p.token)["type"], "welcome");
      const json resumed = c.request({{"type", "resume"}, {"game_id", p.game_id}});
      ASSERT_EQ(resumed["type"], "game") << resumed;
      const std::string got = resumed["game"]["state_hash"];
      const std::string acked_hash = hash_after(p.setup, p.acked);
      // What to read when the check below fails.
      const std::string seen = "stored " + resumed["game"]["move_count"].dump() + " moves, " +
                               std::to_string(p.acked.size()) + " acknowledged, " +
                               (p.in_flight ? "one" : "none") + " in flight, mode " +
                               std::string(game::to_string(p.setup.mode)) + ", game " + p.game_id;
      if (got != acked_hash && p.in_flight) {
        // The move in flight was committed but its answer was lost.
        auto with = p.acked;
        with.push_back(*p.in_flight);
        ASSERT_EQ(got, hash_after(p.setup, with))
            << p.name << " lost an acknowledged move: " << seen;
        p.acked = std::move(with);
      } else {
        ASSERT_EQ(got, acked_hash) << p.name << " lost an acknowledged move: " << seen;
      }
      p.in_flight.reset();
      ++checked;
    }
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i) {
      threads.emplace_back(play, server.port(), database.location(),
                           std::ref(players[static_cast<std::size_t>(i)]),
                           static_cast<std::uint32_t>(round * 100 + i), std::ref(acked_total));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    server.kill_now();
    for (auto& t : threads) t.join();
  }

  // Last restart: finished ranked games are on their leaderboards.
  server.start();
  long finished_checked = 0;
  for (const auto& p : players) {
    for (const auto& id : p.finished) {
      const HttpResult g = http_get(server.port(), "/api/games/" + id);
      ASSERT_EQ(g.status, 200u) << id;
      const json body = g.json_body();
      const HttpResult lb = http_get(
          server.port(), "/api/leaderboard/around?mode=" + body["mode"].get<std::string>() +
                             "&preset=" + body["preset"].get<std::string>() + "&seed=" +
                             body["seed"].get<std::string>() + "&player=" + p.name + "&radius=0");
      ASSERT_EQ(lb.status, 200u) << lb.body;
      EXPECT_EQ(http_get(server.port(), "/api/games/" + id + "/verify").json_body()["valid"], true);
      ++finished_checked;
    }
  }
  EXPECT_EQ(server.terminate(), 0);
  std::printf(
      "crash test: %d kills, %d clients, %ld acknowledged moves, %ld games checked after "
      "restarts, %ld finished games on leaderboards, lost 0\n",
      kKills, kClients, acked_total.load(), checked, finished_checked);
  EXPECT_GT(acked_total.load(), 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(CrashSafety, SigtermDrainsAndExitsCleanly) {
  const auto dir = make_temp_dir("tilecrush-term-");
  const ScratchDatabase database(dir, "term.db");
  ServerProcess server(TILECRUSH_SERVER_BINARY, database.location());
  server.start();
  WsClient c(server.port());
  const std::string token = c.hello("drain")["token"];
  const json g =
      c.request({{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "t"}});
  game::GameSetup setup;
  setup.mode = game::Mode::same;
  setup.preset = "easy";
  setup.seed = "t";
  setup.board_key = stored_key(database.location(), setup);
  ASSERT_TRUE(setup.board_key);
  auto local = game::create_game(setup).game;
  game::Hint hint;
  ASSERT_TRUE(local->hint(hint).ok());
  // The move is sent, then the server is told to stop: the answer must still come.
  c.send(json{{"type", "click"},
              {"id", 99},
              {"game_id", g["game"]["game_id"]},
              {"x", hint.move.a.x},
              {"y", hint.move.a.y}});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(server.pid(), SIGTERM);
  const json reply = c.receive();
  EXPECT_EQ(reply["id"], 99);
  EXPECT_EQ(reply["type"], "events");
  EXPECT_EQ(c.wait_close(), 1001);
  EXPECT_EQ(server.terminate(), 0);
  // The database closed cleanly (SQLite: no WAL left behind), and the move
  // is there.
  EXPECT_FALSE(std::filesystem::exists(dir / "term.db-wal") &&
               std::filesystem::file_size(dir / "term.db-wal") > 0);
  ServerProcess again(TILECRUSH_SERVER_BINARY, database.location());
  again.start();
  WsClient c2(again.port());
  ASSERT_EQ(c2.hello("drain", token)["type"], "welcome");
  const json resumed = c2.request({{"type", "resume"}, {"game_id", g["game"]["game_id"]}});
  EXPECT_EQ(resumed["game"]["move_count"], 1);
  EXPECT_EQ(resumed["game"]["state_hash"], reply["state_hash"]);
  EXPECT_EQ(again.terminate(), 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace tilecrush::testing
