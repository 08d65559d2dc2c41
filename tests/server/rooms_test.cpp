// Rooms end to end over real WebSocket connections: players race on the same
// seeded board, spectators follow every board from the events alone,
// members drop and come back, standings come out right, and the limits hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <tuple>

#include "room_test_util.hpp"
#include "test_server.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

// A server, and the connections of the players and spectators of a test.
class RoomsTest : public ::testing::Test {
 protected:
  // A new connection that said hello as `name`.
  WsClient& greeted(const std::string& name) {
    clients_.push_back(std::make_unique<WsClient>(ts_.port()));
    clients_.back()->hello(name);
    return *clients_.back();
  }

  TestServer ts_;
  std::vector<std::unique_ptr<WsClient>> clients_;
};

TEST_F(RoomsTest, ThreePlayersRaceAndTwoSpectatorsFollowEveryBoard) {
  const game::GameSetup setup = same_setup("easy", "room-race");
  std::vector<Racer> racers(3);
  const char* names[] = {"ann", "bob", "cy"};
  for (std::size_t i = 0; i < racers.size(); ++i) {
    racers[i].name = names[i];
    racers[i].ws = std::make_unique<WsClient>(ts_.port());
    racers[i].token = racers[i].ws->hello(names[i])["token"];
  }
  WsClient& sam = greeted("sam");
  WsClient& tia = greeted("tia");

  const json created = racers[0].ws->request(
      {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "room-race"}});
  ASSERT_EQ(created["type"], "room") << created;
  const std::string code = created["room"]["code"];
  EXPECT_EQ(code.size(), 6u);
  EXPECT_EQ(created["room"]["host"], "ann");
  EXPECT_EQ(created["room"]["state"], "lobby");
  EXPECT_EQ(created["room"]["seed"], "room-race");

  EXPECT_EQ(racers[1].ws->request({{"type", "join_room"}, {"code", code}})["type"], "room");
  std::string lower = code;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  const json joined = racers[2].ws->request({{"type", "join_room"}, {"code", lower}});
  ASSERT_EQ(joined["type"], "room") << joined;
  EXPECT_EQ(joined["room"]["players"].size(), 3u);
  EXPECT_EQ(sam.request(
                {{"type", "join_room"}, {"code", code}, {"as", "spectator"}})["room"]["spectators"],
            1);

  const json by_guest = racers[1].ws->request({{"type", "start_room"}, {"code", code}});
  EXPECT_EQ(by_guest["code"], "not_allowed") << by_guest;
  const json started = racers[0].ws->request({{"type", "start_room"}, {"code", code}});
  ASSERT_EQ(started["type"], "room") << started;
  EXPECT_EQ(started["room"]["state"], "playing");

  // Everyone gets the same board, each player a game of their own.
  const auto reference = game::create_game(with_test_key(setup)).game;
  std::set<std::string> ids;
  for (Racer& r : racers) {
    const json pushed = r.ws->wait_for("room_started");
    EXPECT_EQ(pushed["code"], code);
    const json& view = pushed["game"];
    r.game_id = view["game_id"];
    ids.insert(r.game_id);
    EXPECT_TRUE(view["ranked"].get<bool>());
    EXPECT_EQ(view["state_hash"], game::hash_hex(reference->state_hash())) << r.name;
    r.local = game::create_game(with_test_key(setup)).game;
  }
  EXPECT_EQ(ids.size(), 3u);
  Watcher sam_watch;
  const json sam_started = sam.wait_for("room_started");
  ASSERT_EQ(sam_started["games"].size(), 3u);
  sam_watch.take_games(sam_started["games"]);
  for (const Racer& r : racers) {
    EXPECT_EQ(sam_started["games"][r.name]["game_id"], r.game_id);
    EXPECT_EQ(sam_watch.boards[r.name].hash(), game::hash_hex(reference->state_hash()));
  }

  for (std::size_t round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < racers.size(); ++i) play(racers[i], round + i);
  }

  // A late spectator starts from the boards as they are now.
  const json late = tia.request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}});
  ASSERT_EQ(late["type"], "room") << late;
  ASSERT_EQ(late["games"].size(), 3u);
  Watcher tia_watch;
  tia_watch.take_games(late["games"]);
  for (const Racer& r : racers) {
    EXPECT_EQ(tia_watch.boards[r.name].hash(), game::hash_hex(r.local->state_hash())) << r.name;
  }
  EXPECT_EQ(late["room"]["spectators"], 2);

  for (std::size_t round = 3; round < 5; ++round) {
    for (std::size_t i = 0; i < racers.size(); ++i) play(racers[i], round * 2 + i);
  }

  // bob drops; the others see it; he comes back with his token and the code.
  racers[1].ws->drop();
  wait_room(*racers[0].ws, [](const json& room) { return !connected_in(room, "bob"); });
  racers[1].ws = std::make_unique<WsClient>(ts_.port());
  racers[1].ws->hello("bob", racers[1].token);
  const json back = racers[1].ws->request({{"type", "join_room"}, {"code", code}});
  ASSERT_EQ(back["type"], "room") << back;
  EXPECT_EQ(back["room"]["state"], "playing");
  EXPECT_TRUE(connected_in(back["room"], "bob"));
  EXPECT_EQ(back["game"]["game_id"], racers[1].game_id);
  EXPECT_EQ(back["game"]["state_hash"], game::hash_hex(racers[1].local->state_hash()));
  wait_room(*racers[0].ws, [](const json& room) { return connected_in(room, "bob"); });

  // cy drops and comes back by resuming the room game.
  racers[2].ws->drop();
  wait_room(*racers[0].ws, [](const json& room) { return !connected_in(room, "cy"); });
  racers[2].ws = std::make_unique<WsClient>(ts_.port());
  racers[2].ws->hello("cy", racers[2].token);
  const json resumed = racers[2].ws->request({{"type", "resume"}, {"game_id", racers[2].game_id}});
  ASSERT_EQ(resumed["type"], "game") << resumed;
  EXPECT_EQ(resumed["game"]["state_hash"], game::hash_hex(racers[2].local->state_hash()));
  const json cy_room =
      wait_room(*racers[2].ws, [](const json& room) { return connected_in(room, "cy"); });
  EXPECT_EQ(cy_room["room"]["code"], code);

  for (std::size_t i = 0; i < racers.size(); ++i) play(racers[i], 7 + i);
  // ann plays to the end, bob resigns, cy plays once more and resigns.
  for (int n = 0; n < 200 && !racers[0].local->over(); ++n) play(racers[0], 0);
  ASSERT_TRUE(racers[0].local->over());
  resign(racers[1]);
  play(racers[2], 1);
  resign(racers[2]);

  // Standings: score descending, then fewer moves.
  const StandingsOrder expected = expected_standings(racers);
  drain_until(sam, "room_finished", [&](const json& m) { sam_watch.on(m); });
  drain_until(tia, "room_finished", [&](const json& m) { tia_watch.on(m); });
  Watcher ann_watch;
  drain_until(*racers[0].ws, "room_finished", [&](const json& m) { ann_watch.on(m); });
  expect_standings(sam_watch.finished, code, racers, "sam");
  expect_standings(tia_watch.finished, code, racers, "tia");
  expect_standings(ann_watch.finished, code, racers, "ann");
  expect_standings(racers[1].ws->wait_for("room_finished"), code, racers, "bob");
  expect_standings(racers[2].ws->wait_for("room_finished"), code, racers, "cy");

  for (const Racer& r : racers) {
    const std::string final_hash = game::hash_hex(r.local->state_hash());
    EXPECT_EQ(sam_watch.boards[r.name].hash(), final_hash) << r.name;
    EXPECT_EQ(tia_watch.boards[r.name].hash(), final_hash) << r.name;
    const json view = r.ws->request({{"type", "resume"}, {"game_id", r.game_id}});
    EXPECT_EQ(view["game"]["state_hash"], final_hash) << r.name;
    EXPECT_TRUE(view["game"]["over"].get<bool>());
    // Every move (and the resign) was reported, in order, to members who
    // were there all along.
    std::vector<std::int64_t> counts;
    for (std::int64_t n = 1; n <= r.local->move_count(); ++n) counts.push_back(n);
    if (r.resigned) counts.push_back(r.local->move_count());
    EXPECT_EQ(sam_watch.progress[r.name], counts) << r.name;
    EXPECT_EQ(ann_watch.progress[r.name], counts) << r.name;
  }

  // The room games are ranked games of their board.
  const HttpResult board =
      http_get(ts_.port(), "/api/leaderboard?mode=same&preset=easy&seed=room-race");
  ASSERT_EQ(board.status, 200u) << board.body;
  EXPECT_EQ(board.json_body()["total"], 3);
  // And the result is stored.
  ts_.server().database().flush();
  const auto stored = ts_.server().database().find_room(code);
  ASSERT_TRUE(stored.has_value());
  ASSERT_EQ(stored->standings.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(stored->standings[i].player, std::get<2>(expected[i]));
    EXPECT_EQ(stored->standings[i].rank, sam_watch.finished["standings"][i]["rank"]);
  }
}

TEST_F(RoomsTest, LimitsAndRefusals) {
  std::vector<WsClient*> clients;
  for (int i = 0; i < 9; ++i) clients.push_back(&greeted("p" + std::to_string(i)));
  WsClient& host = *clients[0];
  EXPECT_EQ(host.request({{"type", "join_room"}, {"code", "ZZZZZZ"}})["code"], "not_found");
  EXPECT_EQ(host.request({{"type", "start_room"}, {"code", "ZZZZZZ"}})["code"], "not_found");
  const json created =
      host.request({{"type", "create_room"}, {"mode", "match3"}, {"preset", "classic"}});
  ASSERT_EQ(created["type"], "room") << created;
  const std::string code = created["room"]["code"];
  EXPECT_FALSE(created["room"]["seed"].get<std::string>().empty());
  for (int i = 1; i < 8; ++i) {
    const json joined = clients[i]->request({{"type", "join_room"}, {"code", code}});
    ASSERT_EQ(joined["type"], "room") << joined;
    EXPECT_EQ(joined["room"]["players"].size(), static_cast<std::size_t>(i + 1));
  }
  // The ninth player is refused; as a spectator they are welcome.
  const json ninth = clients[8]->request({{"type", "join_room"}, {"code", code}});
  EXPECT_EQ(ninth["type"], "error");
  EXPECT_EQ(ninth["code"], "not_allowed");
  EXPECT_EQ(
      clients[8]->request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}})["type"],
      "room");
  EXPECT_EQ(clients[3]->request({{"type", "start_room"}, {"code", code}})["code"], "not_allowed");
  EXPECT_EQ(clients[8]->request({{"type", "start_room"}, {"code", code}})["code"], "not_allowed");
  // Only members can leave.
  WsClient& outsider = greeted("outsider");
  EXPECT_EQ(outsider.request({{"type", "leave_room"}, {"code", code}})["code"], "not_allowed");

  ASSERT_EQ(host.request({{"type", "start_room"}, {"code", code}})["type"], "room");
  EXPECT_EQ(host.request({{"type", "start_room"}, {"code", code}})["code"], "not_allowed");
  // A room that plays takes no new player.
  EXPECT_EQ(outsider.request({{"type", "join_room"}, {"code", code}})["code"], "not_allowed");
  // A player hosts at most 4 open rooms (the playing one counts).
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(host.request({{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}})["type"],
              "room");
  }
  EXPECT_EQ(host.request({{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}})["code"],
            "not_allowed");
}

TEST_F(RoomsTest, LobbyLeaveHandsOverTheHostAndAnEmptyRoomGoes) {
  WsClient& ann = greeted("ann");
  WsClient& bob = greeted("bob");
  const std::string code = create_room(ann, {{"mode", "same"}, {"preset", "easy"}});
  ASSERT_EQ(bob.request({{"type", "join_room"}, {"code", code}})["type"], "room");
  const json after = ann.request({{"type", "leave_room"}, {"code", code}});
  ASSERT_EQ(after["type"], "room") << after;
  EXPECT_EQ(after["room"]["host"], "bob");
  EXPECT_EQ(after["room"]["players"].size(), 1u);
  const json update = wait_room(bob, [](const json& room) { return room["host"] == "bob"; });
  EXPECT_FALSE(update.contains("id"));
  EXPECT_EQ(ann.request({{"type", "start_room"}, {"code", code}})["code"], "not_allowed");
  ASSERT_EQ(bob.request({{"type", "leave_room"}, {"code", code}})["type"], "room");
  EXPECT_EQ(ann.request({{"type", "join_room"}, {"code", code}})["code"], "not_found");
}

TEST_F(RoomsTest, HiddenModeSpectatorsNeverSeePeekColours) {
  WsClient& ann = greeted("ann");
  WsClient& sam = greeted("sam");
  const std::string code =
      create_room(ann, {{"mode", "hidden"}, {"preset", "classic"}, {"seed", "dark"}});
  ASSERT_EQ(sam.request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}})["type"],
            "room");
  ASSERT_EQ(ann.request({{"type", "start_room"}, {"code", code}})["type"], "room");
  const std::string game_id = ann.wait_for("room_started")["game"]["game_id"];
  Watcher watch;
  watch.take_games(sam.wait_for("room_started")["games"]);

  game::GameSetup setup;
  setup.mode = game::Mode::hidden;
  setup.preset = "classic";
  setup.seed = "dark";
  auto local = game::create_game(with_test_key(setup)).game;
  const json peek = ann.request({{"type", "peek"}, {"game_id", game_id}, {"x", 0}, {"y", 0}});
  ASSERT_EQ(peek["type"], "events") << peek;
  EXPECT_GE(peek["events"][0]["color"].get<int>(), 1);
  // A select, then unselect and select again, then a whole group.
  std::vector<game::Move> selects;
  for (const game::Move& m : local->legal_moves()) {
    if (m.kind == game::MoveKind::select) selects.push_back(m);
  }
  ASSERT_FALSE(selects.empty());
  const game::Move first = selects.front();
  for (const char* type : {"select", "unselect", "select"}) {
    const json reply =
        ann.request({{"type", type}, {"game_id", game_id}, {"x", first.a.x}, {"y", first.a.y}});
    ASSERT_EQ(reply["type"], "events") << reply;
  }

  const json pushed = sam.wait_for("room_events");
  ASSERT_EQ(pushed["events"][0]["kind"], "peek");
  EXPECT_EQ(pushed["events"][0]["color"], -1);
  watch.on(pushed);
  for (int i = 0; i < 3; ++i) watch.on(sam.wait_for("room_events"));
  const json view = ann.request({{"type", "resume"}, {"game_id", game_id}});
  EXPECT_EQ(watch.boards["ann"].hash(), view["game"]["state_hash"]);
}

// Four players move at the same time on different server threads while a
// spectator joins: every spectator still sees each board's moves in order,
// without a gap or a repeat, and ends on each player's exact board.
TEST_F(RoomsTest, ConcurrentMovesReachSpectatorsInOrder) {
  const game::GameSetup setup = same_setup("normal", "crowd");
  std::vector<Racer> racers(4);
  for (std::size_t i = 0; i < racers.size(); ++i) {
    racers[i].name = "racer" + std::to_string(i);
    racers[i].ws = std::make_unique<WsClient>(ts_.port());
    racers[i].ws->hello(racers[i].name);
  }
  WsClient& sam = greeted("sam");
  WsClient& tia = greeted("tia");
  const std::string code =
      create_room(*racers[0].ws, {{"mode", "same"}, {"preset", "normal"}, {"seed", "crowd"}});
  for (std::size_t i = 1; i < racers.size(); ++i) {
    ASSERT_EQ(racers[i].ws->request({{"type", "join_room"}, {"code", code}})["type"], "room");
  }
  ASSERT_EQ(sam.request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}})["type"],
            "room");
  ASSERT_EQ(racers[0].ws->request({{"type", "start_room"}, {"code", code}})["type"], "room");
  for (Racer& r : racers) {
    r.game_id = r.ws->wait_for("room_started")["game"]["game_id"];
    r.local = game::create_game(with_test_key(setup)).game;
  }
  Watcher sam_watch;
  sam_watch.take_games(sam.wait_for("room_started")["games"]);

  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < racers.size(); ++i) {
    threads.emplace_back([&r = racers[i], i]() {
      for (std::size_t n = 0; n < 15; ++n) play(r, n * (i + 1));
      if (!r.local->over()) resign(r);
    });
  }
  // Follow the race until it is well under way, then a second spectator joins.
  for (int n = 0; n < 20; ++n) {
    drain_until(sam, "room_events", [&](const json& m) { sam_watch.on(m); });
  }
  const json late = tia.request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}});
  for (auto& t : threads) t.join();
  ASSERT_EQ(late["type"], "room") << late;
  Watcher tia_watch;
  tia_watch.take_games(late["games"]);

  drain_until(sam, "room_finished", [&](const json& m) { sam_watch.on(m); });
  drain_until(tia, "room_finished", [&](const json& m) { tia_watch.on(m); });
  for (const Racer& r : racers) {
    const std::string final_hash = game::hash_hex(r.local->state_hash());
    EXPECT_EQ(sam_watch.boards[r.name].hash(), final_hash) << r.name;
    EXPECT_EQ(tia_watch.boards[r.name].hash(), final_hash) << r.name;
    std::vector<std::int64_t> counts;
    for (std::int64_t n = 1; n <= r.local->move_count(); ++n) counts.push_back(n);
    if (r.resigned) counts.push_back(r.local->move_count());
    EXPECT_EQ(sam_watch.progress[r.name], counts) << r.name;
  }
  EXPECT_EQ(sam_watch.finished["standings"].size(), 4u);
}

}  // namespace
}  // namespace tilecrush::testing
