// The HTTP API's bodies (http_bodies.hpp, competition_bodies.hpp): the
// exact text of each, since the server sends these bytes as they are.
#include "tilecrush/protocol/http_bodies.hpp"

#include <gtest/gtest.h>

#include "tilecrush/protocol/competition_bodies.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::protocol {
namespace {

const game::Move kClick{game::MoveKind::click, {3, 9}, {}};
const game::Move kSwap{game::MoveKind::swap, {1, 2}, {2, 2}};
const game::Move kPeek{game::MoveKind::peek, {0, 11}, {}};

TEST(HttpBodies, Moves) {
  EXPECT_EQ(dump(move_json(kClick)), R"(["click",3,9])");
  EXPECT_EQ(dump(move_json(kSwap)), R"(["swap",1,2,2,2])");
  EXPECT_EQ(dump(moves_json({kPeek, kClick})), R"([["peek",0,11],["click",3,9]])");
  EXPECT_EQ(dump(moves_json({})), "[]");
}

TEST(HttpBodies, Health) {
  EXPECT_EQ(dump(health_body({.version = "0.1.0", .uptime_s = 42})),
            R"({"status":"ok","uptime_s":42,"version":"0.1.0"})");
}

DailyBoard daily_board(const char* date, std::optional<std::string> key) {
  return {.mode = game::Mode::hidden,
          .preset = "classic",
          .seed = date,
          .competition = std::string("daily-") + date + "-hidden-classic",
          .commitment = "c0ffee",
          .opens_at = std::string(date) + "T00:00:00.000Z",
          .closes_at = std::string(date) + "T23:59:59.999Z",
          .key = std::move(key)};
}

TEST(HttpBodies, Daily) {
  const DailyBoards today{.date = "2026-11-24", .boards = {daily_board("2026-11-24", {})}};
  const DailyBoards tomorrow{.date = "2026-11-25", .boards = {}};
  EXPECT_EQ(dump(daily_body(today, 52200, tomorrow)),
            R"({"boards":[{"closes_at":"2026-11-24T23:59:59.999Z","commitment":"c0ffee",)"
            R"("competition":"daily-2026-11-24-hidden-classic","key":null,"mode":"hidden",)"
            R"("opens_at":"2026-11-24T00:00:00.000Z","preset":"classic","seed":"2026-11-24"}],)"
            R"("date":"2026-11-24","resets_in_s":52200,)"
            R"("tomorrow":{"boards":[],"date":"2026-11-25"}})");
}

TEST(HttpBodies, DailyOfOneDate) {
  const DailyBoards day{.date = "2026-11-23", .boards = {daily_board("2026-11-23", "97fb")}};
  EXPECT_EQ(dump(daily_date_body(day)),
            R"({"boards":[{"closes_at":"2026-11-23T23:59:59.999Z","commitment":"c0ffee",)"
            R"("competition":"daily-2026-11-23-hidden-classic","key":"97fb","mode":"hidden",)"
            R"("opens_at":"2026-11-23T00:00:00.000Z","preset":"classic","seed":"2026-11-23"}],)"
            R"("date":"2026-11-23"})");
}

LeaderboardPage page_of(std::optional<std::string> competition) {
  return {.mode = game::Mode::same,
          .preset = "classic",
          .seed = "spring",
          .competition = std::move(competition),
          .total = 7,
          .entries = {{.rank = 1,
                       .player = "Zoé",
                       .score = 1892,
                       .move_count = 208,
                       .duration_ms = 412305,
                       .attempts = 2,
                       .game_id = "b7e2",
                       .finished_at = "2026-11-23T19:26:51.204Z"}}};
}

TEST(HttpBodies, LeaderboardPage) {
  EXPECT_EQ(dump(leaderboard_body(page_of(std::nullopt))),
            R"({"entries":[{"attempts":2,"duration_ms":412305,"finished_at":)"
            R"("2026-11-23T19:26:51.204Z","game_id":"b7e2","move_count":208,"player":"Zoé",)"
            R"("rank":1,"score":1892}],"mode":"same","preset":"classic","seed":"spring",)"
            R"("total":7})");
}

TEST(HttpBodies, CompetitionLeaderboardPage) {
  LeaderboardPage page = page_of("h2vd8rxq4nez");
  page.entries.clear();
  page.total = 0;
  EXPECT_EQ(dump(leaderboard_body(page)),
            R"({"competition":"h2vd8rxq4nez","entries":[],"mode":"same","preset":"classic",)"
            R"("seed":"spring","total":0})");
}

TEST(HttpBodies, Player) {
  PlayerProfile player{
      .name = "Ada", .created_at = "2026-11-22T07:31:38.123Z", .games_played = 3, .bests = {}};
  EXPECT_EQ(dump(player_body(player)),
            R"({"bests":[],"created_at":"2026-11-22T07:31:38.123Z","games_played":3,)"
            R"("name":"Ada","streaks":[]})");
  player.bests = {
      {.mode = game::Mode::match3, .preset = "crush", .seed = "s1", .score = 900, .game_id = "g1"}};
  player.streaks = {
      {.mode = game::Mode::hidden, .current = 0, .best = 4, .last_day = "2026-11-20"}};
  EXPECT_EQ(dump(player_body(player)),
            R"({"bests":[{"competition":null,"game_id":"g1","mode":"match3",)"
            R"("moves_published_at":null,"preset":"crush","score":900,)"
            R"("seed":"s1"}],"created_at":"2026-11-22T07:31:38.123Z","games_played":3,)"
            R"("name":"Ada","streaks":[{"best":4,"current":0,"last_day":"2026-11-20",)"
            R"("mode":"hidden"}]})");
  // A competition's best, and one made in an unlisted competition: no seed,
  // no game.
  player.bests = {{.mode = game::Mode::same,
                   .preset = "easy",
                   .seed = "2026-11-24",
                   .score = 12,
                   .game_id = "g2",
                   .competition = "daily-2026-11-24-same-easy",
                   .moves_published_at = "2026-11-25T00:00:00.000Z"},
                  {.mode = game::Mode::hidden, .preset = "classic", .score = 7}};
  EXPECT_EQ(dump(player_body(player)),
            R"({"bests":[{"competition":"daily-2026-11-24-same-easy","game_id":"g2",)"
            R"("mode":"same","moves_published_at":"2026-11-25T00:00:00.000Z","preset":"easy",)"
            R"("score":12,"seed":"2026-11-24"},)"
            R"({"competition":null,"game_id":null,"mode":"hidden","moves_published_at":null,)"
            R"("preset":"classic","score":7,"seed":null}],)"
            R"("created_at":"2026-11-22T07:31:38.123Z","games_played":3,"name":"Ada",)"
            R"("streaks":[{"best":4,"current":0,"last_day":"2026-11-20","mode":"hidden"}]})");
}

TEST(HttpBodies, FinishedGameMovesNotPublished) {
  const FinishedGame finished{.game_id = "9e41",
                              .player = "Zoé",
                              .mode = game::Mode::hidden,
                              .preset = "classic",
                              .seed = "2026-11-24",
                              .ranked = true,
                              .rules_version = 2,
                              .competition = "daily-2026-11-24-hidden-classic",
                              .moves_published_at = "2026-11-25T00:00:00.000Z",
                              .moves = std::nullopt,
                              .score = 885,
                              .duration_ms = 214870,
                              .finished_at = "2026-11-24T09:41:12.408Z"};
  EXPECT_EQ(dump(finished_game_body(finished)),
            R"({"competition":"daily-2026-11-24-hidden-classic","duration_ms":214870,)"
            R"("finished_at":"2026-11-24T09:41:12.408Z","game_id":"9e41","mode":"hidden",)"
            R"("moves":null,"moves_published_at":"2026-11-25T00:00:00.000Z","player":"Zoé",)"
            R"("preset":"classic","ranked":true,"rules_version":2,"score":885,)"
            R"("seed":"2026-11-24"})");
}

TEST(HttpBodies, FinishedPracticeGame) {
  // A custom Same Game with its starting board, 3 x 2. The rest is left to
  // FinishedGame's defaults, as the answer below shows: mode same, no preset
  // (null), unranked, no competition, duration 0, no move limit (moves_left
  // null).
  const FinishedGame finished{
      .game_id = "p1",
      .player = "Bo",
      .seed = "x",
      .rules_version = 1,
      .moves = std::vector<game::Move>{kClick},
      .score = 4,
      .finished_at = "2026-11-24T09:41:12.408Z",
      .practice =
          PracticeStart{.width = 3, .height = 2, .colors = 2, .cells = {0, 1, 0, -1, 1, 1}}};
  EXPECT_EQ(dump(finished_game_body(finished)),
            R"({"board":[[0,1,0],[-1,1,1]],"colors":2,"competition":null,"duration_ms":0,)"
            R"("finished_at":"2026-11-24T09:41:12.408Z","game_id":"p1","height":2,"mode":"same",)"
            R"("moves":[["click",3,9]],"moves_left":null,"moves_published_at":null,"player":"Bo",)"
            R"("preset":null,"ranked":false,"rules_version":1,"score":4,"seed":"x","width":3})");
  FinishedGame limited = finished;
  limited.practice->moves_left = 5;
  EXPECT_NE(dump(finished_game_body(limited)).find(R"("moves_left":5,)"), std::string::npos);
}

TEST(HttpBodies, Verify) {
  EXPECT_EQ(dump(verify_body(true, 885)), R"({"score":885,"valid":true})");
  EXPECT_EQ(dump(verify_body(false, std::nullopt)), R"({"score":null,"valid":false})");
}

CompetitionView upcoming() {
  return {.id = "k7qm3xw9tbfp",
          .name = "Friday night match-3",
          .mode = game::Mode::match3,
          .preset = "classic",
          .seed = "k7qm3xw9tbfp",
          .daily = false,
          .opens_at = "2026-11-27T18:00:00.000Z",
          .closes_at = "2026-11-27T20:00:00.000Z",
          .state = "upcoming",
          .opens_in_s = 289200,
          .closes_in_s = 296400,
          .attempts = 3,
          .first_counts = false,
          .unlisted = true,
          .organiser = "lyon-club",
          .commitment = "b1f4",
          .key = std::nullopt};
}

constexpr const char* kUpcomingText =
    R"({"attempts":3,"closes_at":"2026-11-27T20:00:00.000Z","closes_in_s":296400,)"
    R"("commitment":"b1f4","counts":"best","daily":false,"id":"k7qm3xw9tbfp","key":null,)"
    R"("mode":"match3","name":"Friday night match-3","opens_at":"2026-11-27T18:00:00.000Z",)"
    R"("opens_in_s":289200,"organiser":"lyon-club","preset":"classic","rules_version":2,)"
    R"("seed":"k7qm3xw9tbfp","state":"upcoming","unlisted":true})";

// A closed daily: unlimited attempts, the first counting, no organiser, the key.
CompetitionView closed_daily() {
  CompetitionView c = upcoming();
  c.daily = true;
  c.state = "closed";
  c.opens_in_s = 0;
  c.closes_in_s = 0;
  c.attempts = std::nullopt;
  c.first_counts = true;
  c.unlisted = false;
  c.organiser = std::nullopt;
  c.key = "9868";
  return c;
}

constexpr const char* kClosedDailyText =
    R"({"attempts":null,"closes_at":"2026-11-27T20:00:00.000Z","closes_in_s":0,)"
    R"("commitment":"b1f4","counts":"first","daily":true,"id":"k7qm3xw9tbfp","key":"9868",)"
    R"("mode":"match3","name":"Friday night match-3","opens_at":"2026-11-27T18:00:00.000Z",)"
    R"("opens_in_s":0,"organiser":null,"preset":"classic","rules_version":2,)"
    R"("seed":"k7qm3xw9tbfp","state":"closed","unlisted":false})";

TEST(CompetitionBodies, Competition) {
  EXPECT_EQ(dump(competition_json(upcoming())), kUpcomingText);
  EXPECT_EQ(dump(competition_json(closed_daily())), kClosedDailyText);
  EXPECT_EQ(dump(competition_body(upcoming())), kUpcomingText);
}

TEST(CompetitionBodies, CompetitionWithAPlayersAttempts) {
  // Keys in order: the two added come right after `attempts`.
  auto with = [](std::string text, const char* added) {
    return text.insert(text.find(R"(,"closes_at")"), added);
  };
  EXPECT_EQ(dump(competition_body(upcoming(), 1)),
            with(kUpcomingText, R"(,"attempts_left":2,"attempts_used":1)"));
  // Never below 0 at the limit.
  EXPECT_EQ(dump(competition_body(upcoming(), 5)),
            with(kUpcomingText, R"(,"attempts_left":0,"attempts_used":5)"));
  EXPECT_EQ(dump(competition_body(closed_daily(), 0)),
            with(kClosedDailyText, R"(,"attempts_left":null,"attempts_used":0)"));
  EXPECT_EQ(dump(competition_body(upcoming(), 1)).substr(0, 52),
            R"({"attempts":3,"attempts_left":2,"attempts_used":1,"c)");
}

TEST(CompetitionBodies, Listing) {
  EXPECT_EQ(dump(competitions_body({})), R"({"competitions":[]})");
  EXPECT_EQ(dump(competitions_body({upcoming(), closed_daily()})),
            std::string(R"({"competitions":[)") + kUpcomingText + "," + kClosedDailyText + "]}");
}

TEST(CompetitionBodies, AnOrganisersOwnList) {
  EXPECT_EQ(dump(organiser_competitions_body("lyon-club", 0, {})),
            R"({"competitions":[],"organiser":"lyon-club","total":0})");
  // A page of two out of five; the operator's list has no organiser name.
  EXPECT_EQ(dump(organiser_competitions_body("lyon-club", 5, {upcoming(), upcoming()})),
            std::string(R"({"competitions":[)") + kUpcomingText + "," + kUpcomingText +
                R"(],"organiser":"lyon-club","total":5})");
  EXPECT_EQ(
      dump(organiser_competitions_body(std::nullopt, 1, {closed_daily()})),
      std::string(R"({"competitions":[)") + kClosedDailyText + R"(],"organiser":null,"total":1})");
}

std::vector<ResultEntry> results() {
  // A table: one entry a row, each field where a reader looks for it.
  // clang-format off
  return {
      {.rank = 1, .player = "=Ada", .score = 1892, .move_count = 208, .duration_ms = 412305,
       .finished_at = "2026-11-23T19:26:51.204Z", .player_id = 4, .game_id = "b7e2",
       .moves = std::vector<game::Move>{kPeek, kSwap}, .attempts_used = 1},
      {.rank = 2, .player = "Bo \"B\"", .score = 868, .move_count = 122, .duration_ms = 198400,
       .finished_at = "2026-11-23T20:58:03.917Z", .player_id = 17, .game_id = "0f5c",
       .flags = {"replay_failed"}, .attempts_used = 3},
      {.rank = std::nullopt, .player = "Max", .score = 1950, .move_count = 150,
       .duration_ms = 301777, .finished_at = "2026-11-23T19:59:00.000Z", .player_id = 9,
       .game_id = "5d0a",
       .moves = std::vector<game::Move>{}, .flags = {"replay_failed", "disqualified"},
       .reason = "shared colours", .attempts_used = 2}};
  // clang-format on
}

TEST(CompetitionBodies, Results) {
  EXPECT_EQ(dump(results_body(closed_daily(), {})),
            std::string(R"({"competition":)") + kClosedDailyText + R"(,"entries":[]})");
  EXPECT_EQ(dump(results_body(closed_daily(), results())),
            std::string(R"({"competition":)") + kClosedDailyText +
                R"(,"entries":[)"
                R"({"attempts_used":1,"duration_ms":412305,)"
                R"("finished_at":"2026-11-23T19:26:51.204Z","flags":[],"game_id":"b7e2",)"
                R"("move_count":208,"moves":[["peek",0,11],["swap",1,2,2,2]],"player":"=Ada",)"
                R"("player_id":4,"rank":1,"reason":null,"score":1892},)"
                R"({"attempts_used":3,"duration_ms":198400,)"
                R"("finished_at":"2026-11-23T20:58:03.917Z","flags":["replay_failed"],)"
                R"("game_id":"0f5c","move_count":122,"moves":null,"player":"Bo \"B\"",)"
                R"("player_id":17,"rank":2,"reason":null,"score":868},)"
                R"({"attempts_used":2,"duration_ms":301777,)"
                R"("finished_at":"2026-11-23T19:59:00.000Z",)"
                R"("flags":["replay_failed","disqualified"],)"
                R"("game_id":"5d0a","move_count":150,"moves":[],"player":"Max","player_id":9,)"
                R"("rank":null,"reason":"shared colours","score":1950}]})");
}

TEST(CompetitionBodies, ResultsCsv) {
  // The first eight columns as they always were, the new ones after them.
  const std::string header =
      "rank,player,score,move_count,duration_ms,game_id,moves,flags,"
      "finished_at,player_id,attempts_used,reason\n";
  EXPECT_EQ(results_csv({}), header);
  std::vector<ResultEntry> entries = results();
  entries[2].reason = "=HYPERLINK(\"x\")";
  EXPECT_EQ(results_csv(entries),
            header +
                R"(1,"'=Ada",1892,208,412305,"b7e2","[[""peek"",0,11],[""swap"",1,2,2,2]]","",)"
                R"("2026-11-23T19:26:51.204Z",4,1,"")"
                "\n"
                R"(2,"Bo ""B""",868,122,198400,"0f5c","","replay_failed",)"
                R"("2026-11-23T20:58:03.917Z",17,3,"")"
                "\n"
                R"(,"Max",1950,150,301777,"5d0a","[]","replay_failed;disqualified",)"
                R"csv("2026-11-23T19:59:00.000Z",9,2,"'=HYPERLINK(""x"")")csv"
                "\n");
}

TEST(CompetitionBodies, Disqualified) {
  EXPECT_EQ(dump(disqualified_body("h2vd8rxq4nez", "Max", "shared colours")),
            R"({"competition":"h2vd8rxq4nez","disqualified":true,"player":"Max",)"
            R"("reason":"shared colours"})");
}

}  // namespace
}  // namespace tilecrush::protocol
