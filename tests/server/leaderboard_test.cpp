// Leaderboards over HTTP after ranked games finished through the server:
// order and ties (rules.md), attempts, paging, parameters, around-player and
// player bests.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <thread>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

// Each player keeps its own connection and token.
class LeaderboardTest : public ::testing::Test {
 protected:
  WsClient& player(const std::string& name) {
    auto it = clients_.find(name);
    if (it != clients_.end()) return *it->second;
    auto c = std::make_unique<WsClient>(ts_.port());
    EXPECT_EQ(c->hello(name)["type"], "welcome");
    return *clients_.emplace(name, std::move(c)).first->second;
  }

  // Starts a ranked game, plays `moves` (chosen by `choose`) and resigns.
  // Returns the game id and the final local game.
  std::pair<std::string, std::unique_ptr<game::Game>> finish(
      const std::string& name, game::Mode mode, const std::string& preset, const std::string& seed,
      const std::function<std::optional<game::Move>(const game::Game&, int)>& choose = {}) {
    WsClient& c = player(name);
    const json view =
        start_game(c, {{"mode", game::to_string(mode)}, {"preset", preset}, {"seed", seed}});
    std::string id = view.value("game_id", "");
    auto local = make_local(preset_setup(mode, preset, seed));
    for (int i = 0; choose; ++i) {
      const auto m = choose(*local, i);
      if (!m) break;
      play_move(c, id, *local, *m);
    }
    if (!local->over()) {
      game::EventList events;
      EXPECT_TRUE(local->resign(events).ok());
      const json reply = c.request({{"type", "resign"}, {"game_id", id}});
      EXPECT_EQ(reply, protocol::events_reply(reply["id"], id, *local, events));
    }
    // Finish times differ by a few milliseconds between players.
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
    return {id, std::move(local)};
  }

  json get(const std::string& target, unsigned status = 200) {
    const HttpResult r = http_get(ts_.port(), target);
    EXPECT_EQ(r.status, status) << target << " -> " << r.body;
    return r.json_body();
  }

  static std::vector<std::string> names(const json& page) {
    std::vector<std::string> out;
    for (const auto& e : page["entries"]) out.push_back(e["player"]);
    return out;
  }

  TestServer ts_;
  std::map<std::string, std::unique_ptr<WsClient>> clients_;
};

// Hint moves (the largest group) until n were played.
auto hints(int n) {
  return [n](const game::Game& g, int i) -> std::optional<game::Move> {
    game::Hint h;
    if (i >= n || !g.hint(h).ok()) return std::nullopt;
    return h.move;
  };
}

// One click on a group of exactly two (0 points).
std::optional<game::Move> pair_click(const game::Game& g, int i) {
  if (i > 0) return std::nullopt;
  for (const auto& m : g.legal_moves()) {
    game::Preview p;
    if (g.preview(m.a, p).ok() && p.cells.size() == 2) return m;
  }
  ADD_FAILURE() << "no group of two on the board";
  return std::nullopt;
}

TEST_F(LeaderboardTest, SameGameOrderTiesAttemptsAndPaging) {
  const auto mode = game::Mode::same;
  // zero-moves finishes first, but with a move more than the other zeros.
  const auto [pair_id, pair_game] = finish("zero-moves", mode, "easy", "lb", pair_click);
  EXPECT_EQ(pair_game->score(), 0);
  EXPECT_EQ(pair_game->move_count(), 1);
  const auto [first_id, first_game] = finish("zero-first", mode, "easy", "lb");
  finish("zero-later", mode, "easy", "lb");
  const auto [top_id, top_game] = finish("top", mode, "easy", "lb", hints(3));
  ASSERT_GT(top_game->score(), 0);
  // Second attempts: equal (later finish) and worse results keep the entry.
  finish("zero-first", mode, "easy", "lb");
  finish("top", mode, "easy", "lb");

  const json page = get("/api/leaderboard?mode=same&preset=easy&seed=lb");
  EXPECT_EQ(page["mode"], "same");
  EXPECT_EQ(page["preset"], "easy");
  EXPECT_EQ(page["seed"], "lb");
  EXPECT_EQ(page["total"], 4);
  EXPECT_EQ(names(page),
            (std::vector<std::string>{"top", "zero-first", "zero-later", "zero-moves"}));
  const json& top = page["entries"][0];
  EXPECT_EQ(top["rank"], 1);
  EXPECT_EQ(top["score"], top_game->score());
  EXPECT_EQ(top["move_count"], 3);
  EXPECT_EQ(top["attempts"], 2);
  EXPECT_EQ(top["game_id"], top_id);
  EXPECT_TRUE(top["finished_at"].is_string());
  EXPECT_GE(top["duration_ms"].get<std::int64_t>(), 0);
  EXPECT_EQ(page["entries"][1]["attempts"], 2);
  EXPECT_EQ(page["entries"][1]["game_id"], first_id);
  EXPECT_EQ(page["entries"][3]["game_id"], pair_id);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(page["entries"][i]["rank"], i + 1);

  const json p2 = get("/api/leaderboard?mode=same&preset=easy&seed=lb&limit=2&offset=1");
  EXPECT_EQ(p2["total"], 4);
  EXPECT_EQ(names(p2), (std::vector<std::string>{"zero-first", "zero-later"}));
  EXPECT_EQ(p2["entries"][0]["rank"], 2);
  const json p3 = get("/api/leaderboard?mode=same&preset=easy&seed=lb&limit=100&offset=3");
  EXPECT_EQ(names(p3), (std::vector<std::string>{"zero-moves"}));
  const json past = get("/api/leaderboard?mode=same&preset=easy&seed=lb&offset=4");
  EXPECT_EQ(past["total"], 4);
  EXPECT_TRUE(past["entries"].empty());
  const json other_seed = get("/api/leaderboard?mode=same&preset=easy&seed=nobody-played");
  EXPECT_EQ(other_seed["total"], 0);
  EXPECT_TRUE(other_seed["entries"].empty());

  // Around a player: radius, default radius, and players not on the board.
  const json around =
      get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=zero-later&radius=1");
  EXPECT_EQ(around["total"], 4);
  EXPECT_EQ(names(around), (std::vector<std::string>{"zero-first", "zero-later", "zero-moves"}));
  EXPECT_EQ(around["entries"][0]["rank"], 2);
  const json alone =
      get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=top&radius=0");
  EXPECT_EQ(names(alone), (std::vector<std::string>{"top"}));
  const json wide = get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=top");
  EXPECT_EQ(wide["entries"].size(), 4u);
  player("bystander");
  EXPECT_EQ(get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=bystander",
                404)["error"]["code"],
            "not_found");
  EXPECT_EQ(get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=ghost",
                404)["error"]["code"],
            "not_found");
  EXPECT_EQ(get("/api/leaderboard/around?mode=same&preset=easy&seed=other&player=top",
                404)["error"]["code"],
            "not_found");
  get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=top&radius=51", 400);
  get("/api/leaderboard/around?mode=same&preset=easy&seed=lb&player=top&radius=-1", 400);
  get("/api/leaderboard/around?mode=same&preset=easy&seed=lb", 400);
}

TEST_F(LeaderboardTest, HiddenTiesGoToTheShorterTime) {
  const auto mode = game::Mode::hidden;
  // slow: one peek, a long pause, resign (finishes first, with fewer moves).
  const auto [slow_id, slow] = finish("slow", mode, "classic", "lbh", [](const game::Game&, int i) {
    if (i == 1) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return i == 0 ? std::optional<game::Move>(game::Move{game::MoveKind::peek, {0, 0}, {}})
                  : std::nullopt;
  });
  // fast: peek, select, unselect at once: same score, more moves, less time.
  const auto [fast_id, fast] =
      finish("fast", mode, "classic", "lbh", [](const game::Game& g, int i) {
        if (i == 0) return std::optional<game::Move>(game::Move{game::MoveKind::peek, {0, 0}, {}});
        for (const auto& m : g.legal_moves()) {
          if (i == 1 && m.kind == game::MoveKind::select) return std::optional<game::Move>(m);
          if (i == 2 && m.kind == game::MoveKind::unselect) return std::optional<game::Move>(m);
        }
        return std::optional<game::Move>();
      });
  EXPECT_EQ(slow->score(), -1);
  EXPECT_EQ(fast->score(), -1);
  EXPECT_EQ(fast->move_count(), 3);
  finish("idle", mode, "classic", "lbh");  // no move at all: 0 points, first

  const json page = get("/api/leaderboard?mode=hidden&preset=classic&seed=lbh");
  EXPECT_EQ(names(page), (std::vector<std::string>{"idle", "fast", "slow"})) << page;
  EXPECT_GE(page["entries"][2]["duration_ms"].get<std::int64_t>(), 300);
  EXPECT_LT(page["entries"][1]["duration_ms"].get<std::int64_t>(),
            page["entries"][2]["duration_ms"].get<std::int64_t>());
  EXPECT_EQ(page["entries"][0]["duration_ms"], 0);
}

TEST_F(LeaderboardTest, BadParametersAre400) {
  const std::string base = "/api/leaderboard?mode=same&preset=easy&seed=x";
  for (const std::string& target :
       {base + "&limit=0", base + "&limit=101", base + "&offset=-1", base + "&limit=abc",
        base + "&limit=1.5", base + "&limit=1&limit=2",
        std::string("/api/leaderboard?preset=easy&seed=x"),
        std::string("/api/leaderboard?mode=same&seed=x"),
        std::string("/api/leaderboard?mode=same&preset=easy"),
        std::string("/api/leaderboard?mode=same&preset=nope&seed=x"),
        std::string("/api/leaderboard?mode=match3&preset=easy&seed=x"),
        std::string("/api/leaderboard?mode=chess&preset=easy&seed=x"),
        std::string("/api/leaderboard/around?mode=same&preset=nope&seed=x&player=a")}) {
    const json body = get(target, 400);
    EXPECT_EQ(body["error"]["code"], "bad_request") << target;
    EXPECT_TRUE(body["error"]["message"].is_string()) << target;
  }
  EXPECT_EQ(get(base + "&limit=1")["entries"].size(), 0u);
  EXPECT_EQ(get(base + "&limit=100&offset=0")["total"], 0);
  EXPECT_EQ(get(base + "&limit=")["total"], 0);  // empty is absent
}

TEST_F(LeaderboardTest, PlayerBestsAndGamesPlayed) {
  finish("best", game::Mode::same, "easy", "b0", hints(1));
  const auto [easy_id, easy] = finish("best", game::Mode::same, "easy", "b1", hints(8));
  finish("best", game::Mode::same, "easy", "b2");  // worse, other seed
  const auto [hid_id, hid] = finish("best", game::Mode::hidden, "large", "b1");
  // Practice games are not counted.
  WsClient& c = player("best");
  const json practice =
      start_game(c, {{"mode", "hidden"}, {"preset", "classic"}, {"compress", true}});
  EXPECT_EQ(practice["ranked"], false);
  c.request({{"type", "resign"}, {"game_id", practice["game_id"]}});
  const json custom = start_game(c, {{"mode", "same"}, {"width", 5}, {"height", 5}, {"colors", 2}});
  c.request({{"type", "resign"}, {"game_id", custom["game_id"]}});
  // An unfinished ranked game is not counted either.
  start_game(c, {{"mode", "match3"}, {"preset", "classic"}, {"seed", "b1"}});

  const json p = get("/api/players/best");
  EXPECT_EQ(p["name"], "best");
  EXPECT_TRUE(p["created_at"].is_string());
  EXPECT_EQ(p["games_played"], 4) << p;
  // b1's score beat b0's: the best moved to b1.
  ASSERT_GT(easy->score(),
            get("/api/leaderboard?mode=same&preset=easy&seed=b0")["entries"][0]["score"]
                .get<std::int64_t>());
  ASSERT_EQ(p["bests"].size(), 2u) << p;
  const json expected_same = {{"mode", "same"},
                              {"preset", "easy"},
                              {"seed", "b1"},
                              {"score", easy->score()},
                              {"game_id", easy_id},
                              {"competition", nullptr},
                              {"moves_published_at", nullptr}};
  const json expected_hidden = {{"mode", "hidden"},
                                {"preset", "large"},
                                {"seed", "b1"},
                                {"score", 0},
                                {"game_id", hid_id},
                                {"competition", nullptr},
                                {"moves_published_at", nullptr}};
  for (const json& b : p["bests"]) {
    EXPECT_TRUE(b == expected_same || b == expected_hidden) << b;
  }
  EXPECT_EQ(get("/api/leaderboard?mode=hidden&preset=classic&seed=" +
                practice["seed"].get<std::string>())["total"],
            0);
  EXPECT_EQ(get("/api/players/ghost", 404)["error"]["code"], "not_found");

  player("newcomer");
  const json fresh = get("/api/players/newcomer");
  EXPECT_EQ(fresh["games_played"], 0);
  EXPECT_TRUE(fresh["bests"].empty());
}

TEST_F(LeaderboardTest, ABetterLaterGameReplacesTheEntry) {
  finish("improver", game::Mode::match3, "classic", "again");
  finish("other", game::Mode::match3, "classic", "again");
  const auto [better_id, better] =
      finish("improver", game::Mode::match3, "classic", "again", hints(2));
  ASSERT_GT(better->score(), 0);
  const json page = get("/api/leaderboard?mode=match3&preset=classic&seed=again");
  EXPECT_EQ(names(page), (std::vector<std::string>{"improver", "other"}));
  EXPECT_EQ(page["entries"][0]["score"], better->score());
  EXPECT_EQ(page["entries"][0]["move_count"], 2);
  EXPECT_EQ(page["entries"][0]["attempts"], 2);
  EXPECT_EQ(page["entries"][0]["game_id"], better_id);
  EXPECT_EQ(page["entries"][1]["attempts"], 1);
}

TEST_F(LeaderboardTest, SeedsAndNamesAreFoundWhateverTheirCharacters) {
  const std::string name = "Zo\xc3\xa9 & Ada";
  const std::string seed = "run #1 & more+/?";
  const auto [id, g] = finish(name, game::Mode::same, "easy", seed);
  const std::string enc_seed = "run%20%231%20%26%20more%2B%2F%3F";
  const std::string enc_name = "Zo%C3%A9%20%26%20Ada";
  const json page = get("/api/leaderboard?mode=same&preset=easy&seed=" + enc_seed);
  EXPECT_EQ(page["seed"], seed);
  ASSERT_EQ(page["total"], 1) << page;
  EXPECT_EQ(page["entries"][0]["player"], name);
  // '+' is a space in a query.
  EXPECT_EQ(get("/api/leaderboard?mode=same&preset=easy&seed=run+%231+%26+more%2B%2F%3F")["total"],
            1);
  EXPECT_EQ(get("/api/leaderboard/around?mode=same&preset=easy&seed=" + enc_seed +
                "&player=" + enc_name)["entries"]
                .size(),
            1u);
  const json p = get("/api/players/" + enc_name);
  EXPECT_EQ(p["name"], name);
  EXPECT_EQ(p["games_played"], 1);
  EXPECT_EQ(get("/api/games/" + id)["seed"], seed);
}

// Pages carry the board's revision as their ETag: a copy is answered 304
// (no body) until any entry of the board changes, whatever the page.
TEST_F(LeaderboardTest, PagesAreRevalidatedByTheirETagUntilTheBoardChanges) {
  finish("ann", game::Mode::same, "easy", "etag", hints(3));
  const std::string page = "/api/leaderboard?mode=same&preset=easy&seed=etag";
  const std::string around = "/api/leaderboard/around?mode=same&preset=easy&seed=etag&player=ann";
  const HttpResult first = http_get(ts_.port(), page);
  ASSERT_EQ(first.status, 200u);
  EXPECT_EQ(first.cache_control, "public, max-age=2");
  ASSERT_TRUE(first.etag.starts_with("\"lb-")) << first.etag;
  EXPECT_EQ(http_get(ts_.port(), around).etag, first.etag);
  auto ask = [&](const std::string& target, const std::string& tags) {
    return http_request(ts_.port(), beast::http::verb::get, target, "", "", tags);
  };
  for (const std::string& tags :
       std::vector<std::string>{first.etag, "W/" + first.etag, "\"x\", " + first.etag, "*"}) {
    const HttpResult again = ask(page, tags);
    EXPECT_EQ(again.status, 304u) << tags;
    EXPECT_TRUE(again.body.empty());
    EXPECT_EQ(again.etag, first.etag);
    EXPECT_EQ(again.cache_control, "public, max-age=2");
    EXPECT_EQ(ask(around, tags).status, 304u) << tags;
  }
  EXPECT_EQ(ask(page, "\"lb-0-0-x\"").status, 200u);
  // Another board's page is another resource with another revision.
  EXPECT_EQ(ask("/api/leaderboard?mode=same&preset=easy&seed=other", first.etag).status, 200u);

  // A worse game only counts an attempt: still a change.
  finish("ann", game::Mode::same, "easy", "etag", pair_click);
  const HttpResult after_attempt = ask(page, first.etag);
  EXPECT_EQ(after_attempt.status, 200u);
  EXPECT_NE(after_attempt.etag, first.etag);
  EXPECT_EQ(after_attempt.json_body()["entries"][0]["attempts"], 2);
  finish("bob", game::Mode::same, "easy", "etag", hints(1));
  const HttpResult after_bob = ask(around, after_attempt.etag);
  EXPECT_EQ(after_bob.status, 200u);
  EXPECT_NE(after_bob.etag, after_attempt.etag);
  EXPECT_EQ(after_bob.json_body()["total"], 2);
  // Errors are never kept, and a player not on the board has no page to
  // be current, whatever the tags.
  const HttpResult unknown =
      ask("/api/leaderboard/around?mode=same&preset=easy&seed=etag&player=nobody", after_bob.etag);
  EXPECT_EQ(unknown.status, 404u);
  EXPECT_EQ(unknown.cache_control, "no-store");
  EXPECT_TRUE(unknown.etag.empty());
}

}  // namespace
}  // namespace tilecrush::testing
