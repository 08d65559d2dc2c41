// Fair competitions: from everything public (the setup the player is told,
// the date, the API, the engine library, other players' games on the same
// open board) nobody predicts a ranked board's hidden colours or match-3
// refills better than chance. The server here draws its keys from the OS,
// as in production.
//
// A prediction is what a generator would deal: the guesses below are the
// ones a player who reads the code would try (the version 1 derivation from
// the public seed, keys made from public values). The same measurement with
// the key revealed after the close predicts every colour, which shows it
// measures what it claims.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "competition_test_util.hpp"
#include "match3_board.hpp"
#include "modes.hpp"
#include "tilecrush/game/rng.hpp"

namespace tilecrush::testing {
namespace {

struct Tally {
  long right = 0;
  long total = 0;
  double rate() const {
    return total ? static_cast<double>(right) / static_cast<double>(total) : 0;
  }
};

std::string material(const std::string& version, const json& view) {
  return "tilecrush/" + version + "/" + view["mode"].get<std::string>() + "/" +
         view["preset"].get<std::string>() + "/" + view["seed"].get<std::string>();
}

game::Rng keyed_guess(const game::BoardSecret& key, const json& view) {
  return game::Rng::keyed(
      game::hmac_sha256(std::span<const std::uint8_t>(key), material("v2", view)));
}

// The generators an attacker can build from public information alone.
std::map<std::string, game::Rng> guesses(const json& view) {
  std::map<std::string, game::Rng> out;
  out.emplace("v1 derivation of the public seed", game::Rng::from_material(material("v1", view)));
  out.emplace("all-zero key", keyed_guess(game::BoardSecret{}, view));
  out.emplace("key = SHA-256(seed)",
              keyed_guess(game::sha256(view["seed"].get<std::string>()), view));
  out.emplace("key = the commitment",
              keyed_guess(*game::digest_from_hex(view["commitment"].get<std::string>()), view));
  out.emplace("key = SHA-256(competition)",
              keyed_guess(game::sha256(view["competition"].get<std::string>()), view));
  return out;
}

// Hidden mode: the colours a generator deals, row by row.
std::vector<int> hidden_deal(game::Rng rng, int width, int height, int colors) {
  std::vector<int> cells;
  for (int i = 0; i < width * height; ++i) cells.push_back(rng.color(colors));
  return cells;
}

// Match-3: the colours a generator would refill with, in draw order, after
// dealing the board.
std::vector<int> match3_refills(game::Rng rng, int width, int height, int colors, std::size_t n) {
  game::match3::deal(width, height, colors, rng);
  std::vector<int> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(rng.color(colors));
  return out;
}

struct Observed {
  json view;  // the GameView of the game as it started
  int colors = 0;
  std::vector<int> cells;    // hidden: every colour, peeked
  std::vector<int> spawned;  // match-3: refill colours in event order
};

// Peeks every cell of a hidden board.
Observed observe_hidden(WsClient& ws, const json& view) {
  Observed o{view, view["colors"].get<int>(), {}, {}};
  const std::string id = view["game_id"];
  for (int y = 0; y < view["height"].get<int>(); ++y) {
    for (int x = 0; x < view["width"].get<int>(); ++x) {
      const json r = ws.request({{"type", "peek"}, {"game_id", id}, {"x", x}, {"y", y}});
      o.cells.push_back(r["events"][0]["color"].get<int>());
    }
  }
  return o;
}

// Plays legal swaps (found on the visible board) and records the refills.
Observed observe_match3(WsClient& ws, const json& view, int swaps) {
  Observed o{view, view["colors"].get<int>(), {}, {}};
  const std::string id = view["game_id"];
  json board = view["board"];
  for (int i = 0; i < swaps; ++i) {
    game::GameSetup visible;
    visible.mode = game::Mode::match3;
    visible.seed = "visible";
    visible.board = board_from_rows(board);
    auto local = game::create_game(visible).game;
    if (!local || local->over()) break;
    const auto legal = local->legal_moves();
    if (legal.empty()) break;
    const game::Move m = legal[static_cast<std::size_t>(i) % legal.size()];
    const json r = ws.request(move_message(id, m));
    if (r["type"] != "events") break;
    for (const json& e : r["events"]) {
      if (e["kind"] != "spawn") continue;
      for (const json& cell : e["cells"]) o.spawned.push_back(cell[2].get<int>());
    }
    if (r["over"].get<bool>()) break;
    board = ws.request({{"type", "resume"}, {"game_id", id}})["game"]["board"];
  }
  return o;
}

void score(const Observed& o, std::map<std::string, Tally>& tallies,
           const std::optional<game::BoardSecret>& revealed = std::nullopt) {
  auto rngs = guesses(o.view);
  if (revealed) rngs.clear(), rngs.emplace("the revealed key", keyed_guess(*revealed, o.view));
  const int w = o.view["width"], h = o.view["height"];
  for (auto& [name, rng] : rngs) {
    const std::vector<int> predicted = o.view["mode"] == "hidden"
                                           ? hidden_deal(rng, w, h, o.colors)
                                           : match3_refills(rng, w, h, o.colors, o.spawned.size());
    const std::vector<int>& truth = o.view["mode"] == "hidden" ? o.cells : o.spawned;
    for (std::size_t i = 0; i < truth.size(); ++i) {
      Tally& t = tallies[std::string(o.view["mode"]) + ": " + name];
      t.right += predicted[i] == truth[i];
      ++t.total;
    }
  }
}

TEST(Fairness, RankedAndDailyBoardsArePredictedNoBetterThanChance) {
  CompetitionServer cs(/*real_keys=*/true);
  std::map<std::string, Tally> tallies;
  std::vector<std::pair<Observed, std::string>> dailies;  // with their competition
  double chance_hidden = 0, chance_match3 = 0;
  long hidden_boards = 0, match3_boards = 0;
  WsClient ws(cs.port());
  ws.hello("prober");
  WsClient other(cs.port());
  other.hello("rival");
  for (int day = 0; day < 5; ++day) {
    // Today's dailies, a casual ranked board of the player's own label, and
    // an organiser's competition, in both secret-bearing modes.
    const json oc =
        cs.create(cs.ann(), {{"mode", day % 2 ? "hidden" : "match3"}, {"preset", "classic"}});
    for (const char* mode : {"hidden", "match3"}) {
      for (const char* preset : {"classic", day % 2 ? "large" : "big"}) {
        if (std::string(mode) == "hidden" && std::string(preset) == "big") continue;
        if (std::string(mode) == "match3" && std::string(preset) == "large") continue;
        std::vector<json> views;
        // A rival finishes a game on the daily board first: its record and
        // the results tell nothing while the board is open.
        const json rival = start_game(other, {{"mode", mode}, {"preset", preset}, {"daily", true}});
        other.request({{"type", "resign"}, {"game_id", rival["game_id"]}});
        const json record = cs.get("/api/games/" + rival["game_id"].get<std::string>()).json_body();
        EXPECT_TRUE(record["moves"].is_null()) << record;
        const json results =
            cs.get("/api/competitions/" + rival["competition"].get<std::string>() + "/results")
                .json_body();
        for (const json& e : results["entries"]) EXPECT_TRUE(e["moves"].is_null()) << e;
        EXPECT_TRUE(results["competition"]["key"].is_null());

        views.push_back(start_game(ws, {{"mode", mode}, {"preset", preset}, {"daily", true}}));
        views.push_back(start_game(
            ws,
            {{"mode", mode}, {"preset", preset}, {"seed", "2030-01-0" + std::to_string(day + 1)}}));
        for (const json& v : views) {
          json view = v;
          if (view["competition"].is_null()) view["competition"] = "";
          Observed o = std::string(mode) == "hidden" ? observe_hidden(ws, view)
                                                     : observe_match3(ws, view, 12);
          score(o, tallies);
          (std::string(mode) == "hidden" ? chance_hidden : chance_match3) += 1.0 / o.colors;
          ++(std::string(mode) == "hidden" ? hidden_boards : match3_boards);
          if (!v["competition"].is_null()) dailies.emplace_back(std::move(o), v["competition"]);
        }
      }
    }
    const json attempt = start_attempt(ws, oc["id"])["game"];
    Observed o =
        oc["mode"] == "hidden" ? observe_hidden(ws, attempt) : observe_match3(ws, attempt, 12);
    score(o, tallies);
    (oc["mode"] == "hidden" ? chance_hidden : chance_match3) += 1.0 / o.colors;
    ++(oc["mode"] == "hidden" ? hidden_boards : match3_boards);
    cs.advance_ms(86'400'000, false);
  }
  chance_hidden /= static_cast<double>(hidden_boards);
  chance_match3 /= static_cast<double>(match3_boards);
  for (const auto& [name, t] : tallies) {
    const double chance = name.starts_with("hidden") ? chance_hidden : chance_match3;
    std::printf("[ fairness ] %-50s %5ld / %5ld = %.3f (chance %.3f)\n", name.c_str(), t.right,
                t.total, t.rate(), chance);
    ASSERT_GT(t.total, 300) << name;
    // Chance plus a margin of about five standard deviations at this size.
    EXPECT_LT(t.rate(), chance + 0.06) << name;
  }

  // After the close the revealed key predicts every colour of those boards:
  // the measurement above would have seen any real prediction.
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  std::map<std::string, Tally> revealed;
  for (const auto& [o, competition] : dailies) {
    const json c = cs.get("/api/competitions/" + competition).json_body();
    ASSERT_TRUE(c["key"].is_string()) << c;
    score(o, revealed, game::digest_from_hex(c["key"].get<std::string>()));
  }
  for (const auto& [name, t] : revealed) {
    std::printf("[ fairness ] %-50s %5ld / %5ld = %.3f\n", name.c_str(), t.right, t.total,
                t.rate());
    EXPECT_EQ(t.right, t.total) << name;
  }
}

}  // namespace
}  // namespace tilecrush::testing
