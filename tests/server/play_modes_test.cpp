// Whole games of every mode and preset, and practice games, played through
// the real server and compared after every move with a local engine game
// built from the same setup and the seed the server reports.
#include <gtest/gtest.h>

#include "itest_util.hpp"
#include "test_server.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::testing {
namespace {

// Starts a ranked game on a preset, plays it to the end with random legal
// moves and checks its record, verification and leaderboard entry.
void play_ranked_preset(TestServer& ts, WsClient& c, game::Mode mode, std::string_view preset,
                        std::uint32_t rng_seed) {
  const std::string mode_name(game::to_string(mode));
  SCOPED_TRACE(mode_name + "/" + std::string(preset));
  const std::string seed = "itest-" + mode_name + "-" + std::string(preset);
  const json view = start_game(c, {{"mode", mode_name}, {"preset", preset}, {"seed", seed}});
  ASSERT_TRUE(view.is_object());
  const std::string game_id = view["game_id"];
  EXPECT_EQ(view["ranked"], true);
  EXPECT_EQ(view["seed"], seed);
  auto local = make_local(preset_setup(mode, std::string(preset), seed));
  ASSERT_TRUE(local);
  EXPECT_EQ(view, expected_view(*local, game_id, view));

  std::mt19937 rng(rng_seed);
  const json last = play_to_end(c, game_id, *local, rng);
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(last["score"], local->score());
  expect_resume_matches(c, game_id, *local);

  const HttpResult verify = http_get(ts.port(), "/api/games/" + game_id + "/verify");
  ASSERT_EQ(verify.status, 200u) << verify.body;
  EXPECT_EQ(verify.json_body(), json({{"valid", true}, {"score", local->score()}}));

  const HttpResult board =
      http_get(ts.port(), "/api/leaderboard?mode=" + mode_name + "&preset=" + std::string(preset) +
                              "&seed=" + seed);
  ASSERT_EQ(board.status, 200u) << board.body;
  const json lb = board.json_body();
  ASSERT_EQ(lb["total"], 1) << lb;
  EXPECT_EQ(lb["entries"][0]["game_id"], game_id);
  EXPECT_EQ(lb["entries"][0]["score"], local->score());
  EXPECT_EQ(lb["entries"][0]["move_count"], local->move_count());
}

// Every preset of `mode`, each played ranked to its end by one player.
void play_every_preset(game::Mode mode, const std::string& player, std::uint32_t first_rng_seed) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  c.hello(player);
  std::uint32_t rng_seed = first_rng_seed;
  for (const game::Preset& p : game::presets(mode)) {
    play_ranked_preset(ts, c, mode, p.name, rng_seed++);
  }
}

TEST(PlayModes, EverySameGamePresetToTheEnd) {
  play_every_preset(game::Mode::same, "same-player", 1);
}

TEST(PlayModes, EveryMatch3PresetToTheEnd) {
  play_every_preset(game::Mode::match3, "match3-player", 11);
}

TEST(PlayModes, EveryHiddenPresetToTheEnd) {
  play_every_preset(game::Mode::hidden, "hidden-player", 21);
}

TEST(PlayModes, GameWithoutSeedUsesTheSeedTheServerReports) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  c.hello("seedless");
  for (const auto& [mode, preset] : first_presets()) {
    const json view = start_game(c, {{"mode", game::to_string(mode)}, {"preset", preset}});
    ASSERT_TRUE(view.is_object());
    ASSERT_TRUE(view["seed"].is_string());
    const std::string seed = view["seed"];
    EXPECT_FALSE(seed.empty());
    EXPECT_EQ(view["ranked"], true);
    auto local = make_local(preset_setup(mode, preset, seed));
    EXPECT_EQ(view, expected_view(*local, view["game_id"], view));
    std::mt19937 rng(99);
    for (int i = 0; i < 10 && !local->over(); ++i) {
      play_move(c, view["game_id"], *local, pick_move(*local, rng));
    }
  }
}

// A practice game: starts it with `request`, builds the local game from
// `setup` and the reported seed, plays to the end and checks its record.
void play_practice(TestServer& ts, WsClient& c, json request, game::GameSetup setup,
                   std::uint32_t rng_seed) {
  SCOPED_TRACE(request.dump());
  const json view = start_game(c, request);
  ASSERT_TRUE(view.is_object());
  const std::string game_id = view["game_id"];
  EXPECT_EQ(view["ranked"], false);
  setup.seed = view["seed"];
  auto local = make_local(setup);
  ASSERT_TRUE(local);
  EXPECT_EQ(view, expected_view(*local, game_id, view));
  const std::vector<int> start_cells(local->board().cells().begin(), local->board().cells().end());
  const std::vector<int> start_visible = local->visible_board();

  std::mt19937 rng(rng_seed);
  play_to_end(c, game_id, *local, rng);
  ASSERT_FALSE(::testing::Test::HasFailure());

  const HttpResult record = http_get(ts.port(), "/api/games/" + game_id);
  ASSERT_EQ(record.status, 200u) << record.body;
  const json r = record.json_body();
  EXPECT_EQ(r["ranked"], false);
  EXPECT_EQ(r["score"], local->score());
  EXPECT_EQ(r["width"], local->width());
  EXPECT_EQ(r["height"], local->height());
  EXPECT_EQ(r["colors"], local->colors());
  EXPECT_EQ(r["moves_left"], local->moves_left() ? json(*local->moves_left()) : json(nullptr));
  // The starting board; a hidden game's colours only when the player gave them.
  const bool shows_colours = setup.board || setup.mode != game::Mode::hidden;
  EXPECT_EQ(r["board"], board_rows(shows_colours ? start_cells : start_visible, local->width()));
  EXPECT_EQ(r["moves"].size(), static_cast<std::size_t>(local->move_count()));
  const HttpResult verify = http_get(ts.port(), "/api/games/" + game_id + "/verify");
  EXPECT_EQ(verify.json_body(), json({{"valid", true}, {"score", local->score()}}));
}

TEST(PlayModes, PracticeGamesOfEveryModeToTheEnd) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  c.hello("practice");

  game::GameSetup same_custom;
  same_custom.mode = game::Mode::same;
  same_custom.width = 7;
  same_custom.height = 5;
  same_custom.colors = 3;
  play_practice(ts, c, {{"mode", "same"}, {"width", 7}, {"height", 5}, {"colors", 3}}, same_custom,
                31);

  // Holes, and an empty column in the middle: gravity and compression first.
  const json same_rows = {{1, 0, 0, 2, 0, 1}, {0, 0, 0, 2, 0, 1}, {1, 1, 0, 3, 0, 2}};
  game::GameSetup same_board;
  same_board.mode = game::Mode::same;
  same_board.board = board_from_rows(same_rows);
  {
    const json view = start_game(c, {{"mode", "same"}, {"board", same_rows}, {"seed", "b"}});
    const json settled = {{0, 0, 2, 1, 0, 0}, {1, 0, 2, 1, 0, 0}, {1, 1, 3, 2, 0, 0}};
    EXPECT_EQ(view["board"], settled);
    EXPECT_EQ(view["colors"], 3);
    EXPECT_EQ(view["preset"], nullptr);
  }
  play_practice(ts, c, {{"mode", "same"}, {"board", same_rows}}, same_board, 32);

  game::GameSetup m3_custom;
  m3_custom.mode = game::Mode::match3;
  m3_custom.width = 6;
  m3_custom.height = 7;
  m3_custom.colors = 4;
  m3_custom.moves = 15;
  play_practice(ts, c,
                {{"mode", "match3"}, {"width", 6}, {"height", 7}, {"colors", 4}, {"moves", 15}},
                m3_custom, 33);

  game::GameSetup m3_no_refill = preset_setup(game::Mode::match3, "classic", "");
  m3_no_refill.refill = false;
  play_practice(ts, c,
                {{"mode", "match3"}, {"preset", "classic"}, {"refill", false}, {"seed", "nr"}},
                m3_no_refill, 34);

  // Runs and holes: stabilised before play (with refill, then without).
  const json m3_rows = {{1, 1, 1, 2, 3}, {2, 3, 0, 4, 1}, {3, 4, 2, 1, 2}, {4, 1, 3, 2, 4}};
  game::GameSetup m3_board;
  m3_board.mode = game::Mode::match3;
  m3_board.board = board_from_rows(m3_rows);
  m3_board.moves = 12;
  play_practice(ts, c, {{"mode", "match3"}, {"board", m3_rows}, {"moves", 12}}, m3_board, 35);
  m3_board.moves.reset();
  m3_board.refill = false;
  play_practice(ts, c, {{"mode", "match3"}, {"board", m3_rows}, {"refill", false}}, m3_board, 36);

  game::GameSetup hidden_custom;
  hidden_custom.mode = game::Mode::hidden;
  hidden_custom.width = 6;
  hidden_custom.height = 5;
  hidden_custom.colors = 3;
  hidden_custom.compress = true;
  play_practice(
      ts, c, {{"mode", "hidden"}, {"width", 6}, {"height", 5}, {"colors", 3}, {"compress", true}},
      hidden_custom, 37);

  game::GameSetup hidden_compress = preset_setup(game::Mode::hidden, "classic", "");
  hidden_compress.compress = true;
  play_practice(ts, c, {{"mode", "hidden"}, {"preset", "classic"}, {"compress", true}},
                hidden_compress, 38);

  const json hidden_rows = {{1, 0, 2, 2}, {1, 0, 3, 0}, {2, 1, 3, 1}};
  game::GameSetup hidden_board;
  hidden_board.mode = game::Mode::hidden;
  hidden_board.board = board_from_rows(hidden_rows);
  play_practice(ts, c, {{"mode", "hidden"}, {"board", hidden_rows}}, hidden_board, 39);

  // None of these is ranked: no leaderboard entry, no best, no counted game.
  const json lb =
      http_get(ts.port(), "/api/leaderboard?mode=match3&preset=classic&seed=nr").json_body();
  EXPECT_EQ(lb["total"], 0) << lb;
  EXPECT_TRUE(lb["entries"].empty());
  const json player = http_get(ts.port(), "/api/players/practice").json_body();
  EXPECT_EQ(player["games_played"], 0) << player;
  EXPECT_TRUE(player["bests"].empty()) << player;
}

TEST(PlayModes, PipelinedMovesAreAnsweredInOrder) {
  TestServer ts(unthrottled_config());
  WsClient c(ts.port());
  c.hello("pipeliner");
  for (const auto& [mode, preset] : first_presets()) {
    SCOPED_TRACE(preset);
    const json view =
        start_game(c, {{"mode", game::to_string(mode)}, {"preset", preset}, {"seed", "pipe"}});
    const std::string id = view["game_id"];
    auto local = make_local(preset_setup(mode, preset, "pipe"));
    // Every move is sent before any answer is read.
    std::mt19937 rng(8);
    std::vector<json> expected;
    for (int i = 0; i < 40 && !local->over(); ++i) {
      const game::Move m = pick_move(*local, rng);
      game::EventList events;
      ASSERT_TRUE(local->apply(m, events).ok());
      json message = move_message(id, m);
      message["id"] = 1000 + i;
      c.send(message);
      expected.push_back(protocol::events_reply(1000 + i, id, *local, events));
    }
    for (const json& e : expected) EXPECT_EQ(c.receive(), e);
    expect_resume_matches(c, id, *local);
  }
}

}  // namespace
}  // namespace tilecrush::testing
