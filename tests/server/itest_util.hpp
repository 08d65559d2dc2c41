// Shared helpers of the integration tests: building the local engine game
// a server game is compared with, sending engine moves over the wire, and
// checking every answer against what the engine itself would say.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_server.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/views.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {

// Tests that play whole games send far more than 100 moves a second; the
// rate limit has its own tests (limits_test.cpp).
inline server::Config unthrottled_config() {
  server::Config c = TestServer::default_config();
  c.rate_per_second = 1e6;
  c.rate_burst = 1e6;
  return c;
}

// Each mode with its first preset, for the tests that play every mode once.
struct ModePreset {
  game::Mode mode;
  std::string preset;
};
inline std::vector<ModePreset> first_presets() {
  std::vector<ModePreset> out;
  for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
    out.push_back({mode, std::string(game::presets(mode)[0].name)});
  }
  return out;
}

inline game::GameSetup preset_setup(game::Mode mode, std::string preset, std::string seed) {
  game::GameSetup setup;
  setup.mode = mode;
  setup.preset = std::move(preset);
  setup.seed = std::move(seed);
  return setup;
}

inline std::unique_ptr<game::Game> make_local(const game::GameSetup& setup) {
  game::CreateResult created = game::create_game(with_test_key(setup));
  EXPECT_TRUE(created.game) << created.error;
  return std::move(created.game);
}

// Rows top first, as on the wire.
inline json board_rows(const std::vector<int>& cells, int width) {
  json rows = json::array();
  for (std::size_t i = 0; i < cells.size(); i += static_cast<std::size_t>(width)) {
    rows.push_back(std::vector<int>(cells.begin() + static_cast<std::ptrdiff_t>(i),
                                    cells.begin() + static_cast<std::ptrdiff_t>(i) + width));
  }
  return rows;
}

using protocol::board_from_rows;

inline std::string hash_of(const game::Game& g) {
  return game::hash_hex(g.state_hash());
}

// The wire message of an engine move.
inline json move_message(const std::string& game_id, const game::Move& m) {
  json out = {{"type", std::string(game::to_string(m.kind))}, {"game_id", game_id}};
  if (m.kind == game::MoveKind::swap) {
    out["a"] = {m.a.x, m.a.y};
    out["b"] = {m.b.x, m.b.y};
  } else {
    out["x"] = m.a.x;
    out["y"] = m.a.y;
  }
  return out;
}

// The GameView the server must send for `local` (elapsed_ms is taken from
// the server's view, since it depends on the clock).
inline json expected_view(const game::Game& local, const std::string& game_id, const json& view) {
  protocol::GameViewMeta meta;
  meta.game_id = game_id;
  if (view.contains("elapsed_ms") && view["elapsed_ms"].is_number_integer()) {
    meta.elapsed_ms = view["elapsed_ms"].get<std::int64_t>();
  }
  // A casual game is ranked exactly when its setup is; a competition game's
  // rank depends on its attempt, which the view reports.
  meta.ranked = local.setup().ranked();
  if (view.contains("competition") && view["competition"].is_string()) {
    meta.competition = view["competition"].get<std::string>();
    meta.ranked = view["ranked"].get<bool>();
  }
  if (view.contains("attempt") && view["attempt"].is_number_integer()) {
    meta.attempt = view["attempt"].get<std::int64_t>();
  }
  if (local.setup().board_key) meta.commitment = game::commitment(*local.setup().board_key);
  return protocol::game_view(local, meta);
}

// resume on `c` answers exactly the local game's view.
inline json expect_resume_matches(WsClient& c, const std::string& game_id,
                                  const game::Game& local) {
  const json reply = c.request({{"type", "resume"}, {"game_id", game_id}});
  EXPECT_EQ(reply["type"], "game") << reply;
  if (reply["type"] != "game") return reply;
  EXPECT_EQ(reply["game"], expected_view(local, game_id, reply["game"]));
  EXPECT_EQ(reply["game"]["state_hash"], hash_of(local));
  return reply;
}

// Applies `m` to the local game and sends it; the reply must be exactly the
// engine's events reply (events, score, move_count, over, state_hash).
inline json play_move(WsClient& c, const std::string& game_id, game::Game& local,
                      const game::Move& m) {
  game::EventList events;
  const game::Outcome outcome = local.apply(m, events);
  EXPECT_TRUE(outcome.ok()) << "local engine refused: " << outcome.reason;
  const json reply = c.request(move_message(game_id, m));
  EXPECT_EQ(reply, protocol::events_reply(reply["id"], game_id, local, events));
  return reply;
}

// A random legal move. Hidden mode mostly selects (which ends the game), with
// an occasional peek or unselect so those are played too.
inline game::Move pick_move(const game::Game& g, std::mt19937& rng) {
  const std::vector<game::Move> all = g.legal_moves();
  std::vector<game::Move> preferred;
  std::vector<game::Move> others;
  for (const auto& m : all) {
    (g.mode() != game::Mode::hidden || m.kind == game::MoveKind::select ? preferred : others)
        .push_back(m);
  }
  const bool use_others = preferred.empty() || (!others.empty() && rng() % 10 == 0);
  const auto& pool = use_others ? others : preferred;
  return pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)];
}

// Appends to `line` `n` moves from `g` after none of which the game is
// over, and returns true; false (and `line` as it was) when the board has
// no such line. A depth-first search over copies of `g`: each step tries
// pick_move's choice first, then the other legal moves in random order, so
// a board whose random play would run out of moves early (a match-3 board
// out of swaps, a Same Game board out of groups) still yields a game that
// is provably running after those n moves.
inline bool extend_keeping_open(const game::Game& g, int n, std::mt19937& rng,
                                std::vector<game::Move>& line) {
  if (n == 0) return true;
  std::vector<game::Move> order = g.legal_moves();
  if (order.empty()) return false;
  std::shuffle(order.begin(), order.end(), rng);
  std::iter_swap(order.begin(), std::find(order.begin(), order.end(), pick_move(g, rng)));
  for (const game::Move& m : order) {
    std::unique_ptr<game::Game> next = g.clone();
    game::EventList events;
    if (!next->apply(m, events).ok() || next->over()) continue;
    line.push_back(m);
    if (extend_keeping_open(*next, n - 1, rng, line)) return true;
    line.pop_back();
  }
  return false;
}

// Plays random legal moves until the game is over (or `max_moves`), checking
// every reply. Returns the last reply.
inline json play_to_end(WsClient& c, const std::string& game_id, game::Game& local,
                        std::mt19937& rng, int max_moves = 3000) {
  json last;
  for (int i = 0; i < max_moves && !local.over(); ++i) {
    last = play_move(c, game_id, local, pick_move(local, rng));
    if (::testing::Test::HasFailure()) return last;
  }
  EXPECT_TRUE(local.over()) << "game not over after " << max_moves << " moves";
  EXPECT_EQ(last["over"], true);
  EXPECT_EQ(last["events"].back()["kind"], "game_over") << last;
  return last;
}

// Starts a game with `request` (a new_game message) and returns its view.
inline json start_game(WsClient& c, json request) {
  request["type"] = "new_game";
  const json reply = c.request(request);
  EXPECT_EQ(reply["type"], "game") << reply;
  return reply["type"] == "game" ? reply["game"] : json();
}

// True when `object` has each field of `fields` with that value (a
// missing field fails, also for an expected null); names every mismatch.
inline ::testing::AssertionResult has_fields(const json& object, const json& fields) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool ok = true;
  for (const auto& [key, value] : fields.items()) {
    if (!object.contains(key)) {
      ok = false;
      result << key << " missing; ";
    } else if (object.at(key) != value) {
      ok = false;
      result << key << " is " << object.at(key) << ", not " << value << "; ";
    }
  }
  if (ok) return result;
  return ::testing::AssertionFailure() << result.message() << "in " << object;
}

// True when a reply is an error with the given code that echoes `id`.
inline ::testing::AssertionResult is_error(const json& reply, const std::string& code) {
  if (reply.value("type", "") == "error" && reply.value("code", "") == code &&
      reply.contains("message") && reply["message"].is_string()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "expected error " << code << ", got " << reply;
}

inline std::string today_utc() {
  const auto day = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd(day);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

}  // namespace tilecrush::testing
