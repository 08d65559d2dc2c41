// Several nodes on one PostgreSQL database behind nginx
// (scripts/cluster.sh): any node serves any player's game, leaderboards
// read the same everywhere, and a game played on two nodes in turn never
// forks. One cluster (two nodes, nginx, PostgreSQL) serves every test of
// this executable, so CTest runs it as a single test.
//
// Without nginx or PostgreSQL 15 the tests skip, unless
// TILECRUSH_TEST_PG_REQUIRED is set (scripts/test.sh sets it): then they fail.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "cluster_suite.hpp"
#include "nginx_client.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

class ClusterTest : public ClusterSuite<ClusterTest> {
 protected:
  static unsigned short n1() { return cluster_->node_port("n1"); }
  static unsigned short n2() { return cluster_->node_port("n2"); }
  static unsigned short front() { return cluster_->nginx_port(); }
};

// A player's connection to one node, signed in.
std::unique_ptr<WsClient> connect(unsigned short port, const std::string& name,
                                  std::string& token) {
  auto c = std::make_unique<WsClient>(port);
  const json welcome = c->hello(name, token.empty() ? std::nullopt : std::optional(token));
  EXPECT_EQ(welcome["type"], "welcome") << welcome;
  token = welcome.value("token", "");
  return c;
}

// The click the node's own copy of the game suggests (Same Game), sent
// there; its answer.
json play_hint(WsClient& c, const std::string& game_id) {
  const json hint = c.request({{"type", "hint"}, {"game_id", game_id}});
  if (hint["type"] != "hint") return hint;
  return c.request(
      {{"type", "click"}, {"game_id", game_id}, {"x", hint["click"][0]}, {"y", hint["click"][1]}});
}

json resume(WsClient& c, const std::string& game_id) {
  return c.request({{"type", "resume"}, {"game_id", game_id}});
}

std::string start_game(WsClient& c, const std::string& seed) {
  const json g =
      c.request({{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", seed}});
  EXPECT_EQ(g["type"], "game") << g;
  return g["game"].value("game_id", "");
}

TEST_F(ClusterTest, GameStartedOnOneNodeResumesAndMovesOnTheOther) {
  std::string token;
  auto on1 = connect(n1(), "ann", token);
  const std::string game_id = start_game(*on1, "cluster-a");
  const json first = play_hint(*on1, game_id);
  ASSERT_EQ(first["type"], "events") << first;

  auto on2 = connect(n2(), "ann", token);
  const json there = resume(*on2, game_id);
  ASSERT_EQ(there["type"], "game") << there;
  EXPECT_EQ(there["game"]["state_hash"], first["state_hash"]);
  EXPECT_EQ(there["game"]["move_count"], 1);

  const json second = play_hint(*on2, game_id);
  ASSERT_EQ(second["type"], "events") << second;
  EXPECT_EQ(second["move_count"], 2);

  // Node 1 played the first move and may still hold the game: resume must
  // show the database's game, node 2's move included.
  auto again1 = connect(n1(), "ann", token);
  const json back = resume(*again1, game_id);
  ASSERT_EQ(back["type"], "game") << back;
  EXPECT_EQ(back["game"]["state_hash"], second["state_hash"]);
  EXPECT_EQ(back["game"]["move_count"], 2);

  // And through nginx, on whichever node it picks.
  auto via_front = connect(front(), "ann", token);
  const json routed = resume(*via_front, game_id);
  ASSERT_EQ(routed["type"], "game") << routed;
  EXPECT_EQ(routed["game"]["state_hash"], second["state_hash"]);
}

TEST_F(ClusterTest, LeaderboardWrittenOnOneNodeReadsTheSameEverywhere) {
  std::string token;
  auto on1 = connect(n1(), "bea", token);
  const std::string game_id = start_game(*on1, "cluster-b");
  json last;
  for (int i = 0; i < 1000; ++i) {
    last = play_hint(*on1, game_id);
    ASSERT_EQ(last["type"], "events") << last;
    if (last["over"] == true) break;
  }
  ASSERT_EQ(last["over"], true);
  const std::int64_t score = last["score"];

  const std::string board = "/api/leaderboard?mode=same&preset=easy&seed=cluster-b";
  const HttpResult from1 = http_get(n1(), board);
  ASSERT_EQ(from1.status, 200u) << from1.body;
  const json entries = from1.json_body()["entries"];
  ASSERT_EQ(entries.size(), 1u) << from1.body;
  EXPECT_EQ(entries[0]["player"], "bea");
  EXPECT_EQ(entries[0]["score"], score);
  EXPECT_EQ(entries[0]["game_id"], game_id);
  for (const unsigned short port : {n2(), front()}) {
    const HttpResult other = http_get(port, board);
    ASSERT_EQ(other.status, 200u) << other.body;
    EXPECT_EQ(other.json_body()["entries"], entries) << "port " << port;
    EXPECT_EQ(other.json_body()["total"], 1) << "port " << port;
  }
  // The finished game and its replay, from the node that did not play it.
  EXPECT_EQ(http_get(n2(), "/api/games/" + game_id).json_body()["score"], score);
  EXPECT_EQ(http_get(front(), "/api/games/" + game_id + "/verify").json_body()["valid"], true);
}

// Two players start the first game on one new label at once, one on each
// node: both games are stored (never `internal`), dealt from one key, the
// board's (the node whose board insert lost reads the winner's key).
TEST_F(ClusterTest, FirstGamesOnOneNewLabelOnTwoNodesShareItsKey) {
  std::string t1;
  std::string t2;
  auto on1 = connect(n1(), "fay", t1);
  auto on2 = connect(n2(), "gus", t2);
  for (int round = 0; round < 8; ++round) {
    const std::string seed = "fresh-label-" + std::to_string(round);
    const json request = {
        {"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}, {"seed", seed}};
    on1->send(request);
    on2->send(request);
    const json g1 = on1->receive();
    const json g2 = on2->receive();
    ASSERT_EQ(g1["type"], "game") << g1;
    ASSERT_EQ(g2["type"], "game") << g2;
    EXPECT_EQ(g1["game"]["commitment"], g2["game"]["commitment"]) << seed;
    EXPECT_EQ(g1["game"]["board"], g2["game"]["board"]) << seed;
  }
}

TEST_F(ClusterTest, GamePlayedOnTwoNodesInTurnNeverForks) {
  std::string token;
  auto on1 = connect(n1(), "cy", token);
  auto on2 = connect(n2(), "cy", token);
  const std::string game_id = start_game(*on1, "cluster-c");
  ASSERT_EQ(play_hint(*on1, game_id)["type"], "events");
  std::int64_t acknowledged = 1;
  std::string hash;
  // Each round: the other node catches up with resume and plays; then the
  // node played on before, whose copy is now behind, is sent a move that
  // its copy allows. It must refuse it (storing it would fork the game),
  // and resume there must show the database's game.
  WsClient* nodes[2] = {on1.get(), on2.get()};
  for (int round = 0; round < 4; ++round) {
    WsClient& fresh = *nodes[(round + 1) % 2];
    WsClient& stale = *nodes[round % 2];
    const json caught_up = resume(fresh, game_id);
    ASSERT_EQ(caught_up["type"], "game") << caught_up;
    ASSERT_EQ(caught_up["game"]["move_count"], acknowledged) << "round " << round;
    const json moved = play_hint(fresh, game_id);
    ASSERT_EQ(moved["type"], "events") << moved;
    if (moved["over"] == true) break;
    ++acknowledged;
    hash = moved["state_hash"];

    const json forked = play_hint(stale, game_id);
    EXPECT_EQ(forked["type"], "error") << "round " << round << ": " << forked;
    const json seen = resume(stale, game_id);
    ASSERT_EQ(seen["type"], "game") << seen;
    EXPECT_EQ(seen["game"]["move_count"], acknowledged) << "round " << round;
    EXPECT_EQ(seen["game"]["state_hash"], hash) << "round " << round;
  }
  // The database holds one line of play: the game as the last answer left it.
  auto fresh = connect(n1(), "cy", token);
  const json final_view = resume(*fresh, game_id);
  EXPECT_EQ(final_view["game"]["move_count"], acknowledged);
  EXPECT_EQ(final_view["game"]["state_hash"], hash);
}

// A room's members land on one node through nginx; when that node is
// killed the room goes on on the other one with every answered move; when
// it comes back it serves none of the rooms the other took over.
TEST_F(ClusterTest, ARoomsMembersShareOneNodeAndItSurvivesTheOwnersDeath) {
  std::string ann_token;
  std::string bob_token;
  auto ann = connect_via(front(), "/ws", "ann-nodes", ann_token);
  const json created = ann->request(
      {{"type", "create_room"}, {"mode", "same"}, {"preset", "easy"}, {"seed", "nodes"}});
  ASSERT_EQ(created["type"], "room") << created;
  const std::string code = created["room"]["code"];
  // ann sits where she created the room; she joins again through the
  // room's route, as the client would after a reload.
  json answer;
  ann = join_via_nginx(front(), code, "ann-nodes", ann_token, answer);
  ASSERT_TRUE(ann) << answer;
  auto bob = join_via_nginx(front(), code, "bob-nodes", bob_token, answer);
  ASSERT_TRUE(bob) << answer;
  // On one node: each sees the other connected, and the start reaches both.
  ASSERT_EQ(answer["room"]["players"].size(), 2u);
  for (const auto& p : answer["room"]["players"]) EXPECT_TRUE(p["connected"].get<bool>()) << p;
  const json started = ann->request({{"type", "start_room"}, {"code", code}});
  ASSERT_EQ(started["room"]["state"], "playing") << started;
  const std::string ann_game = ann->wait_for("room_started")["game"]["game_id"];
  const std::string bob_game = bob->wait_for("room_started")["game"]["game_id"];
  ASSERT_EQ(play_hint(*ann, ann_game)["type"], "events");
  const json bob_move = play_hint(*bob, bob_game);
  ASSERT_EQ(bob_move["type"], "events") << bob_move;
  const json ann_view = resume(*ann, ann_game);
  // bob's progress reached ann: they share the node.
  bool saw_bob = false;
  for (int i = 0; i < 4 && !saw_bob; ++i) {
    saw_bob = ann->wait_for("room_progress")["player"] == "bob-nodes";
  }
  EXPECT_TRUE(saw_bob);

  // Which node serves the room: the one that answers join_room without
  // `moved` when asked directly.
  std::string probe_token;
  auto probe = connect(n1(), "probe-nodes", probe_token);
  const json on_n1 = probe->request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}});
  const std::string owner = on_n1["type"] == "room" ? "n1" : "n2";
  const std::string other = owner == "n1" ? "n2" : "n1";
  probe.reset();

  cluster_->kill_node(owner);
  ann.reset();
  bob.reset();
  ann = join_via_nginx(front(), code, "ann-nodes", ann_token, answer);
  ASSERT_TRUE(ann) << answer;
  EXPECT_EQ(answer["room"]["state"], "playing");
  EXPECT_EQ(answer["game"]["state_hash"], ann_view["game"]["state_hash"]);
  EXPECT_EQ(answer["game"]["move_count"], 1);
  bob = join_via_nginx(front(), code, "bob-nodes", bob_token, answer);
  ASSERT_TRUE(bob) << answer;
  EXPECT_EQ(answer["game"]["move_count"], 1);
  EXPECT_EQ(answer["game"]["state_hash"], bob_move["state_hash"]);

  // The killed node is back: asked directly, it sends players to the other.
  cluster_->restart_node(owner);
  std::string eve_token;
  auto eve = connect(owner == "n1" ? n1() : n2(), "eve-nodes", eve_token);
  const json elsewhere = eve->request({{"type", "join_room"}, {"code", code}, {"as", "spectator"}});
  EXPECT_EQ(elsewhere["code"], "moved") << elsewhere;
  EXPECT_EQ(elsewhere["node"], other);
  // And the race goes on where it is.
  EXPECT_EQ(play_hint(*ann, ann_game)["type"], "events");
}

}  // namespace
}  // namespace tilecrush::testing
