// What a competition keeps to itself until its close, and what its export
// settles (issue 23; docs/rules.md, "When commitments and keys are
// published", "Ranking"; protocol.md, "Leaderboards and games",
// "GET /api/competitions/{id}/results"):
// - no move list of a game on a competition board, in any mode (Same Game
//   and the dailies included), reaches anyone but its own player before the
//   close, over HTTP or WebSocket; everyone gets it from the close on;
// - an unlisted competition's id appears only where its link leads;
// - the results export carries every field of the ranking, and
//   tilecrush_verify checks the order from it alone.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

std::string auth(const std::string& token) {
  return "Bearer " + token;
}

json moves_json(const game::Game& g) {
  json out = json::array();
  for (const game::Move& m : g.moves()) {
    json move = json::array({std::string(game::to_string(m.kind)), m.a.x, m.a.y});
    if (m.kind == game::MoveKind::swap) {
      move.push_back(m.b.x);
      move.push_back(m.b.y);
    }
    out.push_back(std::move(move));
  }
  return out;
}

// A game played on a competition's board, with what its player knows.
struct Played {
  std::string game_id;
  json moves;  // as the server spells them
  std::int64_t move_count = 0;
};

Played play_attempt(WsClient& ws, const json& competition, std::uint32_t seed, int max_moves) {
  const json g = start_attempt(ws, competition["id"])["game"];
  auto local = CompetitionServer::local_copy(competition);
  std::mt19937 rng(seed);
  for (int i = 0; i < max_moves && !local->over(); ++i) {
    play_move(ws, g["game_id"], *local, pick_move(*local, rng));
  }
  if (!local->over()) ws.request({{"type", "resign"}, {"game_id", g["game_id"]}});
  return {g["game_id"], moves_json(*local), local->move_count()};
}

TEST(Secrets, NoMoveListOfACompetitionGameLeavesBeforeTheCloseInAnyMode) {
  CompetitionServer cs;
  for (const char* mode : {"same", "match3", "hidden"}) {
    SCOPED_TRACE(mode);
    // Two attempts, the first counts: the second is an unranked game on the
    // same board, as secret as the first.
    const json c = cs.create(
        cs.ann(), {{"mode", mode}, {"preset", "classic"}, {"attempts", 2}, {"counts", "first"}}, 0,
        600'000);
    const std::string id = c["id"];
    WsClient owner(cs.port());
    const std::string token = owner.hello(std::string("owner-") + mode)["token"];
    WsClient other(cs.port());
    const std::string other_token = other.hello(std::string("other-") + mode)["token"];
    const Played ranked = play_attempt(owner, c, 5, 12);
    const Played practice = play_attempt(owner, c, 6, 3);
    ASSERT_GT(ranked.move_count, 0);

    for (const Played* p : {&ranked, &practice}) {
      const std::string path = "/api/games/" + p->game_id;
      // Nobody but the player: no header, another player's token, an
      // organiser's or the operator's token, a malformed header.
      for (const std::string& header :
           {std::string(), auth(other_token), auth(cs.ann()), auth(kOperatorToken),
            std::string("Bearer "), "Basic " + token, token}) {
        const HttpResult r = cs.get_as(path, header);
        ASSERT_EQ(r.status, 200u) << r.body;
        const json record = r.json_body();
        EXPECT_TRUE(record["moves"].is_null()) << header << " " << record;
        EXPECT_EQ(record["moves_published_at"], c["closes_at"]) << record;
        EXPECT_EQ(record["competition"], id);
      }
      // The player, with their token: their own moves.
      const json mine = cs.get_as(path, auth(token)).json_body();
      EXPECT_EQ(mine["moves"], p->moves) << mine;
      EXPECT_EQ(mine["moves_published_at"], c["closes_at"]);
      // verify answers without moves.
      const json v = cs.get(path + "/verify").json_body();
      EXPECT_EQ(v["valid"], true) << v;
      // Over WebSocket another player cannot resume it.
      EXPECT_TRUE(
          is_error(other.request({{"type", "resume"}, {"game_id", p->game_id}}), "unauthorized"));
    }
    // The export, JSON and CSV, the leaderboards and the player page.
    const json open = cs.get("/api/competitions/" + id + "/results").json_body();
    ASSERT_EQ(open["entries"].size(), 1u) << open;
    EXPECT_TRUE(open["entries"][0]["moves"].is_null());
    const std::string csv = cs.get("/api/competitions/" + id + "/results?format=csv").body;
    EXPECT_EQ(csv.find("[["), std::string::npos) << csv;
    for (const std::string& page :
         {"/api/competitions/" + id + "/leaderboard",
          "/api/competitions/" + id + "/leaderboard/around?player=owner-" + std::string(mode)}) {
      const json lb = cs.get(page).json_body();
      ASSERT_EQ(lb["entries"].size(), 1u) << lb;
      EXPECT_FALSE(lb["entries"][0].contains("moves")) << lb;
    }
    const json profile = cs.get("/api/players/owner-" + std::string(mode)).json_body();
    ASSERT_EQ(profile["bests"].size(), 1u) << profile;
    EXPECT_EQ(profile["bests"][0]["competition"], id);
    EXPECT_EQ(profile["bests"][0]["moves_published_at"], c["closes_at"]);
    EXPECT_EQ(profile["bests"][0]["game_id"], ranked.game_id);

    // From the close on, everyone gets them.
    cs.advance_ms(600'000);
    for (const Played* p : {&ranked, &practice}) {
      const json record = cs.get("/api/games/" + p->game_id).json_body();
      EXPECT_EQ(record["moves"], p->moves) << record;
      EXPECT_EQ(record["moves_published_at"], c["closes_at"]);
    }
    const json closed = cs.get("/api/competitions/" + id + "/results").json_body();
    EXPECT_EQ(closed["entries"][0]["moves"], ranked.moves);
  }
}

TEST(Secrets, TheDailySameGameKeepsItsMovesUntilMidnight) {
  CompetitionServer cs;
  WsClient ws(cs.port());
  const std::string token = ws.hello("daily-player")["token"];
  const json g = start_game(ws, {{"mode", "same"}, {"preset", "easy"}, {"daily", true}});
  const std::string daily_id = g["competition"];
  const json c = cs.get("/api/competitions/" + daily_id).json_body();
  auto local = CompetitionServer::local_copy(c);
  std::mt19937 rng(3);
  play_to_end(ws, g["game_id"], *local, rng);
  const std::string path = "/api/games/" + g["game_id"].get<std::string>();
  const json open = cs.get(path).json_body();
  EXPECT_TRUE(open["moves"].is_null()) << open;
  EXPECT_EQ(open["moves_published_at"], c["closes_at"]);
  EXPECT_EQ(cs.get_as(path, auth(token)).json_body()["moves"], moves_json(*local));
  // The web client's replay link waits for this.
  const json best = cs.get("/api/players/daily-player").json_body()["bests"][0];
  EXPECT_EQ(best["competition"], daily_id);
  EXPECT_EQ(best["moves_published_at"], c["closes_at"]);
  cs.advance_ms(86'400'000);
  EXPECT_EQ(cs.get(path).json_body()["moves"], moves_json(*local));
}

TEST(Secrets, CasualBoardsKeepTheirRule) {
  CompetitionServer cs;
  WsClient ws(cs.port());
  const std::string token = ws.hello("casual")["token"];
  for (const char* mode : {"same", "match3", "hidden"}) {
    SCOPED_TRACE(mode);
    const json g = start_game(ws, {{"mode", mode}, {"preset", "classic"}, {"seed", "casual-1"}});
    auto local = make_local(preset_setup(*game::parse_mode(mode), "classic", "casual-1"));
    std::mt19937 rng(9);
    for (int i = 0; i < 6 && !local->over(); ++i)
      play_move(ws, g["game_id"], *local, pick_move(*local, rng));
    ws.request({{"type", "resign"}, {"game_id", g["game_id"]}});
    const std::string path = "/api/games/" + g["game_id"].get<std::string>();
    const json record = cs.get(path).json_body();
    EXPECT_TRUE(record["moves_published_at"].is_null());
    if (std::string(mode) == "same") {
      EXPECT_EQ(record["moves"], moves_json(*local)) << record;
    } else {
      // Never published; the player still gets their own.
      EXPECT_TRUE(record["moves"].is_null()) << record;
      EXPECT_EQ(cs.get_as(path, auth(token)).json_body()["moves"], moves_json(*local));
    }
  }
}

TEST(Secrets, AnUnlistedCompetitionsIdAppearsOnlyBehindItsLink) {
  CompetitionServer cs;
  const json c =
      cs.create(cs.ann(), {{"mode", "same"}, {"preset", "easy"}, {"unlisted", true}}, 0, 600'000);
  const std::string id = c["id"];
  EXPECT_EQ(c["seed"], id);
  WsClient ws(cs.port());
  ws.hello("quiet");
  const Played played = play_attempt(ws, c, 4, 400);
  // A casual game of another player, for the pages that list games.
  WsClient other(cs.port());
  other.hello("loud");
  const json casual = start_game(other, {{"mode", "same"}, {"preset", "easy"}, {"seed", "open"}});
  other.request({{"type", "click"}, {"game_id", casual["game_id"]}, {"x", 0}, {"y", 9}});
  other.request({{"type", "resign"}, {"game_id", casual["game_id"]}});

  auto public_pages = [&] {
    return std::vector<std::string>{
        "/api/players/quiet",
        "/api/players/loud",
        "/api/competitions",
        "/api/competitions?state=open",
        "/api/competitions?state=closed",
        "/api/daily",
        "/api/leaderboard?mode=same&preset=easy&seed=open",
        "/api/games/" + casual["game_id"].get<std::string>(),
    };
  };
  for (int closed = 0; closed < 2; ++closed) {
    SCOPED_TRACE(closed ? "closed" : "open");
    for (const std::string& page : public_pages()) {
      const HttpResult r = cs.get(page);
      EXPECT_EQ(r.status, 200u) << page << " " << r.body;
      EXPECT_EQ(r.body.find(id), std::string::npos) << page << " " << r.body;
      EXPECT_EQ(r.body.find(played.game_id), std::string::npos) << page << " " << r.body;
    }
    // The best is there, without its seed and its game.
    const json best = cs.get("/api/players/quiet").json_body()["bests"][0];
    EXPECT_TRUE(best["seed"].is_null()) << best;
    EXPECT_TRUE(best["game_id"].is_null()) << best;
    EXPECT_TRUE(best["competition"].is_null()) << best;
    EXPECT_TRUE(best["moves_published_at"].is_null()) << best;
    EXPECT_EQ(best["mode"], "same");
    EXPECT_EQ(best["preset"], "easy");
    // Behind its link: the competition, its leaderboard, and there the
    // game, whose record names the competition (whoever holds the game id
    // came from there, or played it).
    EXPECT_NE(cs.get("/api/competitions/" + id + "/leaderboard").body.find(played.game_id),
              std::string::npos);
    EXPECT_EQ(cs.get("/api/games/" + played.game_id).json_body()["competition"], id);
    if (!closed) cs.advance_ms(600'000);
  }
}

// Splits one CSV line of the export (quoted fields with "" inside).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  return out;
}

TEST(Secrets, TheExportCarriesEveryFieldOfTheRankingAndTheToolChecksTheOrder) {
  CompetitionServer cs;
  const json c =
      cs.create(cs.ann(), {{"mode", "same"}, {"preset", "easy"}, {"attempts", 3}}, 0, 600'000);
  const std::string id = c["id"];
  // Registered in this order: ids grow.
  std::map<std::string, std::unique_ptr<WsClient>> ws;
  std::map<std::string, std::int64_t> ids;
  for (const char* name : {"first", "second", "third", "cheat"}) {
    ws[name] = std::make_unique<WsClient>(cs.port());
    ids[name] = ws[name]->hello(name)["player"]["id"];
  }
  EXPECT_LT(ids["first"], ids["second"]);
  // The same game three times: equal scores and moves. "third" finishes a
  // second before the others, who finish at the same moment: the earlier
  // finish first, then the earlier registration.
  play_attempt(*ws["third"], c, 21, 400);
  cs.advance_ms(1000, false);
  const Played tie = play_attempt(*ws["second"], c, 21, 400);
  play_attempt(*ws["first"], c, 21, 400);
  // "first" spends another attempt, resigned at once.
  const json extra = start_attempt(*ws["first"], id)["game"];
  ws["first"]->request({{"type", "resign"}, {"game_id", extra["game_id"]}});
  play_attempt(*ws["cheat"], c, 22, 400);
  ASSERT_EQ(cs.post("/api/competitions/" + id + "/disqualify",
                    {{"player", "cheat"}, {"reason", "=1+1, a \"bot\""}}, cs.ann())
                .status,
            200u);

  const json results = cs.get("/api/competitions/" + id + "/results").json_body();
  const json& e = results["entries"];
  ASSERT_EQ(e.size(), 4u) << results;
  const std::vector<std::string> order = {"third", "first", "second", "cheat"};
  for (std::size_t i = 0; i < order.size(); ++i) {
    SCOPED_TRACE(order[i]);
    EXPECT_EQ(e[i]["player"], order[i]) << results;
    EXPECT_EQ(e[i]["player_id"], ids[order[i]]);
    EXPECT_EQ(e[i]["attempts_used"], order[i] == "first" ? 2 : 1);
    EXPECT_TRUE(e[i]["finished_at"].is_string());
    if (i < 3) {
      EXPECT_EQ(e[i]["rank"], i + 1);
      EXPECT_EQ(e[i]["score"], e[0]["score"]);
      EXPECT_EQ(e[i]["move_count"], tie.move_count);
      EXPECT_TRUE(e[i]["reason"].is_null());
    }
  }
  EXPECT_LT(e[0]["finished_at"].get<std::string>(), e[1]["finished_at"].get<std::string>());
  EXPECT_EQ(e[1]["finished_at"], e[2]["finished_at"]);
  EXPECT_TRUE(e[3]["rank"].is_null());
  EXPECT_EQ(e[3]["reason"], "=1+1, a \"bot\"");

  // The CSV: the old columns first, the new ones after, the same values.
  const std::string csv = cs.get("/api/competitions/" + id + "/results?format=csv").body;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line,
            "rank,player,score,move_count,duration_ms,game_id,moves,flags,finished_at,player_id,"
            "attempts_used,reason");
  for (std::size_t i = 0; i < e.size(); ++i) {
    ASSERT_TRUE(std::getline(lines, line));
    const auto f = csv_fields(line);
    ASSERT_EQ(f.size(), 12u) << line;
    EXPECT_EQ(f[1], e[i]["player"]) << line;
    EXPECT_EQ(f[8], e[i]["finished_at"]) << line;
    EXPECT_EQ(f[9], std::to_string(e[i]["player_id"].get<std::int64_t>())) << line;
    EXPECT_EQ(f[10], std::to_string(e[i]["attempts_used"].get<std::int64_t>())) << line;
    EXPECT_EQ(f[11], i == 3 ? "'=1+1, a \"bot\"" : "") << line;
  }

  // Closed: the tool checks the scores and the order from the export alone.
  cs.advance_ms(600'000);
  const json final_results = cs.get("/api/competitions/" + id + "/results").json_body();
  EXPECT_EQ(run_verify(cs.ts().dir(), final_results, "honest"), 0);
  json swapped = final_results;
  std::swap(swapped["entries"][1], swapped["entries"][2]);
  swapped["entries"][1]["rank"] = 2;
  swapped["entries"][2]["rank"] = 3;
  EXPECT_EQ(run_verify(cs.ts().dir(), swapped, "swapped"), 1);
}

}  // namespace
}  // namespace tilecrush::testing
