// tilecrush_verify on bad input: bad arguments, files that are not an
// export, fields of the wrong type and malformed move lists are answered
// with a message and an exit code, never a crash.
#include <gtest/gtest.h>

#include <climits>
#include <sstream>
#include <string>

#include "verify.hpp"
#include "verify_test_util.hpp"

namespace tilecrush::verify::test {
namespace {

using game::Mode;

TEST_F(VerifyTool, BadArgumentsExit2AndHelpExits0) {
  const auto path = write("ok.json", export_for(board_setup(Mode::same)));
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               {"--frobnicate", path},
                                               {path, "--key"},
                                               {path, path},
                                               {path, "--key", "00", "--key", "00"},
                                               {(dir_ / "missing.json").string()},
                                               {dir_.string()}}) {
    const auto run = this->run(args);
    EXPECT_EQ(run.exit_code, 2) << ::testing::PrintToString(args) << "\n" << run.err;
    EXPECT_FALSE(run.err.empty());
  }
  const auto run = this->run({"--help"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out.rfind("usage: tilecrush_verify RESULTS.json [--key HEX]", 0), 0u) << run.out;
}

TEST_F(VerifyTool, FilesThatAreNotAnExportExit2) {
  const std::string good = export_for(board_setup(Mode::same)).dump();
  for (const std::string& text :
       {std::string(), std::string("not json"), good.substr(0, good.size() / 2), std::string("[]"),
        std::string("{}"), std::string("{\"competition\": {}, \"entries\": []}"),
        std::string("\xff\xfe{"), std::string(100000, '['),
        std::string(100000, '[') + std::string(100000, ']')}) {
    const auto run = this->run({write("bad.json", text)});
    EXPECT_EQ(run.exit_code, 2) << text.substr(0, 80) << "\n" << run.err;
  }
}

TEST_F(VerifyTool, DeepNestingIsRefusedBeforeParsing) {
  // Copying a json value recurses: a move nested 200000 deep must not reach it.
  const std::string good = export_for(board_setup(Mode::same)).dump();
  const std::string marker = "[\"click\",";
  const std::size_t at = good.find(marker);
  ASSERT_NE(at, std::string::npos);
  const std::string deep = good.substr(0, at) + std::string(200000, '[') +
                           std::string(200000, ']') + "," + good.substr(at);
  const auto run = this->run({write("deep.json", deep)});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("deeper than"), std::string::npos) << run.err;
  // Brackets inside strings do not count.
  json doc = json::parse(good);
  doc["entries"][0]["player"] = std::string(1000, '[') + "\"" + std::string(1000, '{');
  doc["entries"][0]["flags"] = json::array({"\\", "]]]]"});
  EXPECT_EQ(this->run({write("strings.json", doc)}).exit_code, 0);
}

TEST_F(VerifyTool, FieldsOfTheWrongTypeExit2) {
  const json good = export_for(board_setup(Mode::same));
  const auto big = json::parse("18446744073709551615");
  const std::vector<std::pair<std::string, json>> changes = {
      {"/entries", json::object()},
      {"/entries/0", json::array()},
      {"/entries/0/score", "1234"},
      {"/entries/0/score", 12.5},
      {"/entries/0/score", big},
      {"/entries/0/move_count", nullptr},
      {"/entries/0/rank", "1"},
      {"/entries/0/player", 7},
      {"/entries/0/game_id", nullptr},
      {"/entries/0/moves", "click 1 2"},
      {"/entries/0/flags", "disqualified"},
      {"/entries/0/flags", json::array({1})},
      {"/competition/mode", "chess"},
      {"/competition/mode", 1},
      {"/competition/preset", nullptr},
      {"/competition/seed", json::array()},
      {"/competition/rules_version", "2"},
      {"/competition/rules_version", 3},
      {"/competition/rules_version", 0},
      {"/competition/rules_version", big},
      {"/competition/key", 5},
      {"/competition/key", "zz"},
      {"/competition/commitment", json::object()},
      {"/competition/preset", "no-such-preset"},
      {"/entries/0/finished_at", "2026-11-24 10:00:00"},
      {"/entries/0/finished_at", "2026-02-30T10:00:00.000Z"},
      {"/entries/0/finished_at", 1764000000000},
      {"/entries/0/player_id", "10"},
      {"/entries/0/duration_ms", nullptr},
  };
  for (const auto& [pointer, value] : changes) {
    json doc = good;
    doc[json::json_pointer(pointer)] = value;
    const auto run = this->run({write("bad.json", doc)});
    EXPECT_EQ(run.exit_code, 2) << pointer << " = " << value.dump() << "\n" << run.out << run.err;
    EXPECT_FALSE(run.err.empty()) << pointer;
  }
  for (const char* field : {"score", "move_count", "rank", "player", "game_id", "moves", "flags",
                            "duration_ms", "finished_at", "player_id"}) {
    json doc = good;
    doc["entries"][1].erase(field);
    EXPECT_EQ(this->run({write("missing.json", doc)}).exit_code, 2) << field;
  }
}

TEST_F(VerifyTool, MalformedMoveListsAreDisagreementsNotCrashes) {
  const json good = export_for(board_setup(Mode::same));
  const std::vector<json> bad_moves = {
      json::array({"click", 1}),
      json::array({"click", 1, 2, 3}),
      json::array({"swap", 0, 0, 1}),
      json::array({"jump", 1, 2}),
      json::array({1, 2, 3}),
      json::array(),
      "click",
      nullptr,
      json::array({"click", 2147483648LL, 0}),
      json::array({"click", -2147483649LL, 0}),
      json::array({"click", json::parse("18446744073709551615"), 0}),
      json::array({"click", json::parse("1e30"), 0}),
      json::array({"click", 1.5, 0}),
      json::array({"click", "1", "2"}),
      json::array({json::array({json::array({json::array({"click"})})}), 1, 2}),
  };
  for (const json& bad : bad_moves) {
    json doc = good;
    doc["entries"][2]["moves"][1] = bad;
    const auto run = this->run({write("moves.json", doc)});
    EXPECT_EQ(run.exit_code, 1) << bad.dump() << "\n" << run.out << run.err;
    EXPECT_NE(run.out.find("MALFORMED #3 player3 move 2: "), std::string::npos)
        << bad.dump() << "\n"
        << run.out;
    EXPECT_EQ(run.count_lines_starting("ok        "), 3) << run.out;
  }
  // Ints at the very edge parse, and the rules refuse them.
  json doc = good;
  doc["entries"][2]["moves"][1] = json::array({"click", INT_MAX, INT_MIN});
  const auto run = this->run({write("edge.json", doc)});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("REFUSED   #3 player3 move 2 refused: "), std::string::npos) << run.out;
}

TEST_F(VerifyTool, UnknownFieldsAndOddTextAreHarmless) {
  json doc = export_for(board_setup(Mode::match3));
  doc["extra"] = {{"anything", json::array({1, 2})}};
  doc["competition"]["future_field"] = json::object();
  doc["entries"][0]["badge"] = "gold";
  doc["entries"][0]["player"] = "evil\n\x1b[31mname";
  doc["entries"][0]["flags"] = json::array({"replay_failed"});
  const auto run = this->run({write("odd.json", doc)});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("#1 evil??[31mname "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("game game1 (replay_failed)\n"), std::string::npos) << run.out;
}

TEST(VerifyParseMoves, ReadsEveryKindAndRejectsTheRest) {
  const json moves = json::parse(
      R"([["click", 1, 2], ["swap", 0, 0, 1, 0], ["peek", 3, 4], ["select", 5, 6],
          ["unselect", 7, 8]])");
  const MovesResult r = parse_moves(moves);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.moves.size(), 5u);
  EXPECT_EQ(r.moves[0], (game::Move{game::MoveKind::click, {1, 2}, {0, 0}}));
  EXPECT_EQ(r.moves[1], (game::Move{game::MoveKind::swap, {0, 0}, {1, 0}}));
  EXPECT_EQ(r.moves[4], (game::Move{game::MoveKind::unselect, {7, 8}, {0, 0}}));
  EXPECT_EQ(parse_moves(json::parse(R"([["peek", 1, 2, 3, 4]])")).error,
            "move 1: peek takes 2 coordinates");
  EXPECT_FALSE(parse_moves(json::object()).ok());
  EXPECT_TRUE(parse_moves(json::array()).ok());
}

TEST(VerifyParseTime, UtcTimesWithAndWithoutMilliseconds) {
  EXPECT_EQ(parse_utc_time("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_utc_time("2026-11-24T00:00:00.000Z"), 1'795'478'400'000);
  EXPECT_EQ(parse_utc_time("2026-11-24T09:41:12.408Z"), 1'795'513'272'408);
  EXPECT_EQ(parse_utc_time("2024-02-29T23:59:59.999Z"), 1'709'251'199'999);
  for (const char* bad : {"", "2026-11-24", "2026-11-24T00:00:00", "2026-11-24T00:00:00.00Z",
                          "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2026-11-24T24:00:00Z",
                          "2026-11-24t00:00:00Z", "+026-11-24T00:00:00Z"}) {
    EXPECT_FALSE(parse_utc_time(bad)) << bad;
  }
}

TEST(VerifyRun, InProcessRunReportsWithoutThrowing) {
  std::ostringstream out, err;
  const std::vector<std::string> args = {"--help"};
  EXPECT_EQ(run(args, out, err), kExitAgree);
  const std::vector<std::string> none;
  EXPECT_EQ(run(none, out, err), kExitUnusable);
  EXPECT_NE(err.str().find("no results file"), std::string::npos);
}

}  // namespace
}  // namespace tilecrush::verify::test
