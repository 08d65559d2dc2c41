// Resuming games on a new connection and after a server restart, for every
// mode, unfinished and finished; play continues exactly as the engine says.
#include <gtest/gtest.h>

#include <map>
#include <thread>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

struct Kept {
  std::string id;
  std::unique_ptr<game::Game> local;
};

Kept start_kept(WsClient& c, json request, game::GameSetup setup) {
  const json view = start_game(c, std::move(request));
  setup.seed = view.value("seed", "");
  Kept k{view.value("game_id", ""), make_local(setup)};
  if (k.local) {
    EXPECT_EQ(view, expected_view(*k.local, k.id, view));
  }
  return k;
}

std::int64_t resumed_elapsed(WsClient& c, const Kept& k) {
  const json reply = expect_resume_matches(c, k.id, *k.local);
  return reply["game"].value("elapsed_ms", std::int64_t{-1});
}

TEST(Resume, EveryModeOnANewConnectionAndAfterARestart) {
  TestServer ts(unthrottled_config());
  std::string token;
  std::map<std::string, Kept> games;
  std::mt19937 rng(2024);
  {
    WsClient c(ts.port());
    token = c.hello("resumer")["token"];

    games["same"] = start_kept(c, {{"mode", "same"}, {"preset", "normal"}, {"seed", "r"}},
                               preset_setup(game::Mode::same, "normal", "r"));
    Kept& same = games["same"];
    for (int i = 0; i < 6; ++i) play_move(c, same.id, *same.local, pick_move(*same.local, rng));
    ASSERT_TRUE(same.local->undo().ok());  // the undone move leaves the list
    EXPECT_EQ(c.request({{"type", "undo"}, {"game_id", same.id}})["type"], "game");

    games["match3"] = start_kept(c, {{"mode", "match3"}, {"preset", "big"}, {"seed", "r"}},
                                 preset_setup(game::Mode::match3, "big", "r"));
    Kept& m3 = games["match3"];
    for (int i = 0; i < 6; ++i) play_move(c, m3.id, *m3.local, pick_move(*m3.local, rng));

    // Practice match-3 with an undo: the generator state must come back too.
    game::GameSetup practice;
    practice.mode = game::Mode::match3;
    practice.width = 8;
    practice.height = 6;
    practice.colors = 4;
    games["practice"] =
        start_kept(c, {{"mode", "match3"}, {"width", 8}, {"height", 6}, {"colors", 4}}, practice);
    Kept& pr = games["practice"];
    for (int i = 0; i < 4; ++i) play_move(c, pr.id, *pr.local, pick_move(*pr.local, rng));
    ASSERT_TRUE(pr.local->undo().ok());
    EXPECT_EQ(c.request({{"type", "undo"}, {"game_id", pr.id}})["type"], "game");

    // Hidden, with a selection in progress at the restart.
    games["hidden"] = start_kept(c, {{"mode", "hidden"}, {"preset", "large"}, {"seed", "r"}},
                                 preset_setup(game::Mode::hidden, "large", "r"));
    Kept& hid = games["hidden"];
    EXPECT_EQ(resumed_elapsed(c, hid), 0);  // the timer starts at the first move
    play_move(c, hid.id, *hid.local, {game::MoveKind::peek, {0, 0}, {}});
    for (int i = 0; i < 40 && hid.local->selected().empty(); ++i) {
      play_move(c, hid.id, *hid.local, pick_move(*hid.local, rng));
    }

    // Finished games: cleared (hidden custom board), resigned (match3), no moves.
    game::GameSetup tiny;
    tiny.mode = game::Mode::hidden;
    tiny.board = board_from_rows(json{{1, 1}, {2, 2}});
    games["hidden-done"] = start_kept(c, {{"mode", "hidden"}, {"board", {{1, 1}, {2, 2}}}}, tiny);
    Kept& hd = games["hidden-done"];
    play_move(c, hd.id, *hd.local, {game::MoveKind::select, {0, 0}, {}});
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (const game::Point p : {game::Point{1, 0}, game::Point{0, 1}, game::Point{1, 1}}) {
      play_move(c, hd.id, *hd.local, {game::MoveKind::select, p, {}});
    }
    EXPECT_EQ(hd.local->over_reason(), game::OverReason::cleared);

    games["resigned"] = start_kept(c, {{"mode", "match3"}, {"preset", "crush"}, {"seed", "r"}},
                                   preset_setup(game::Mode::match3, "crush", "r"));
    Kept& rs = games["resigned"];
    play_move(c, rs.id, *rs.local, pick_move(*rs.local, rng));
    game::EventList events;
    ASSERT_TRUE(rs.local->resign(events).ok());
    const json resign = c.request({{"type", "resign"}, {"game_id", rs.id}});
    EXPECT_EQ(resign, protocol::events_reply(resign["id"], rs.id, *rs.local, events));

    games["same-done"] = start_kept(c, {{"mode", "same"}, {"preset", "easy"}, {"seed", "r"}},
                                    preset_setup(game::Mode::same, "easy", "r"));
    Kept& sd = games["same-done"];
    play_to_end(c, sd.id, *sd.local, rng);
  }
  ASSERT_FALSE(::testing::Test::HasFailure());

  std::int64_t hidden_elapsed = 0;
  std::int64_t finished_elapsed = 0;
  {
    WsClient c(ts.port());
    ASSERT_EQ(c.hello("resumer", token)["type"], "welcome");
    for (auto& [name, k] : games) {
      SCOPED_TRACE(name + " on a new connection");
      expect_resume_matches(c, k.id, *k.local);
    }
    hidden_elapsed = resumed_elapsed(c, games["hidden"]);
    finished_elapsed = resumed_elapsed(c, games["hidden-done"]);
    EXPECT_GT(hidden_elapsed, 0);
    EXPECT_GE(finished_elapsed, 20);
  }

  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ts.restart();

  WsClient c(ts.port());
  ASSERT_EQ(c.hello("resumer", token)["type"], "welcome");
  for (auto& [name, k] : games) {
    SCOPED_TRACE(name + " after a restart");
    expect_resume_matches(c, k.id, *k.local);
  }
  // The hidden timer ran on across the restart; a finished one stands still.
  EXPECT_GE(resumed_elapsed(c, games["hidden"]), hidden_elapsed + 150);
  EXPECT_EQ(resumed_elapsed(c, games["hidden-done"]), finished_elapsed);

  // Play continues exactly as the engine says (match-3 spawns included).
  for (const char* name : {"same", "match3", "practice", "hidden"}) {
    SCOPED_TRACE(std::string(name) + " played after the restart");
    Kept& k = games[name];
    for (int i = 0; i < 8 && !k.local->over(); ++i) {
      play_move(c, k.id, *k.local, pick_move(*k.local, rng));
    }
  }
  // Undo reaches back over the restart.
  Kept& same = games["same"];
  if (!same.local->over()) {
    ASSERT_TRUE(same.local->undo().ok());
    const json undone = c.request({{"type", "undo"}, {"game_id", same.id}});
    ASSERT_EQ(undone["type"], "game") << undone;
    EXPECT_EQ(undone["game"], expected_view(*same.local, same.id, undone["game"]));
  }
  // Finished games stay finished.
  for (const char* name : {"hidden-done", "resigned", "same-done"}) {
    EXPECT_TRUE(
        is_error(c.request({{"type", "resign"}, {"game_id", games[name].id}}), "not_allowed"))
        << name;
  }
  // And their records are complete.
  const json record = http_get(ts.port(), "/api/games/" + games["resigned"].id).json_body();
  EXPECT_EQ(record["score"], games["resigned"].local->score()) << record;
  // A match-3 game on a casual keyed board: its moves stay unpublished.
  EXPECT_TRUE(record["moves"].is_null()) << record;
  const json same_record = http_get(ts.port(), "/api/games/" + games["same-done"].id).json_body();
  EXPECT_EQ(same_record["moves"].size(),
            static_cast<std::size_t>(games["same-done"].local->move_count()));
}

TEST(Resume, AResumedGameAcceptsMovesFromBothConnections) {
  TestServer ts(unthrottled_config());
  WsClient a(ts.port());
  const std::string token = a.hello("two-tabs")["token"];
  WsClient b(ts.port());
  ASSERT_EQ(b.hello("two-tabs", token)["type"], "welcome");
  Kept k = start_kept(a, {{"mode", "same"}, {"preset", "classic"}, {"seed", "tabs"}},
                      preset_setup(game::Mode::same, "classic", "tabs"));
  std::mt19937 rng(7);
  for (int i = 0; i < 10 && !k.local->over(); ++i) {
    play_move(i % 2 ? a : b, k.id, *k.local, pick_move(*k.local, rng));
  }
  expect_resume_matches(a, k.id, *k.local);
  expect_resume_matches(b, k.id, *k.local);
}

// A restart while moves are in flight: every answered move survives, the
// answers that were sent form a prefix of the moves, and the connection is
// closed with 1001 (going away).
TEST(Resume, ARestartWithMovesInFlightKeepsEveryAnsweredMove) {
  TestServer ts(unthrottled_config());
  auto c = std::make_unique<WsClient>(ts.port());
  const std::string token = c->hello("in-flight")["token"];
  const json view = start_game(*c, {{"mode", "match3"}, {"preset", "big"}, {"seed", "flight"}});
  const std::string id = view["game_id"];
  auto local = make_local(preset_setup(game::Mode::match3, "big", "flight"));
  std::vector<std::string> hashes{hash_of(*local)};
  std::vector<json> expected;
  std::mt19937 rng(12);
  for (int i = 0; i < 40 && !local->over(); ++i) {
    const game::Move m = pick_move(*local, rng);
    game::EventList events;
    ASSERT_TRUE(local->apply(m, events).ok());
    json message = move_message(id, m);
    message["id"] = i;
    c->send(message);
    expected.push_back(protocol::events_reply(i, id, *local, events));
    hashes.push_back(hash_of(*local));
  }
  std::vector<json> answers;
  std::optional<int> close_code;
  std::thread reader([&] {
    try {
      for (;;) answers.push_back(c->receive());
    } catch (const std::exception&) {
      close_code = c->wait_close();
    }
  });
  ts.restart();
  reader.join();
  EXPECT_EQ(close_code, 1001);
  ASSERT_LE(answers.size(), expected.size());
  for (std::size_t i = 0; i < answers.size(); ++i) EXPECT_EQ(answers[i], expected[i]);

  c = std::make_unique<WsClient>(ts.port());
  ASSERT_EQ(c->hello("in-flight", token)["type"], "welcome");
  const json resumed = c->request({{"type", "resume"}, {"game_id", id}});
  const auto count = resumed["game"]["move_count"].get<std::size_t>();
  EXPECT_GE(count, answers.size()) << "an answered move was lost";
  ASSERT_LT(count, hashes.size());
  EXPECT_EQ(resumed["game"]["state_hash"], hashes[count]);
}

// One game open in two tabs or devices of its player: a move or undo sent
// with the moves its sender saw (`move_count`) is refused as stale once the
// other one has moved the game on, and changes nothing; after a resume it
// is played. Without `move_count` a move is played on the game as it stands.
TEST(Resume, AMoveMadeOnAViewTheGameHasLeftIsStaleAndChangesNothing) {
  TestServer ts(unthrottled_config());
  WsClient a(ts.port());
  const std::string token = a.hello("twotabs")["token"];
  WsClient b(ts.port());
  b.hello("twotabs", token);
  Kept k = start_kept(a, {{"mode", "same"}, {"preset", "normal"}, {"seed", "tabs"}},
                      preset_setup(game::Mode::same, "normal", "tabs"));
  ASSERT_TRUE(k.local);
  std::mt19937 rng(7);
  expect_resume_matches(b, k.id, *k.local);  // b sees the game at 0 moves

  // a moves, naming what it saw.
  const game::Move first = pick_move(*k.local, rng);
  game::EventList events;
  ASSERT_TRUE(k.local->apply(first, events).ok());
  json message = move_message(k.id, first);
  message["move_count"] = 0;
  const json played = a.request(message);
  EXPECT_EQ(played, protocol::events_reply(played["id"], k.id, *k.local, events));

  // b's move and undo, made on the board of 0 moves: refused, nothing changed.
  json stale = move_message(k.id, pick_move(*k.local, rng));
  stale["move_count"] = 0;
  const json refused = b.request(stale);
  EXPECT_TRUE(is_error(refused, "stale")) << refused;
  EXPECT_EQ(refused["message"], "the game has moved on since your view of it: resume it to see it");
  EXPECT_TRUE(
      is_error(b.request({{"type", "undo"}, {"game_id", k.id}, {"move_count", 2}}), "stale"));
  expect_resume_matches(b, k.id, *k.local);

  // After its resume b names 1 and plays; undo names 2 and takes it back.
  const game::Move second = pick_move(*k.local, rng);
  events.clear();
  ASSERT_TRUE(k.local->apply(second, events).ok());
  message = move_message(k.id, second);
  message["move_count"] = 1;
  const json next = b.request(message);
  EXPECT_EQ(next, protocol::events_reply(next["id"], k.id, *k.local, events));
  ASSERT_TRUE(k.local->undo().ok());
  EXPECT_EQ(b.request({{"type", "undo"}, {"game_id", k.id}, {"move_count", 2}})["type"], "game");
  expect_resume_matches(a, k.id, *k.local);

  // A move_count that is no count is bad_request; none at all plays as before.
  message["move_count"] = -1;
  EXPECT_TRUE(is_error(a.request(message), "bad_request"));
  message["move_count"] = "1";
  EXPECT_TRUE(is_error(a.request(message), "bad_request"));
  message.erase("move_count");
  events.clear();
  ASSERT_TRUE(k.local->apply(second, events).ok());
  const json plain = a.request(message);
  EXPECT_EQ(plain, protocol::events_reply(plain["id"], k.id, *k.local, events));
}

}  // namespace
}  // namespace tilecrush::testing
