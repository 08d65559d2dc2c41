// GameView, direct replies and room messages.
#include "tilecrush/protocol/views.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tilecrush/game/hash.hpp"
#include "tilecrush/protocol/rooms.hpp"

namespace tilecrush::protocol {
namespace {

using nlohmann::json;

std::unique_ptr<game::Game> make(game::GameSetup setup) {
  auto created = game::create_game(setup);
  return std::move(created.game);
}

game::GameSetup preset_setup(game::Mode mode, const char* preset, const char* seed) {
  game::GameSetup setup;
  setup.mode = mode;
  setup.preset = preset;
  setup.seed = seed;
  return setup;
}

TEST(GameView, SameGameFields) {
  auto game = make(preset_setup(game::Mode::same, "normal", "s"));
  ASSERT_TRUE(game);
  const json v = game_view(*game, {.game_id = "g-9", .elapsed_ms = 0, .ranked = true});
  const std::set<std::string> keys{
      "game_id", "mode",          "preset",     "seed",        "ranked",     "width",
      "height",  "colors",        "board",      "score",       "move_count", "moves_left",
      "over",    "rules_version", "state_hash", "competition", "attempt",    "commitment"};
  std::set<std::string> got;
  for (const auto& [k, _] : v.items()) got.insert(k);
  EXPECT_EQ(got, keys);
  EXPECT_EQ(v["game_id"], "g-9");
  EXPECT_EQ(v["mode"], "same");
  EXPECT_EQ(v["preset"], "normal");
  EXPECT_EQ(v["seed"], "s");
  EXPECT_EQ(v["ranked"], true);
  EXPECT_EQ(v["width"], 15);
  EXPECT_EQ(v["height"], 12);
  EXPECT_EQ(v["colors"], 4);
  EXPECT_TRUE(v["moves_left"].is_null());
  EXPECT_EQ(v["over"], false);
  EXPECT_EQ(v["rules_version"], game::kRulesVersion);
  EXPECT_EQ(v["state_hash"], game::hash_hex(game->state_hash()));
  EXPECT_TRUE(v["competition"].is_null());
  EXPECT_TRUE(v["attempt"].is_null());
  EXPECT_TRUE(v["commitment"].is_null());
  ASSERT_EQ(v["board"].size(), 12u);
  for (int y = 0; y < 12; ++y) {
    ASSERT_EQ(v["board"][y].size(), 15u);
    for (int x = 0; x < 15; ++x) EXPECT_EQ(v["board"][y][x], game->board().at(x, y));
  }
}

TEST(GameView, CustomGameHasNullPreset) {
  game::GameSetup setup;
  setup.mode = game::Mode::same;
  setup.seed = "x";
  setup.width = 5;
  setup.height = 4;
  setup.colors = 3;
  auto game = make(setup);
  ASSERT_TRUE(game);
  const json v = game_view(*game, {.game_id = "g", .elapsed_ms = 0});
  EXPECT_TRUE(v["preset"].is_null());
  EXPECT_EQ(v["ranked"], false);
  EXPECT_EQ(v["width"], 5);
  EXPECT_EQ(v["board"].size(), 4u);
}

TEST(GameView, HiddenGameNeverShowsAnUnselectedColour) {
  auto game = make(preset_setup(game::Mode::hidden, "classic", "h"));
  if (!game) GTEST_SKIP() << "hidden mode is not implemented yet (create_game returned null)";

  const auto check = [&](const char* when) {
    const json v = game_view(*game, {.game_id = "g", .elapsed_ms = 1234});
    EXPECT_EQ(v["peeks"], game->peeks()) << when;
    EXPECT_EQ(v["elapsed_ms"], 1234) << when;
    std::set<std::pair<int, int>> selected;
    for (const auto& p : v["selected"]) selected.insert({p[0].get<int>(), p[1].get<int>()});
    EXPECT_EQ(selected.size(), game->selected().size()) << when;
    for (int y = 0; y < game->height(); ++y) {
      for (int x = 0; x < game->width(); ++x) {
        const int cell = v["board"][y][x];
        if (selected.count({x, y})) {
          EXPECT_EQ(cell, game->board().at(x, y)) << when;
        } else {
          EXPECT_TRUE(cell == -1 || cell == 0) << when << " (" << x << "," << y << ") " << cell;
        }
      }
    }
  };
  check("at the start");

  const auto play = [&](game::MoveKind kind) {
    game::EventList events;
    for (const game::Move& m : game->legal_moves()) {
      if (m.kind == kind && game->apply(m, events).ok()) return true;
    }
    return false;
  };
  ASSERT_TRUE(play(game::MoveKind::peek));
  EXPECT_EQ(game->peeks(), 1);
  check("after a peek");
  ASSERT_TRUE(play(game::MoveKind::select));
  ASSERT_EQ(game->selected().size(), 1u);
  check("after a select");
  ASSERT_TRUE(play(game::MoveKind::select));
  check("after a second select");
}

TEST(Replies, Welcome) {
  const json w = welcome(json(1), json(42), "Ada", "tok");
  EXPECT_EQ(
      w, json::parse(R"({"type":"welcome","id":1,"player":{"id":42,"name":"Ada"},"token":"tok"})"));
}

TEST(Replies, Running) {
  RunningView g;
  g.game_id = "9e41c07d2a5b8f36";
  g.competition = "daily-2026-11-24-hidden-classic";
  g.mode = game::Mode::hidden;
  g.preset = "classic";
  g.attempt = 1;
  g.ranked = true;
  g.score = 120;
  g.move_count = 31;
  g.started_at = "2026-11-24T09:37:40.112Z";
  g.closes_at = "2026-11-25T00:00:00.000Z";
  const json r = running_reply(json(5), running_list({g}));
  EXPECT_EQ(r, json::parse(R"({"type":"running","id":5,"running":[
    {"game_id":"9e41c07d2a5b8f36","competition":"daily-2026-11-24-hidden-classic",
     "mode":"hidden","preset":"classic","attempt":1,"ranked":true,"score":120,"move_count":31,
     "started_at":"2026-11-24T09:37:40.112Z","closes_at":"2026-11-25T00:00:00.000Z"}]})"));
  EXPECT_EQ(running_list({}), json::array());
}

TEST(Replies, GameReply) {
  const json r = game_reply(json("q"), json{{"game_id", "g"}});
  EXPECT_EQ(r, json::parse(R"({"type":"game","id":"q","game":{"game_id":"g"}})"));
}

TEST(Replies, PreviewAndHint) {
  auto game = make(preset_setup(game::Mode::same, "easy", "abc"));
  ASSERT_TRUE(game);
  game::Hint hint;
  ASSERT_TRUE(game->hint(hint).ok());
  game::Preview preview;
  ASSERT_TRUE(game->preview(hint.move.a, preview).ok());
  const json p = preview_reply(json(3), "g", preview);
  EXPECT_EQ(p["type"], "preview");
  EXPECT_EQ(p["id"], 3);
  EXPECT_EQ(p["game_id"], "g");
  EXPECT_EQ(p["cells"].size(), preview.cells.size());
  EXPECT_EQ(p["cells"][0], json::array({preview.cells[0].x, preview.cells[0].y}));
  EXPECT_EQ(p["points"], preview.points);

  const json h = hint_reply(json(4), "g", hint);
  EXPECT_EQ(h["type"], "hint");
  EXPECT_EQ(h["click"], json::array({hint.move.a.x, hint.move.a.y}));
  EXPECT_FALSE(h.contains("swap"));

  const game::Hint swap{{game::MoveKind::swap, {1, 2}, {1, 3}}};
  EXPECT_EQ(hint_reply(json(5), "m", swap),
            json::parse(R"({"type":"hint","id":5,"game_id":"m","swap":[[1,2],[1,3]]})"));
}

TEST(Replies, PongAndErrors) {
  EXPECT_EQ(pong(nullptr), json::parse(R"({"type":"pong","id":null})"));
  EXPECT_EQ(error_reply(json(9), ErrorCode::not_found, "no such game"),
            json::parse(R"({"type":"error","id":9,"code":"not_found","message":"no such game"})"));
  EXPECT_EQ(error_reply(nullptr, Error{ErrorCode::bad_request, "x"})["id"], nullptr);
  EXPECT_EQ(error_reply(nullptr, Error{ErrorCode::bad_request, "x"}).size(), 4u);
}

TEST(Replies, ErrorCodes) {
  for (const char* code : {"bad_request", "unauthorized", "not_found", "invalid_move",
                           "not_allowed", "rate_limited", "internal"}) {
    const auto parsed = parse_error_code(code);
    ASSERT_TRUE(parsed) << code;
    EXPECT_EQ(to_string(*parsed), code);
  }
  EXPECT_FALSE(parse_error_code("nope"));
  EXPECT_EQ(error_code(game::Status::wrong_mode), ErrorCode::bad_request);
  EXPECT_EQ(error_code(game::Status::invalid_move), ErrorCode::invalid_move);
  EXPECT_EQ(error_code(game::Status::not_allowed), ErrorCode::not_allowed);
  const Error e = error_from(game::Outcome::refuse(game::Status::invalid_move, "group of one"));
  EXPECT_EQ(e.code, ErrorCode::invalid_move);
  EXPECT_EQ(e.message, "group of one");
}

TEST(Replies, DumpNeverThrows) {
  EXPECT_EQ(dump(json{{"a", 1}}), R"({"a":1})");
  EXPECT_NO_THROW(dump(json{{"bad", "\xff"}}));
}

TEST(Rooms, Messages) {
  RoomView room{"ABCD",
                game::Mode::match3,
                "classic",
                "s",
                "Ada",
                RoomState::playing,
                {{"Ada", 30, 2, false, true}, {"Bo", 0, 0, true, false}},
                3};
  const json view = room_view(room);
  EXPECT_EQ(view, json::parse(R"({"code":"ABCD","mode":"match3","preset":"classic","seed":"s",
      "host":"Ada","state":"playing","spectators":3,"players":[
      {"name":"Ada","score":30,"move_count":2,"over":false,"connected":true},
      {"name":"Bo","score":0,"move_count":0,"over":true,"connected":false}]})"));

  const json reply = room_reply(json(1), room);
  EXPECT_EQ(reply["type"], "room");
  EXPECT_EQ(reply["id"], 1);
  EXPECT_EQ(reply["room"], view);
  EXPECT_FALSE(reply.contains("games"));
  EXPECT_EQ(room_reply(json(1), room, json{{"Ada", json::object()}})["games"],
            json::parse(R"({"Ada":{}})"));

  EXPECT_EQ(room_started("ABCD", json{{"game_id", "g"}}),
            json::parse(R"({"type":"room_started","code":"ABCD","game":{"game_id":"g"}})"));
  EXPECT_EQ(
      room_started_spectator("ABCD", json{{"Ada", {{"game_id", "g"}}}}),
      json::parse(R"({"type":"room_started","code":"ABCD","games":{"Ada":{"game_id":"g"}}})"));
  EXPECT_EQ(room_progress({"ABCD", "Bo", 40, 3, false}),
            json::parse(R"({"type":"room_progress","code":"ABCD","player":"Bo","score":40,
                "move_count":3,"over":false})"));
  EXPECT_EQ(room_finished("ABCD", {{1, "Ada", 90, 10}, {2, "Bo", 40, 3}}),
            json::parse(R"({"type":"room_finished","code":"ABCD","standings":[
                {"rank":1,"player":"Ada","score":90,"move_count":10},
                {"rank":2,"player":"Bo","score":40,"move_count":3}]})"));
  EXPECT_EQ(to_string(RoomState::lobby), "lobby");
  EXPECT_EQ(to_string(RoomState::finished), "finished");
}

}  // namespace
}  // namespace tilecrush::protocol
