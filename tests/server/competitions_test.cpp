// Organisers' competitions over real HTTP and WebSocket connections:
// authentication, validation, windows, attempt limits (the simultaneous last
// attempt included), first or best, unlisted competitions, and
// disqualification (docs/rules.md, "Competitions").
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <vector>

#include "competition_test_util.hpp"

namespace tilecrush::testing {
namespace {

TEST(Competitions, OnlyOrganisersCreateAndOnlyTheirOwnAreTheirsToManage) {
  CompetitionServer cs;
  const std::string bob = cs.add_organiser("bob");
  const json fields = {{"name", "Friday cup"},
                       {"mode", "match3"},
                       {"preset", "classic"},
                       {"opens_at", server::iso_time(cs.now())},
                       {"closes_at", server::iso_time(cs.now() + 3'600'000)}};
  EXPECT_EQ(cs.post("/api/competitions", fields, "").status, 401u);
  EXPECT_EQ(cs.post("/api/competitions", fields, "not-a-token").status, 401u);
  EXPECT_EQ(http_request(cs.port(), beast::http::verb::post, "/api/competitions", fields.dump(),
                         "Basic " + cs.ann())
                .status,
            401u);

  const json c = cs.create(cs.ann(), fields);
  ASSERT_TRUE(c.is_object());
  EXPECT_EQ(c["organiser"], "ann");
  EXPECT_EQ(c["state"], "open");
  EXPECT_EQ(c["id"].get<std::string>().size(), 12u);
  EXPECT_EQ(c["seed"], c["id"]);
  EXPECT_EQ(c["commitment"].get<std::string>().size(), 64u);
  EXPECT_TRUE(c["key"].is_null());
  EXPECT_EQ(c["rules_version"], 2);
  EXPECT_EQ(cs.get("/api/competitions/" + c["id"].get<std::string>()).json_body()["commitment"],
            c["commitment"]);

  // Bob may not disqualify in Ann's competition; nobody without a token may.
  const std::string dq = "/api/competitions/" + c["id"].get<std::string>() + "/disqualify";
  const json who = {{"player", "someone"}, {"reason", "test"}};
  EXPECT_EQ(cs.post(dq, who, bob).status, 403u);
  EXPECT_EQ(cs.post(dq, who, "").status, 401u);
  EXPECT_EQ(cs.post(dq, who, "wrong").status, 401u);
  // The operator manages every competition (here: no such player).
  EXPECT_EQ(cs.post(dq, who, kOperatorToken).status, 404u);
  // The operator may create one too.
  EXPECT_EQ(cs.post("/api/competitions", fields, kOperatorToken).status, 201u);
}

TEST(Competitions, EveryBadBodyIsAClear400AndCreatesNothing) {
  CompetitionServer cs;
  const json good = {{"name", "Cup"},
                     {"mode", "hidden"},
                     {"preset", "classic"},
                     {"opens_at", server::iso_time(cs.now() + 60'000)},
                     {"closes_at", server::iso_time(cs.now() + 120'000)}};
  const auto with = [&](const char* key, const json& value) {
    json body = good;
    body[key] = value;
    return body;
  };
  const std::vector<json> bad = {with("name", ""),
                                 with("name", std::string(65, 'x')),
                                 with("name", 7),
                                 with("name", "\u200B\u200B"),
                                 with("name", "  "),
                                 with("name", "Cup\u200B"),
                                 with("mode", "chess"),
                                 with("preset", "huge"),
                                 with("preset", "crush"),
                                 with("opens_at", "soon"),
                                 with("opens_at", "2030-01-01 10:00:00"),
                                 with("opens_at", server::iso_time(cs.now() - 3'600'000)),
                                 with("closes_at", server::iso_time(cs.now() + 30'000)),
                                 with("closes_at", server::iso_time(cs.now() + 400LL * 86'400'000)),
                                 with("attempts", 0),
                                 with("attempts", 101),
                                 with("attempts", "3"),
                                 with("attempts", 1.5),
                                 with("counts", "worst"),
                                 with("unlisted", "yes"),
                                 json::array(),
                                 json("text")};
  for (const json& body : bad) {
    const HttpResult r = cs.post("/api/competitions", body, cs.ann());
    EXPECT_EQ(r.status, 400u) << body << " -> " << r.body;
    EXPECT_EQ(r.json_body()["error"]["code"], "bad_request") << r.body;
  }
  const HttpResult not_json = http_request(cs.port(), beast::http::verb::post, "/api/competitions",
                                           "{\"name\":", "Bearer " + cs.ann());
  EXPECT_EQ(not_json.status, 400u);
  const json listed = cs.get("/api/competitions?state=upcoming").json_body();
  for (const json& c : listed["competitions"]) EXPECT_TRUE(c["daily"].get<bool>()) << c;
  EXPECT_EQ(cs.get("/api/competitions?state=sideways").status, 400u);
}

TEST(Competitions, AttemptsOnlyBetweenTheOpeningAndTheClose) {
  CompetitionServer cs;
  const json c = cs.create(cs.ann(), {{"mode", "hidden"}, {"preset", "classic"}}, 60'000, 60'000);
  const std::string id = c["id"];
  EXPECT_EQ(c["state"], "upcoming");
  EXPECT_EQ(c["opens_in_s"], 60);
  WsClient p(cs.port());
  p.hello("pia");
  EXPECT_TRUE(is_error(start_attempt(p, id), "not_allowed"));
  EXPECT_TRUE(is_error(start_attempt(p, "nosuchcompetition"), "not_found"));
  // A competition's board is its own: nothing else may be chosen with it.
  EXPECT_TRUE(is_error(p.request({{"type", "new_game"}, {"competition", id}, {"seed", "x"}}),
                       "bad_request"));

  cs.advance_ms(60'000, false);
  const json started = start_attempt(p, id);
  ASSERT_EQ(started["type"], "game") << started;
  const json view = started["game"];
  EXPECT_EQ(view["competition"], id);
  EXPECT_EQ(view["attempt"], 1);
  EXPECT_EQ(view["ranked"], true);
  EXPECT_EQ(view["commitment"], c["commitment"]);
  auto local = CompetitionServer::local_copy(c);
  EXPECT_EQ(view, expected_view(*local, view["game_id"], view));
  std::mt19937 rng(3);
  for (int i = 0; i < 3; ++i) play_move(p, view["game_id"], *local, pick_move(*local, rng));

  // The close: the running game ends at its score; no move is accepted.
  // From then on a new game there is practice (competition_close_test.cpp).
  cs.advance_ms(60'000);
  const json after = start_attempt(p, id);
  ASSERT_EQ(after["type"], "game") << after;
  EXPECT_EQ(after["game"]["ranked"], false);
  EXPECT_TRUE(after["game"]["attempt"].is_null());
  EXPECT_TRUE(
      is_error(p.request(move_message(view["game_id"], pick_move(*local, rng))), "not_allowed"));
  const json resumed = p.request({{"type", "resume"}, {"game_id", view["game_id"]}});
  EXPECT_EQ(resumed["game"]["over"], true) << resumed;
  EXPECT_EQ(resumed["game"]["score"], local->score());
  const json record = cs.get("/api/games/" + view["game_id"].get<std::string>()).json_body();
  EXPECT_EQ(record["score"], local->score()) << record;
  EXPECT_EQ(record["moves"].size(), 3u) << record;  // published now
  const json board = cs.get("/api/competitions/" + id + "/leaderboard").json_body();
  ASSERT_EQ(board["total"], 1) << board;
  EXPECT_EQ(board["entries"][0]["score"], local->score());
}

TEST(Competitions, AttemptLimitsCountAtTheStart) {
  CompetitionServer cs;
  const json c = cs.create(cs.ann(), {{"mode", "same"}, {"preset", "easy"}, {"attempts", 2}});
  const std::string id = c["id"];
  WsClient p(cs.port());
  const std::string token = p.hello("pia")["token"];
  EXPECT_EQ(cs.get("/api/competitions/" + id + "?player=pia").json_body()["attempts_left"], 2);
  const json first = start_attempt(p, id);
  ASSERT_EQ(first["type"], "game");
  EXPECT_EQ(first["game"]["attempt"], 1);
  // Abandoned, not finished: it still counts.
  const json second = start_attempt(p, id);
  ASSERT_EQ(second["type"], "game");
  EXPECT_EQ(second["game"]["attempt"], 2);
  EXPECT_TRUE(is_error(start_attempt(p, id), "not_allowed"));
  const json mine = cs.get("/api/competitions/" + id + "?player=pia").json_body();
  EXPECT_EQ(mine["attempts_used"], 2);
  EXPECT_EQ(mine["attempts_left"], 0);
  // A reconnect changes nothing.
  WsClient again(cs.port());
  again.hello("pia", token);
  EXPECT_TRUE(is_error(start_attempt(again, id), "not_allowed"));
}

TEST(Competitions, TwoConnectionsRacingForTheLastAttemptGetExactlyOneGame) {
  CompetitionServer cs;
  const json c = cs.create(cs.ann(), {{"mode", "match3"}, {"preset", "classic"}, {"attempts", 1}});
  const std::string id = c["id"];
  for (int round = 0; round < 12; ++round) {
    const std::string name = "racer" + std::to_string(round);
    WsClient a(cs.port());
    const std::string token = a.hello(name)["token"];
    WsClient b(cs.port());
    b.hello(name, token);
    // Both requests are on the wire before either is answered.
    a.send({{"type", "new_game"}, {"id", 1}, {"competition", id}});
    b.send({{"type", "new_game"}, {"id", 1}, {"competition", id}});
    const json ra = a.receive();
    const json rb = b.receive();
    const int games = (ra["type"] == "game") + (rb["type"] == "game");
    EXPECT_EQ(games, 1) << ra << "\n" << rb;
    EXPECT_TRUE(ra["type"] == "game" ? is_error(rb, "not_allowed") : is_error(ra, "not_allowed"));
  }
}

TEST(Competitions, FirstCountsKeepsTheFirstAttemptBestCountsTheBest) {
  CompetitionServer cs;
  for (const char* counts : {"first", "best"}) {
    SCOPED_TRACE(counts);
    const json c = cs.create(
        cs.ann(), {{"mode", "same"}, {"preset", "easy"}, {"counts", counts}, {"attempts", 3}});
    const std::string id = c["id"];
    EXPECT_EQ(c["counts"], counts);
    WsClient p(cs.port());
    p.hello(std::string("pia-") + counts);
    // Attempt 1: resigned at once (score 0). Attempt 2: played to the end.
    const json one = start_attempt(p, id)["game"];
    p.request({{"type", "resign"}, {"game_id", one["game_id"]}});
    const json two = start_attempt(p, id)["game"];
    EXPECT_EQ(two["ranked"], std::string(counts) == "best") << two;
    auto local = CompetitionServer::local_copy(c);
    std::mt19937 rng(5);
    play_to_end(p, two["game_id"], *local, rng);
    ASSERT_GT(local->score(), 0);
    const json board = cs.get("/api/competitions/" + id + "/leaderboard").json_body();
    ASSERT_EQ(board["total"], 1) << board;
    const bool first = std::string(counts) == "first";
    EXPECT_EQ(board["entries"][0]["score"], first ? 0 : local->score()) << board;
    EXPECT_EQ(board["entries"][0]["game_id"], first ? one["game_id"] : two["game_id"]);
  }
}

TEST(Competitions, UnlistedOnesAreReachedOnlyByTheirId) {
  CompetitionServer cs;
  const json hidden = cs.create(cs.ann(), {{"name", "Secret cup"}, {"unlisted", true}});
  const json listed = cs.create(cs.ann(), {{"name", "Open cup"}});
  const json all = cs.get("/api/competitions").json_body();
  bool saw_listed = false;
  for (const json& c : all["competitions"]) {
    EXPECT_NE(c["id"], hidden["id"]);
    saw_listed = saw_listed || c["id"] == listed["id"];
  }
  EXPECT_TRUE(saw_listed);
  const json direct = cs.get("/api/competitions/" + hidden["id"].get<std::string>()).json_body();
  EXPECT_EQ(direct["unlisted"], true);
  WsClient p(cs.port());
  p.hello("pia");
  EXPECT_EQ(start_attempt(p, hidden["id"])["type"], "game");
}

TEST(Competitions, ADisqualifiedEntryStaysInTheResultsOutOfTheRanking) {
  CompetitionServer cs;
  const json c = cs.create(cs.ann(), {{"mode", "same"}, {"preset", "easy"}});
  const std::string id = c["id"];
  std::map<std::string, std::int64_t> scores;
  std::map<std::string, std::string> tokens;
  for (const char* name : {"ada", "max"}) {
    WsClient p(cs.port());
    tokens[name] = p.hello(name)["token"];
    const json g = start_attempt(p, id)["game"];
    auto local = CompetitionServer::local_copy(c);
    std::mt19937 rng(name[0]);
    play_to_end(p, g["game_id"], *local, rng);
    scores[name] = local->score();
  }
  EXPECT_EQ(cs.get("/api/competitions/" + id + "/leaderboard").json_body()["total"], 2);
  const std::string dq = "/api/competitions/" + id + "/disqualify";
  EXPECT_EQ(cs.post(dq, {{"player", "max"}}, cs.ann()).status, 400u);  // a reason is required
  EXPECT_EQ(cs.post(dq, {{"player", "nobody"}, {"reason", "x"}}, cs.ann()).status, 404u);
  const HttpResult done = cs.post(dq, {{"player", "max"}, {"reason", "shared colours"}}, cs.ann());
  ASSERT_EQ(done.status, 200u) << done.body;
  const json board = cs.get("/api/competitions/" + id + "/leaderboard").json_body();
  ASSERT_EQ(board["total"], 1) << board;
  EXPECT_EQ(board["entries"][0]["player"], "ada");
  const json results = cs.get("/api/competitions/" + id + "/results").json_body();
  ASSERT_EQ(results["entries"].size(), 2u) << results;
  const json& out = results["entries"][1];
  EXPECT_EQ(out["player"], "max");
  EXPECT_TRUE(out["rank"].is_null());
  EXPECT_EQ(out["score"], scores["max"]);
  EXPECT_EQ(out["flags"], json::array({"disqualified"}));
  EXPECT_EQ(out["reason"], "shared colours");
  // A later game of max never ranks there again.
  WsClient p(cs.port());
  p.hello("max", tokens["max"]);
  const json again = start_attempt(p, id)["game"];
  p.request({{"type", "resign"}, {"game_id", again["game_id"]}});
  EXPECT_EQ(cs.get("/api/competitions/" + id + "/leaderboard").json_body()["total"], 1);
  const HttpResult csv = cs.get("/api/competitions/" + id + "/results?format=csv");
  EXPECT_NE(csv.content_type.find("text/csv"), std::string::npos);
  EXPECT_EQ(csv.body.rfind("rank,player,score,move_count,duration_ms,game_id,moves,flags,"
                           "finished_at,player_id,attempts_used,reason\n",
                           0),
            0u);
  EXPECT_NE(csv.body.find(",\"max\","), std::string::npos) << csv.body;
  EXPECT_NE(csv.body.find("\"disqualified\""), std::string::npos) << csv.body;
}

// GET /api/organiser/competitions: the token holder's own competitions,
// unlisted and closed ones included, newest first, page by page; nobody
// else's, and nothing without a known token.
TEST(Competitions, AnOrganiserListsTheirOwnCompetitionsAndNoOneElses) {
  CompetitionServer cs;
  const std::string bob = cs.add_organiser("bob");
  const std::string carl = cs.add_organiser("carl");
  auto mine = [&](const std::string& authorization, const std::string& query = "") {
    return http_request(cs.port(), beast::http::verb::get, "/api/organiser/competitions" + query,
                        "", authorization);
  };
  auto ids_of = [](const json& body) {
    std::vector<std::string> ids;
    for (const json& c : body["competitions"]) ids.push_back(c["id"]);
    return ids;
  };

  // Created a second apart: open, unlisted and upcoming, a short one that
  // will have closed, then bob's and the operator's.
  const json open = cs.create(cs.ann(), {{"name", "Open one"}});
  cs.advance_ms(1000, false);
  const json hidden =
      cs.create(cs.ann(), {{"name", "Unlisted one"}, {"unlisted", true}}, 86'400'000);
  cs.advance_ms(1000, false);
  const json brief = cs.create(cs.ann(), {{"name", "Short one"}, {"mode", "same"}}, 0, 60'000);
  cs.advance_ms(1000, false);
  const json bobs = cs.create(bob, {{"name", "Bob's"}});
  const json operators = cs.create(kOperatorToken, {{"name", "Operator's"}});
  ASSERT_TRUE(open.is_object() && hidden.is_object() && brief.is_object() && bobs.is_object() &&
              operators.is_object());
  cs.advance_ms(120'000);  // the short one closes

  const HttpResult r = mine("Bearer " + cs.ann());
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(r.cache_control, "no-store");
  const json body = r.json_body();
  EXPECT_EQ(body["organiser"], "ann");
  EXPECT_EQ(body["total"], 3);
  EXPECT_EQ(ids_of(body), (std::vector<std::string>{brief["id"], hidden["id"], open["id"]}));
  EXPECT_EQ(body["competitions"][0]["state"], "closed");
  EXPECT_EQ(body["competitions"][0]["key"].get<std::string>().size(), 64u);
  EXPECT_EQ(body["competitions"][1]["state"], "upcoming");
  EXPECT_EQ(body["competitions"][1]["unlisted"], true);
  EXPECT_EQ(body["competitions"][2]["state"], "open");
  EXPECT_EQ(body["competitions"][2]["name"], "Open one");
  // The unlisted one is in her list, never in the public one.
  const json listed = cs.get("/api/competitions").json_body();
  for (const json& c : listed["competitions"]) EXPECT_NE(c["id"], hidden["id"]);

  // Pages: the total stays, the order goes on.
  const json first = mine("Bearer " + cs.ann(), "?limit=2").json_body();
  EXPECT_EQ(first["total"], 3);
  EXPECT_EQ(ids_of(first), (std::vector<std::string>{brief["id"], hidden["id"]}));
  const json rest = mine("Bearer " + cs.ann(), "?limit=2&offset=2").json_body();
  EXPECT_EQ(ids_of(rest), (std::vector<std::string>{open["id"]}));
  EXPECT_TRUE(ids_of(mine("Bearer " + cs.ann(), "?offset=3").json_body()).empty());

  // Bob sees his only; the operator the one it created (no dailies);
  // carl, none.
  const json bob_list = mine("Bearer " + bob).json_body();
  EXPECT_EQ(bob_list["organiser"], "bob");
  EXPECT_EQ(ids_of(bob_list), (std::vector<std::string>{bobs["id"]}));
  const json op_list = mine(std::string("Bearer ") + kOperatorToken).json_body();
  EXPECT_TRUE(op_list["organiser"].is_null()) << op_list;
  EXPECT_EQ(op_list["total"], 1);
  EXPECT_EQ(ids_of(op_list), (std::vector<std::string>{operators["id"]}));
  const json carl_list = mine("Bearer " + carl).json_body();
  EXPECT_EQ(carl_list["total"], 0);
  EXPECT_TRUE(carl_list["competitions"].empty());

  // No known token: 401, before the parameters are looked at.
  for (const std::string& auth : {std::string(), std::string("Bearer wrong-token"),
                                  std::string("Basic ") + cs.ann(), std::string("Bearer ")}) {
    const HttpResult refused = mine(auth);
    EXPECT_EQ(refused.status, 401u) << auth;
    EXPECT_EQ(refused.json_body()["error"]["message"], "an organiser token is required");
    EXPECT_EQ(mine(auth, "?limit=0").status, 401u) << auth;
  }
  EXPECT_EQ(mine("Bearer " + cs.ann(), "?limit=0").status, 400u);
  EXPECT_EQ(mine("Bearer " + cs.ann(), "?limit=101").status, 400u);
  EXPECT_EQ(mine("Bearer " + cs.ann(), "?offset=-1").status, 400u);
  // Another method: 405.
  EXPECT_EQ(cs.post("/api/organiser/competitions", json::object(), cs.ann()).status, 405u);
}

}  // namespace
}  // namespace tilecrush::testing
