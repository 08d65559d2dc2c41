// Each event kind serialises with exactly protocol.md's field names, and the
// text fast path equals the JSON builder byte for byte.
#include "tilecrush/protocol/events.hpp"

#include <gtest/gtest.h>

#include "tilecrush/game/hash.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

std::unique_ptr<game::Game> same_game(const char* preset = "easy", const char* seed = "abc") {
  game::GameSetup setup;
  setup.mode = game::Mode::same;
  setup.preset = preset;
  setup.seed = seed;
  auto created = game::create_game(setup);
  EXPECT_TRUE(created.game) << created.error;
  return std::move(created.game);
}

game::EventList every_kind() {
  return {
      game::SwapEvent{{1, 2}, {2, 2}},
      game::RemoveEvent{{{0, 1}, {0, 2}}, 0},
      game::RemoveEvent{{{3, 4}}, 2},
      game::ScoreEvent{9, 109},
      game::FallEvent{{{0, 0, 2}, {4, 1, 3}}},
      game::ShiftEvent{{{2, 1}, {3, 2}}},
      game::SpawnEvent{{{0, 0, 5}}, 1},
      game::PeekEvent{4, 5, 3},
      game::SelectEvent{6, 7, 2},
      game::UnselectEvent{6, 7},
      game::GameOverEvent{game::OverReason::cleared, 1000, 1109},
  };
}

TEST(Events, FieldNamesMatchTheProtocol) {
  const game::EventList events = every_kind();
  const json expected = json::parse(R"([
    {"kind":"swap","a":[1,2],"b":[2,2]},
    {"kind":"remove","cells":[[0,1],[0,2]]},
    {"kind":"remove","cells":[[3,4]],"wave":2},
    {"kind":"score","delta":9,"total":109},
    {"kind":"fall","moves":[[0,0,2],[4,1,3]]},
    {"kind":"shift","moves":[[2,1],[3,2]]},
    {"kind":"spawn","cells":[[0,0,5]],"wave":1},
    {"kind":"peek","x":4,"y":5,"color":3},
    {"kind":"select","x":6,"y":7,"color":2},
    {"kind":"unselect","x":6,"y":7},
    {"kind":"game_over","reason":"cleared","bonus":1000,"final_score":1109}
  ])");
  ASSERT_EQ(expected.size(), events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(event_to_json(events[i]), expected[i]) << i;
  }
  EXPECT_EQ(events_to_json(events), expected);
}

TEST(Events, SpawnCarriesWaveEvenWhenZero) {
  EXPECT_TRUE(event_to_json(game::SpawnEvent{{}, 0}).contains("wave"));
  EXPECT_FALSE(event_to_json(game::RemoveEvent{{}, 0}).contains("wave"));
}

TEST(Events, GameOverReasons) {
  for (auto [reason, text] : {std::pair{game::OverReason::no_moves, "no_moves"},
                              std::pair{game::OverReason::out_of_moves, "out_of_moves"},
                              std::pair{game::OverReason::resigned, "resigned"}}) {
    EXPECT_EQ(event_to_json(game::GameOverEvent{reason, 0, 5})["reason"], text);
  }
}

TEST(Events, HiddenPeekColour) {
  const json hidden = event_to_json(game::PeekEvent{1, 2, 3}, true);
  EXPECT_EQ(hidden, json::parse(R"({"kind":"peek","x":1,"y":2,"color":-1})"));
  // Selected colours are part of the player's own view, so spectators see them.
  EXPECT_EQ(event_to_json(game::SelectEvent{1, 2, 3}, true)["color"], 3);
}

TEST(Events, ReplyFields) {
  auto game = same_game();
  game::EventList events;
  const game::Move move = game->legal_moves().front();
  ASSERT_TRUE(game->apply(move, events).ok());
  const json reply = events_reply(json(7), "g-1", *game, events);
  EXPECT_EQ(reply["type"], "events");
  EXPECT_EQ(reply["id"], 7);
  EXPECT_EQ(reply["game_id"], "g-1");
  EXPECT_EQ(reply["move_count"], 1);
  EXPECT_EQ(reply["score"], game->score());
  EXPECT_EQ(reply["over"], game->over());
  EXPECT_EQ(reply["events"], events_to_json(events));
  EXPECT_EQ(reply["events"][0]["kind"], "remove");
  const std::string hash = reply["state_hash"];
  EXPECT_EQ(hash, game::hash_hex(game->state_hash()));
  EXPECT_EQ(reply.size(), 8u);
}

TEST(Events, StateHashIsSixteenLowercaseHex) {
  auto game = same_game();
  const std::string hash = events_reply(nullptr, "g", *game, {})["state_hash"];
  ASSERT_EQ(hash.size(), 16u);
  for (char c : hash) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << hash;
}

TEST(Events, TextEqualsBuilderByteForByte) {
  auto game = same_game();
  const game::EventList events = every_kind();
  for (const json& id : {json(nullptr), json(12), json(-3), json(2.5), json("a\"b\\c\n\x01")}) {
    EXPECT_EQ(events_reply_text(id, "g\"1", *game, events),
              dump(events_reply(id, "g\"1", *game, events)));
  }
  EXPECT_EQ(events_reply_text(nullptr, "g", *game, {}),
            dump(events_reply(nullptr, "g", *game, {})));
  EXPECT_EQ(room_events_text("ROOM", "Zoé", *game, events),
            dump(room_events("ROOM", "Zoé", *game, events)));
}

TEST(Events, TextOfARealMove) {
  auto game = same_game("classic", "seed-42");
  for (int i = 0; i < 5 && !game->over(); ++i) {
    game::EventList events;
    ASSERT_TRUE(game->apply(game->legal_moves().front(), events).ok());
    EXPECT_EQ(events_reply_text(json(i), "g", *game, events),
              dump(events_reply(json(i), "g", *game, events)));
  }
}

TEST(Events, RoomEventsHidePeekColours) {
  auto game = same_game();
  const json msg = room_events("R1", "Ada", *game, {game::PeekEvent{1, 1, 2}});
  EXPECT_EQ(msg["type"], "room_events");
  EXPECT_EQ(msg["code"], "R1");
  EXPECT_EQ(msg["player"], "Ada");
  EXPECT_EQ(msg["move_count"], 0);
  EXPECT_FALSE(msg.contains("id"));
  EXPECT_EQ(msg["events"][0]["color"], -1);
  EXPECT_EQ(msg["state_hash"], game::hash_hex(game->state_hash()));
}

}  // namespace
}  // namespace tilecrush::protocol
