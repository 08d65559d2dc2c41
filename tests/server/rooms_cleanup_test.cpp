// Cleanup of abandoned rooms with a clock the test moves: the RoomManager is
// driven directly (no sockets) through fake connections, so that minutes of
// absence take no time. Checks that rooms and the per-player index empty
// out and that a player's open-room allowance comes back.
#include <gtest/gtest.h>

#include "fake_connection.hpp"
#include "rooms/room_manager.hpp"

namespace tilecrush::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using server::GameService;

class RoomsCleanupTest : public DirectServiceTest {
 protected:
  ~RoomsCleanupTest() override {
    // Before the rooms go: no storage callback of theirs runs afterwards.
    db_.close();
  }

  // Lets storage commit and the connections' strands run.
  void settle() {
    db_.flush();
    ioc_.restart();
    ioc_.poll();
  }

  json last_answer(const std::shared_ptr<FakeConnection>& conn) {
    settle();
    const auto answers = conn->answers();
    return answers.empty() ? json::object() : answers.back();
  }

  std::string create(const std::shared_ptr<FakeConnection>& conn) {
    rooms_.create(request(conn), {game::Mode::same, "easy", std::string("cleanup")});
    const json answer = last_answer(conn);
    return answer.value("room", json::object()).value("code", "");
  }

  void advance(std::chrono::milliseconds by) { now_ += by.count(); }

  server::RoomManager rooms_{service_, db_, server::net::make_strand(ioc_),
                             [this]() { return now_.load(); }};
};

TEST_F(RoomsCleanupTest, AnAbandonedLobbyGoesAfterTheGracePeriod) {
  auto ann = connect("ann");
  auto bob = connect("bob");
  const std::string code = create(ann);
  ASSERT_EQ(code.size(), 6u);
  rooms_.join(request(bob), {code, false});
  EXPECT_EQ(last_answer(bob)["room"]["players"].size(), 2u);
  EXPECT_EQ(rooms_.indexed_players(), 2u);

  rooms_.on_disconnect(ann);
  rooms_.on_disconnect(bob);
  advance(2min);
  EXPECT_EQ(rooms_.sweep(), 0u);
  EXPECT_EQ(rooms_.room_count(), 1u);
  advance(2min);
  EXPECT_EQ(rooms_.sweep(), 1u);
  EXPECT_EQ(rooms_.room_count(), 0u);
  EXPECT_EQ(rooms_.indexed_players(), 0u);
  settle();
  EXPECT_FALSE(db_.find_open_room(code).has_value());
}

TEST_F(RoomsCleanupTest, AbsentPlayersCountAsGoneAndFinishedRoomsAreForgotten) {
  auto ann = connect("ann");
  auto bob = connect("bob");
  const std::string code = create(ann);
  rooms_.join(request(bob), {code, false});
  settle();
  rooms_.start(request(ann), {code});
  EXPECT_EQ(last_answer(ann)["room"]["state"], "playing");
  const auto started = ann->pushes_of("room_started");
  ASSERT_EQ(started.size(), 1u);
  const std::string ann_game = started[0]["game"]["game_id"];

  // bob goes away during play: after the grace period he counts as gone.
  rooms_.on_disconnect(bob);
  advance(4min);
  rooms_.sweep();
  EXPECT_TRUE(ann->pushes_of("room_finished").empty());
  advance(2min);
  rooms_.sweep();
  const auto updates = ann->pushes_of("room");
  ASSERT_FALSE(updates.empty());
  EXPECT_TRUE(updates.back()["room"]["players"][1]["over"].get<bool>());

  // ann resigns: everyone is over, the room finishes and is stored.
  service_.handle(request(ann), protocol::Resign{ann_game});
  settle();
  const auto finished = ann->pushes_of("room_finished");
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0]["standings"].size(), 2u);
  const auto stored = db_.find_room(code);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->standings.size(), 2u);
  EXPECT_FALSE(db_.find_open_room(code).has_value());

  // Still joinable for a while, then forgotten.
  advance(4min);
  EXPECT_EQ(rooms_.sweep(), 0u);
  advance(2min);
  EXPECT_EQ(rooms_.sweep(), 1u);
  EXPECT_EQ(rooms_.room_count(), 0u);
  EXPECT_EQ(rooms_.indexed_players(), 0u);

  // ann's allowance of open rooms is whole again.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(create(ann).size(), 6u);
  EXPECT_EQ(create(ann), "");
}

TEST_F(RoomsCleanupTest, APlayingRoomWithoutMovesEnds) {
  auto ann = connect("ann");
  const std::string code = create(ann);
  rooms_.start(request(ann), {code});
  EXPECT_EQ(last_answer(ann)["room"]["state"], "playing");
  advance(29min);
  rooms_.sweep();
  EXPECT_TRUE(ann->pushes_of("room_finished").empty());
  advance(2min);
  rooms_.sweep();
  EXPECT_EQ(ann->pushes_of("room_finished").size(), 1u);
}

TEST_F(RoomsCleanupTest, RoomsCreatedAndLeftOverAndOverLeaveNothingBehind) {
  auto ann = connect("ann");
  auto bob = connect("bob");
  for (int i = 0; i < 200; ++i) {
    const std::string code = create(ann);
    ASSERT_EQ(code.size(), 6u) << "round " << i;  // the allowance comes back every time
    rooms_.join(request(bob), {code, i % 2 == 1});
    ASSERT_EQ(last_answer(bob)["type"], "room");
    rooms_.leave(request(bob), {code});
    ASSERT_EQ(last_answer(bob)["type"], "room");
    rooms_.leave(request(ann), {code});
    ASSERT_EQ(last_answer(ann)["type"], "room");
  }
  EXPECT_EQ(rooms_.room_count(), 0u);
  EXPECT_EQ(rooms_.indexed_players(), 0u);
  settle();
  EXPECT_TRUE(db_.open_rooms().empty());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(create(ann).size(), 6u);
  EXPECT_EQ(create(ann), "");
}

// A restarted server (a new game service and room manager on the same
// database, ten minutes later) gets the open rooms back with everyone away
// since the restart: the grace periods count from then, not from before.
TEST_F(RoomsCleanupTest, RestoredRoomsCountTheirGracePeriodsFromTheRestart) {
  auto ann = connect("ann");
  auto bob = connect("bob");
  auto cy = connect("cy");
  const std::string lobby = create(ann);
  rooms_.join(request(bob), {lobby, false});
  const std::string race = create(ann);
  rooms_.join(request(cy), {race, false});
  settle();
  rooms_.start(request(ann), {race});
  EXPECT_EQ(last_answer(ann)["room"]["state"], "playing");
  rooms_.leave(request(cy), {race});  // cy is out of the race
  settle();

  advance(10min);
  GameService service{db_, metrics_, [this]() { return now_.load(); }, keys_, competitions_};
  server::RoomManager restored{service, db_, server::net::make_strand(ioc_),
                               [this]() { return now_.load(); }};
  EXPECT_EQ(restored.restore(), 2u);
  EXPECT_EQ(restored.room_count(), 2u);
  EXPECT_EQ(restored.indexed_players(), 3u);
  // ann's two restored rooms count among her four.
  auto ann_again = connect("ann");
  for (int i = 0; i < 2; ++i) {
    restored.create(request(ann_again), {game::Mode::same, "easy", std::string("more")});
    EXPECT_EQ(last_answer(ann_again)["type"], "room");
  }
  restored.create(request(ann_again), {game::Mode::same, "easy", std::string("more")});
  EXPECT_EQ(last_answer(ann_again)["code"], "not_allowed");
  restored.on_disconnect(ann_again);

  advance(2min);
  EXPECT_EQ(restored.sweep(), 0u);
  advance(2min);  // 4 minutes after the restart: the lobby's players are gone
  restored.sweep();
  settle();
  EXPECT_FALSE(db_.find_open_room(lobby).has_value());
  const auto racing = db_.find_open_room(race);
  ASSERT_TRUE(racing.has_value());
  EXPECT_FALSE(racing->players[0].left);
  EXPECT_TRUE(racing->players[1].left);
  advance(2min);  // 6 minutes: ann counts as gone, and the race ends
  restored.sweep();
  settle();
  EXPECT_FALSE(db_.find_open_room(race).has_value());
  const auto result = db_.find_room(race);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->standings.size(), 2u);
}

TEST_F(RoomsCleanupTest, ARoomHoldsAtMostEightPlayersAndThirtyTwoSpectators) {
  auto host = connect("host");
  const std::string code = create(host);
  std::vector<std::shared_ptr<FakeConnection>> others;
  for (int i = 0; i < 42; ++i) others.push_back(connect("member" + std::to_string(i)));
  for (int i = 0; i < 8; ++i) {
    rooms_.join(request(others[static_cast<std::size_t>(i)]), {code, false});
    const json answer = last_answer(others[static_cast<std::size_t>(i)]);
    EXPECT_EQ(answer["type"], i < 7 ? "room" : "error") << answer;
  }
  for (int i = 8; i < 42; ++i) {
    rooms_.join(request(others[static_cast<std::size_t>(i)]), {code, true});
    const json answer = last_answer(others[static_cast<std::size_t>(i)]);
    EXPECT_EQ(answer["type"], i < 40 ? "room" : "error") << answer;
  }
  const json full = last_answer(others[39]);  // the last one let in
  EXPECT_EQ(full["room"]["players"].size(), 8u);
  EXPECT_EQ(full["room"]["spectators"], 32);
  // Members: the host, 7 players, 32 spectators.
  EXPECT_EQ(rooms_.indexed_players(), 40u);
}

}  // namespace
}  // namespace tilecrush::testing
