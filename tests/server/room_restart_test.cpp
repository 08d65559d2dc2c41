// Open rooms survive a restart of the real server binary, whether it stops
// cleanly (SIGTERM) or is killed (SIGKILL): a new process on the same
// database knows both rooms, every player comes back into their room with
// their game as last acknowledged, the lobby can still be started by its
// host, and the race goes on to room_finished with the right standings.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "room_test_util.hpp"
#include "server_process.hpp"
#include "test_server.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/storage/database.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

enum class Stop { clean, kill };

storage::Options read_only(const std::string& db_path) {
  storage::Options options;
  options.path = db_path;
  options.read_only = true;
  options.readers = 1;
  return options;
}

// The local engine copy of a room game on the server process's casual
// board, whose key it drew and stored beside its games.
std::unique_ptr<game::Game> local_game(const std::string& db_path, game::GameSetup setup) {
  storage::Database db(read_only(db_path));
  const auto board = db.find_board({setup.mode, setup.preset, setup.seed, ""});
  if (!board) return nullptr;
  setup.board_key = board->key;
  return game::create_game(setup).game;
}

Racer connect(unsigned short port, const std::string& name, const std::string& token = "") {
  Racer r;
  r.name = name;
  r.ws = std::make_unique<WsClient>(port);
  const json welcome =
      r.ws->hello(name, token.empty() ? std::nullopt : std::optional<std::string>(token));
  EXPECT_EQ(welcome["type"], "welcome") << welcome;
  r.token = welcome.value("token", "");
  return r;
}

// race[1] joins the room `code` of race[0] (its host), who starts the race;
// each then has its game and the local copy of it (`setup`, on the key the
// server stored in `db_path`), and they play: race[0] three moves, race[1]
// two. Every move is acknowledged, so durable.
void join_start_and_play(std::vector<Racer>& race, const std::string& code,
                         const std::string& db_path, const game::GameSetup& setup) {
  ASSERT_EQ(race[1].ws->request({{"type", "join_room"}, {"code", code}})["type"], "room");
  const json started = race[0].ws->request({{"type", "start_room"}, {"code", code}});
  ASSERT_EQ(started["room"]["state"], "playing") << started;
  for (Racer& r : race) {
    r.game_id = r.ws->wait_for("room_started")["game"]["game_id"];
    r.local = local_game(db_path, setup);
    ASSERT_TRUE(r.local);
  }
  for (std::size_t i = 0; i < 3; ++i) play(race[0], i);
  for (std::size_t i = 0; i < 2; ++i) play(race[1], i + 1);
}

const json* player_in(const json& room, const std::string& name) {
  for (const auto& p : room["players"]) {
    if (p["name"] == name) return &p;
  }
  return nullptr;
}

void restart_keeps_rooms(Stop stop) {
  const auto dir = make_temp_dir("tilecrush-rooms-restart-");
  const ScratchDatabase database(dir, "rooms.db");
  const std::string db_path = database.location();
  const game::GameSetup race_setup = same_setup("easy", "restart-race");
  std::string lobby_code;
  std::string race_code;
  std::vector<Racer> lobby(2);  // ann (host), bob
  std::vector<Racer> race(2);   // cy (host), dee
  {
    ServerProcess first(TILECRUSH_SERVER_BINARY, db_path);
    first.start();
    lobby[0] = connect(first.port(), "ann");
    lobby[1] = connect(first.port(), "bob");
    race[0] = connect(first.port(), "cy");
    race[1] = connect(first.port(), "dee");

    const json created = lobby[0].ws->request(
        {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "restart-lobby"}});
    ASSERT_EQ(created["type"], "room") << created;
    lobby_code = created["room"]["code"];
    ASSERT_EQ(lobby[1].ws->request({{"type", "join_room"}, {"code", lobby_code}})["type"], "room");

    const json race_room = race[0].ws->request(
        {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "restart-race"}});
    ASSERT_EQ(race_room["type"], "room") << race_room;
    race_code = race_room["room"]["code"];
    join_start_and_play(race, race_code, db_path, race_setup);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());

    if (stop == Stop::clean) {
      EXPECT_EQ(first.terminate(), 0);
    } else {
      first.kill_now();
    }
  }

  ServerProcess second(TILECRUSH_SERVER_BINARY, db_path);
  second.start();

  // The racers come back, each into their game as they left it.
  for (Racer& r : race) {
    r = [&] {
      Racer back = connect(second.port(), r.name, r.token);
      back.game_id = r.game_id;
      back.local = std::move(r.local);
      back.token = r.token;
      return back;
    }();
    const json back = r.ws->request({{"type", "join_room"}, {"code", race_code}});
    ASSERT_EQ(back["type"], "room") << back;
    EXPECT_EQ(back["room"]["state"], "playing");
    EXPECT_EQ(back["room"]["host"], "cy");
    ASSERT_EQ(back["room"]["players"].size(), 2u);
    EXPECT_EQ(back["game"]["game_id"], r.game_id);
    EXPECT_EQ(back["game"]["state_hash"], game::hash_hex(r.local->state_hash())) << r.name;
    EXPECT_EQ(back["game"]["move_count"], r.local->move_count()) << r.name;
    const json* me = player_in(back["room"], r.name);
    ASSERT_NE(me, nullptr);
    EXPECT_TRUE((*me)["connected"].get<bool>());
    EXPECT_EQ((*me)["score"], r.local->score());
    EXPECT_EQ((*me)["move_count"], r.local->move_count());
  }
  // A spectator follows the race from the boards as they are.
  Racer eve = connect(second.port(), "eve");
  const json watching =
      eve.ws->request({{"type", "join_room"}, {"code", race_code}, {"as", "spectator"}});
  ASSERT_EQ(watching["type"], "room") << watching;
  EXPECT_EQ(watching["room"]["spectators"], 1);
  for (const Racer& r : race) {
    EXPECT_EQ(watching["games"][r.name]["state_hash"], game::hash_hex(r.local->state_hash()));
  }

  // The lobby is still a lobby, hosted by ann; bob is reattached, not added.
  for (Racer& r : lobby) r = connect(second.port(), r.name, r.token);
  const json ann_back = lobby[0].ws->request({{"type", "join_room"}, {"code", lobby_code}});
  ASSERT_EQ(ann_back["type"], "room") << ann_back;
  EXPECT_EQ(ann_back["room"]["state"], "lobby");
  EXPECT_EQ(ann_back["room"]["host"], "ann");
  ASSERT_EQ(ann_back["room"]["players"].size(), 2u);
  EXPECT_FALSE(connected_in(ann_back["room"], "bob"));
  const json bob_back = lobby[1].ws->request({{"type", "join_room"}, {"code", lobby_code}});
  ASSERT_EQ(bob_back["room"]["players"].size(), 2u);
  EXPECT_TRUE(connected_in(bob_back["room"], "bob"));
  const json lobby_started = lobby[0].ws->request({{"type", "start_room"}, {"code", lobby_code}});
  ASSERT_EQ(lobby_started["type"], "room") << lobby_started;
  EXPECT_EQ(lobby_started["room"]["state"], "playing");
  for (Racer& r : lobby) EXPECT_EQ(r.ws->wait_for("room_started")["code"], lobby_code);

  // The race goes on to its end: cy plays out, dee plays once and resigns.
  for (int n = 0; n < 300 && !race[0].local->over(); ++n) play(race[0], 0);
  ASSERT_TRUE(race[0].local->over());
  play(race[1], 0);
  resign(race[1]);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());

  const StandingsOrder expected = expected_standings(race);
  expect_standings(race[0].ws->wait_for("room_finished"), race_code, race, "cy");
  expect_standings(race[1].ws->wait_for("room_finished"), race_code, race, "dee");
  expect_standings(eve.ws->wait_for("room_finished"), race_code, race, "eve");

  // The restored rooms count against their creators' open rooms: ann hosts
  // the lobby room (playing now) and may open only three more.
  for (int i = 0; i < 3; ++i) {
    const json more = lobby[0].ws->request(
        {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "more"}});
    EXPECT_EQ(more["type"], "room") << more;
  }
  const json refused = lobby[0].ws->request(
      {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "more"}});
  EXPECT_EQ(refused["code"], "not_allowed") << refused;

  EXPECT_EQ(second.terminate(), 0);
  // The race's result is stored and it is no longer open; ann's rooms are.
  storage::Database db(read_only(db_path));
  const auto result = db.find_room(race_code);
  ASSERT_TRUE(result.has_value());
  ASSERT_EQ(result->standings.size(), 2u);
  EXPECT_EQ(result->standings[0].player, std::get<2>(expected[0]));
  EXPECT_FALSE(db.find_open_room(race_code).has_value());
  const auto still_open = db.find_open_room(lobby_code);
  ASSERT_TRUE(still_open.has_value());
  EXPECT_EQ(still_open->phase, storage::OpenRoomPhase::playing);
  EXPECT_EQ(db.open_rooms().size(), 4u);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(RoomRestart, OpenRoomsComeBackAfterACleanStop) {
  restart_keeps_rooms(Stop::clean);
}

TEST(RoomRestart, OpenRoomsComeBackAfterSigkill) {
  restart_keeps_rooms(Stop::kill);
}

}  // namespace
}  // namespace tilecrush::testing

namespace tilecrush::testing {
namespace {

// Two nodes on one PostgreSQL database. A room is served by one node; the
// other answers `moved`, naming it. When the owner is killed the room goes
// on on the other node with every acknowledged move, and when the killed
// node comes back it serves no room the other one holds.
TEST(RoomsOnTwoNodes, OneOwnerMovedAnswersAndTakeOverAfterSigkill) {
  if (!postgres_run()) GTEST_SKIP() << "several nodes need PostgreSQL";
  const auto dir = make_temp_dir("tilecrush-two-nodes-");
  const ScratchDatabase database(dir, "nodes.db");
  const std::string db_path = database.location();
  ServerProcess a(TILECRUSH_SERVER_BINARY, db_path, {"--node-id", "a"});
  ServerProcess b(TILECRUSH_SERVER_BINARY, db_path, {"--node-id", "b"});
  a.start();
  b.start();

  std::vector<Racer> race(2);  // cy (host, on a), dee
  race[0] = connect(a.port(), "cy");
  race[1] = connect(b.port(), "dee");
  const json created = race[0].ws->request(
      {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "two-nodes"}});
  ASSERT_EQ(created["type"], "room") << created;
  const std::string code = created["room"]["code"];

  // dee asked node b: the room is a's (once a's write of it committed, a
  // few milliseconds after the answer to create_room).
  json moved;
  for (int tries = 0; tries < 100; ++tries) {
    moved = race[1].ws->request({{"type", "join_room"}, {"code", code}});
    if (moved["code"] != "not_found") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(moved["type"], "error") << moved;
  EXPECT_EQ(moved["code"], "moved");
  EXPECT_EQ(moved["node"], "a");
  EXPECT_EQ(moved["room"], code);
  // ... so dee goes there, as the client does.
  race[1] = connect(a.port(), "dee", race[1].token);
  join_start_and_play(race, code, db_path, same_setup("easy", "two-nodes"));
  ASSERT_FALSE(::testing::Test::HasFatalFailure());

  // The owner dies; both players come back through node b.
  a.kill_now();
  for (Racer& r : race) {
    Racer back = connect(b.port(), r.name, r.token);
    back.game_id = r.game_id;
    back.local = std::move(r.local);
    back.token = r.token;
    r = std::move(back);
    json joined;
    // PostgreSQL frees the dead node's claims once it sees its sessions
    // end; until then b answers `moved` (to a).
    for (int tries = 0; tries < 100; ++tries) {
      joined = r.ws->request({{"type", "join_room"}, {"code", code}});
      if (joined["type"] == "room") break;
      ASSERT_EQ(joined["code"], "moved") << joined;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(joined["type"], "room") << joined;
    EXPECT_EQ(joined["room"]["state"], "playing");
    EXPECT_EQ(joined["game"]["state_hash"], game::hash_hex(r.local->state_hash())) << r.name;
    EXPECT_EQ(joined["game"]["move_count"], r.local->move_count()) << r.name;
  }

  // The killed node comes back: the room stays b's.
  a.start();
  Racer eve = connect(a.port(), "eve");
  const json elsewhere =
      eve.ws->request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}});
  EXPECT_EQ(elsewhere["code"], "moved") << elsewhere;
  EXPECT_EQ(elsewhere["node"], "b");

  // The race ends on b.
  for (int n = 0; n < 300 && !race[0].local->over(); ++n) play(race[0], 0);
  play(race[1], 0);
  resign(race[1]);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  for (Racer& r : race) EXPECT_EQ(r.ws->wait_for("room_finished")["code"], code) << r.name;
  EXPECT_EQ(a.terminate(), 0);
  EXPECT_EQ(b.terminate(), 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace tilecrush::testing
