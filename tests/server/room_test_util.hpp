// Helpers of the room tests: racing players with a local engine copy of
// their game, and followers that rebuild every board from room_events.
//
// Thread safety: each object belongs to one test thread.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "json_board.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {

// One racing player: their connection, and a local engine copy of their
// game that predicts every answer.
struct Racer {
  std::string name;
  std::string token;
  std::unique_ptr<WsClient> ws;
  std::unique_ptr<game::Game> local;
  std::string game_id;
  bool resigned = false;
};

// The room `host` creates with `fields` (mode, preset, seed): its code;
// empty, and a failure, when it is refused.
inline std::string create_room(WsClient& host, json fields) {
  fields["type"] = "create_room";
  const json reply = host.request(fields);
  EXPECT_EQ(reply["type"], "room") << reply;
  return reply["type"] == "room" ? reply["room"]["code"].get<std::string>() : std::string();
}

// The standings the racers' local games make, as (-score, move count,
// name) in their order: by score (higher first), then fewer moves, then name.
using StandingsOrder = std::vector<std::tuple<std::int64_t, std::int64_t, std::string>>;
inline StandingsOrder expected_standings(const std::vector<Racer>& racers) {
  StandingsOrder expected;
  for (const Racer& r : racers) {
    expected.emplace_back(-r.local->score(), r.local->move_count(), r.name);
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

// Checks the room_finished message `who` received from room `code`
// against the racers' local games (expected_standings); racers tied on
// score and moves share a rank.
inline void expect_standings(const json& finished, const std::string& code,
                             const std::vector<Racer>& racers, const std::string& who) {
  const StandingsOrder expected = expected_standings(racers);
  ASSERT_EQ(finished["type"], "room_finished") << who;
  EXPECT_EQ(finished["code"], code) << who;
  const json& standings = finished["standings"];
  ASSERT_EQ(standings.size(), expected.size()) << who;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& [neg_score, moves, name] = expected[i];
    EXPECT_EQ(standings[i]["player"], name) << who;
    EXPECT_EQ(standings[i]["score"], -neg_score) << who;
    EXPECT_EQ(standings[i]["move_count"], moves) << who;
    const bool tied =
        i > 0 && std::get<0>(expected[i - 1]) == neg_score && std::get<1>(expected[i - 1]) == moves;
    const int rank = tied ? standings[i - 1]["rank"].get<int>() : static_cast<int>(i + 1);
    EXPECT_EQ(standings[i]["rank"], rank) << who;
  }
}

// A follower of a room (spectator or player): every board it was shown,
// kept up to date from room_events, and every progress it was told.
struct Watcher {
  std::map<std::string, JsonBoard> boards;
  std::map<std::string, std::vector<std::int64_t>> progress;  // move_count per message
  json finished;

  void take_games(const json& games) {
    for (const auto& [name, view] : games.items()) boards[name] = JsonBoard(view);
  }

  void on(const json& m) {
    const std::string type = m["type"];
    if (type == "room_events") {
      const std::string player = m["player"];
      ASSERT_TRUE(boards.contains(player)) << m;
      JsonBoard& board = boards[player];
      const std::int64_t before = board.move_count();
      board.apply(m);
      const json& events = m["events"];
      const bool resign = events.size() == 1 && events[0]["kind"] == "game_over" &&
                          events[0]["reason"] == "resigned";
      // In order and without gaps: each push is the very next move.
      EXPECT_EQ(m["move_count"].get<std::int64_t>(), before + (resign ? 0 : 1)) << m;
      EXPECT_EQ(board.hash(), m["state_hash"]) << m;
    } else if (type == "room_progress") {
      progress[m["player"]].push_back(m["move_count"].get<std::int64_t>());
    } else if (type == "room_finished") {
      finished = m;
    }
  }
};

// Feeds every message of `c`, in arrival order (kept pushes first), to `on`
// until a message of type `until` has been fed.
template <typename F>
void drain_until(WsClient& c, const std::string& until, F on) {
  std::vector<json> kept = std::move(c.pushes());
  c.pushes().clear();
  for (std::size_t i = 0; i < kept.size(); ++i) {
    on(kept[i]);
    if (kept[i]["type"] == until) {
      c.pushes().assign(kept.begin() + static_cast<std::ptrdiff_t>(i) + 1, kept.end());
      return;
    }
  }
  for (;;) {
    json m = c.receive();
    on(m);
    if (m["type"] == until) return;
  }
}

// The next pushed room update whose view satisfies `pred`.
template <typename P>
json wait_room(WsClient& c, P pred) {
  for (;;) {
    json m = c.wait_for("room");
    if (pred(m["room"])) return m;
  }
}

inline bool connected_in(const json& room, const std::string& name) {
  for (const auto& p : room["players"]) {
    if (p["name"] == name) return p["connected"].get<bool>();
  }
  return false;
}

inline game::GameSetup same_setup(const std::string& preset, const std::string& seed) {
  game::GameSetup setup;
  setup.mode = game::Mode::same;
  setup.preset = preset;
  setup.seed = seed;
  return setup;
}

// Plays one legal click (the pick-th, so the racers' boards differ).
inline void play(Racer& r, std::size_t pick) {
  if (r.local->over()) return;
  const std::vector<game::Move> legal = r.local->legal_moves();
  ASSERT_FALSE(legal.empty());
  const game::Move move = legal[pick % legal.size()];
  game::EventList events;
  ASSERT_TRUE(r.local->apply(move, events).ok());
  const json reply =
      r.ws->request({{"type", "click"}, {"game_id", r.game_id}, {"x", move.a.x}, {"y", move.a.y}});
  ASSERT_EQ(reply["type"], "events") << reply;
  EXPECT_EQ(reply["state_hash"], game::hash_hex(r.local->state_hash()));
}

inline void resign(Racer& r) {
  game::EventList events;
  ASSERT_TRUE(r.local->resign(events).ok());
  const json reply = r.ws->request({{"type", "resign"}, {"game_id", r.game_id}});
  ASSERT_EQ(reply["type"], "events") << reply;
  r.resigned = true;
}

}  // namespace tilecrush::testing
