// tilecrush_verify end to end: exports of games played on keyed boards in
// every mode verify; a changed score, a tampered move list, the wrong key or
// no key do not; a rules-version-1 export verifies without a key.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

#include "verify_test_util.hpp"

namespace tilecrush::verify::test {
namespace {

using game::Mode;

constexpr Mode kModes[] = {Mode::same, Mode::match3, Mode::hidden};

std::string mode_name(Mode mode) {
  return std::string(game::to_string(mode));
}

TEST_F(VerifyTool, HonestExportsOfEveryModeVerify) {
  for (Mode mode : kModes) {
    const json doc = export_for(board_setup(mode));
    ASSERT_FALSE(doc.is_null());
    const auto run = this->run({write(mode_name(mode) + ".json", doc)});
    EXPECT_EQ(run.exit_code, 0) << mode_name(mode) << "\n" << run.out << run.err;
    EXPECT_EQ(run.count_lines_starting("ok        "), 4) << run.out;
    EXPECT_NE(run.out.find("key matches commitment " + game::commitment(counting_key())),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("ok        #1 player1 " +
                           std::to_string(doc["entries"][0]["score"].get<std::int64_t>()) + " (" +
                           std::to_string(doc["entries"][0]["move_count"].get<std::int64_t>()) +
                           " moves) game game1\n"),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("#- player4"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("game game4 (disqualified)\n"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("verified 4 entries: 4 ok, 0 disagree\n"), std::string::npos) << run.out;
  }
}

// The rank order is checked from the export alone: score, then moves
// (hidden: time), then the finish, then the player id; ties included.
TEST_F(VerifyTool, TheRankOrderIsCheckedFromTheExportTiesIncluded) {
  for (Mode mode : kModes) {
    SCOPED_TRACE(mode_name(mode));
    const json good = export_for(board_setup(mode));
    auto check = [&](const json& doc, const std::string& name) {
      const auto run = this->run({write(name + ".json", doc)});
      return std::make_pair(run.exit_code, run.out);
    };
    auto [code, out] = check(good, "good");
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("order ok: 3 ranked entries in the rules' order"), std::string::npos) << out;

    // Two entries swapped, their ranks kept in place: every entry still
    // replays, the order does not.
    json swapped = good;
    std::swap(swapped["entries"][0], swapped["entries"][1]);
    swapped["entries"][0]["rank"] = 1;
    swapped["entries"][1]["rank"] = 2;
    std::tie(code, out) = check(swapped, "swapped");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("ORDER     #2 player1 must rank above #1 player2"), std::string::npos)
        << out;
    EXPECT_NE(out.find("verified 4 entries: 4 ok, 0 disagree"), std::string::npos) << out;

    // A tie on score, moves, time and finish: the lower player id first.
    json tie = good;
    const json copy = tie["entries"][0];
    for (const char* f : {"score", "move_count", "duration_ms", "moves", "finished_at"}) {
      tie["entries"][1][f] = copy[f];
    }
    std::tie(code, out) = check(tie, "tie");
    EXPECT_EQ(code, 0) << out;
    json tie_wrong = tie;
    tie_wrong["entries"][0]["player_id"] = 11;
    tie_wrong["entries"][1]["player_id"] = 10;
    std::tie(code, out) = check(tie_wrong, "tie-wrong");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("ORDER     #2 player2 must rank above #1 player1: a tie on everything "
                       "else, registered earlier"),
              std::string::npos)
        << out;
    // The same tie decided by the finish instead.
    json later = tie;
    later["entries"][0]["finished_at"] = "2026-11-24T10:00:05.000Z";
    std::tie(code, out) = check(later, "later");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("finished earlier"), std::string::npos) << out;
    // The time breaks ties in hidden mode only.
    json faster = tie;
    faster["entries"][1]["duration_ms"] = copy["duration_ms"].get<std::int64_t>() - 1;
    std::tie(code, out) = check(faster, "faster");
    EXPECT_EQ(code, mode == Mode::hidden ? 1 : 0) << out;
    if (mode == Mode::hidden) {
      EXPECT_NE(out.find("the same score with a shorter time"), std::string::npos) << out;
    }

    // Ranks are positions 1, 2, 3; unranked entries come last; one entry
    // per player.
    json gap = good;
    gap["entries"][2]["rank"] = 4;
    std::tie(code, out) = check(gap, "gap");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("ORDER     #4 player3 should be ranked 3"), std::string::npos) << out;
    json first_dq = good;
    first_dq["entries"].insert(first_dq["entries"].begin(), first_dq["entries"][3]);
    first_dq["entries"].erase(4);
    std::tie(code, out) = check(first_dq, "first-dq");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("is listed after an entry without a rank"), std::string::npos) << out;
    json undisqualified = good;
    undisqualified["entries"][3]["flags"] = json::array();
    std::tie(code, out) = check(undisqualified, "no-flag");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("ORDER     #- player4 has no rank but is not disqualified"),
              std::string::npos)
        << out;
    json twice = good;
    twice["entries"][3]["player_id"] = 10;
    std::tie(code, out) = check(twice, "twice");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("player id 10 has another entry"), std::string::npos) << out;
  }
}

TEST_F(VerifyTool, TheExportCanComeFromStandardInput) {
  const auto path = write("same.json", export_for(board_setup(Mode::same)));
  const auto run = this->run({"-"}, path);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.count_lines_starting("ok        "), 4) << run.out;
}

TEST_F(VerifyTool, AScoreOffByOneIsAMismatch) {
  for (Mode mode : kModes) {
    json doc = export_for(board_setup(mode));
    const auto real = doc["entries"][1]["score"].get<std::int64_t>();
    doc["entries"][1]["score"] = real + 1;
    const auto run = this->run({write("score.json", doc)});
    EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
    EXPECT_NE(run.out.find("MISMATCH  #2 player2 claims " + std::to_string(real + 1) +
                           ", replay gives " + std::to_string(real) + " (game game2)\n"),
              std::string::npos)
        << run.out;
    EXPECT_EQ(run.count_lines_starting("ok        "), 3) << run.out;
    EXPECT_NE(run.out.find("verified 4 entries: 3 ok, 1 disagree\n"), std::string::npos);
  }
}

TEST_F(VerifyTool, AWrongMoveCountIsAMismatch) {
  json doc = export_for(board_setup(Mode::match3));
  const auto real = doc["entries"][0]["move_count"].get<std::int64_t>();
  doc["entries"][0]["move_count"] = real - 1;
  const auto run = this->run({write("count.json", doc)});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("MISMATCH  #1 player1 claims " + std::to_string(real - 1) +
                         " moves, replay gives " + std::to_string(real) + " moves"),
            std::string::npos)
      << run.out;
}

TEST_F(VerifyTool, AMoveTheRulesRefuseIsADisagreement) {
  for (Mode mode : kModes) {
    json doc = export_for(board_setup(mode));
    json& move = doc["entries"][0]["moves"][4];
    move[1] = 1000;  // off the board
    const auto run = this->run({write("refused.json", doc)});
    EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
    EXPECT_NE(run.out.find("REFUSED   #1 player1 move 5 refused: "), std::string::npos)
        << mode_name(mode) << "\n"
        << run.out;
  }
}

TEST_F(VerifyTool, ADifferentLegalMoveChangesTheScore) {
  const game::GameSetup setup = board_setup(Mode::same);
  json doc = export_for(setup);
  json& entry = doc["entries"][0];
  // Replace the last move with another legal one that scores differently.
  std::vector<game::Move> moves;
  for (const auto& m : entry["moves"]) {
    moves.push_back(game::Move{game::MoveKind::click, {m[1].get<int>(), m[2].get<int>()}, {}});
  }
  ASSERT_GE(moves.size(), 2u);
  const game::Move last = moves.back();
  moves.pop_back();
  auto before = game::replay(setup, moves);
  ASSERT_TRUE(before.game) << before.error;
  bool replaced = false;
  for (const auto& other : before.game->legal_moves()) {
    auto copy = before.game->clone();
    game::EventList events;
    ASSERT_TRUE(copy->apply(other, events).ok());
    if (!(other == last) && copy->score() != entry["score"].get<std::int64_t>()) {
      entry["moves"].back() = move_json(other);
      replaced = true;
      break;
    }
  }
  ASSERT_TRUE(replaced);
  const auto run = this->run({write("other.json", doc)});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("MISMATCH  #1 player1 claims "), std::string::npos) << run.out;
}

TEST_F(VerifyTool, TheWrongKeyIsNotTheCommittedOne) {
  json doc = export_for(board_setup(Mode::hidden));
  game::BoardSecret other = counting_key();
  other[0] ^= 0x80;
  auto run = this->run({write("a.json", doc), "--key", game::to_hex(other)});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("KEY MISMATCH: SHA-256(key) = " + game::commitment(other)),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.count_lines_starting("ok"), 0);
  // The same when the export itself carries a key that is not the committed one.
  doc["competition"]["key"] = game::to_hex(other);
  run = this->run({write("b.json", doc)});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("KEY MISMATCH"), std::string::npos) << run.out;
}

TEST_F(VerifyTool, TheKeyCanComeFromTheCommandLine) {
  json doc = export_for(board_setup(Mode::same));
  doc["competition"]["key"] = nullptr;
  const auto path = write("nokey.json", doc);
  auto run = this->run({path});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("no key"), std::string::npos) << run.err;
  doc["competition"].erase("key");
  run = this->run({write("nokeyfield.json", doc)});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;

  std::string upper = game::to_hex(counting_key());
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{path, "--key", game::to_hex(counting_key())},
        std::vector<std::string>{"--key=" + upper, path}}) {
    run = this->run(args);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_EQ(run.count_lines_starting("ok        "), 4) << run.out;
  }
  for (const std::string& bad :
       {std::string("00"), std::string(63, 'a'), std::string(64, 'g'), std::string()}) {
    EXPECT_EQ(this->run({path, "--key", bad}).exit_code, 2) << bad;
  }
}

TEST_F(VerifyTool, Version2NeedsACommitment) {
  json doc = export_for(board_setup(Mode::same));
  doc["competition"]["commitment"] = nullptr;
  EXPECT_EQ(this->run({write("a.json", doc)}).exit_code, 2);
  doc["competition"]["commitment"] = "abc";
  EXPECT_EQ(this->run({write("b.json", doc)}).exit_code, 2);
}

TEST_F(VerifyTool, AnOpenCompetitionCannotBeVerified) {
  json doc = export_for(board_setup(Mode::same));
  for (auto& e : doc["entries"]) e["moves"] = nullptr;
  doc["competition"]["key"] = nullptr;
  auto run = this->run({write("open.json", doc)});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  doc["competition"]["state"] = "open";
  run = this->run({write("open2.json", doc), "--key", game::to_hex(counting_key())});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("not closed"), std::string::npos) << run.err;
}

TEST_F(VerifyTool, RulesVersion1ExportsVerifyWithoutAKey) {
  for (Mode mode : kModes) {
    const json doc = export_for(board_setup(mode, 1));
    ASSERT_TRUE(doc["competition"]["key"].is_null());
    const auto path = write("v1.json", doc);
    auto run = this->run({path});
    EXPECT_EQ(run.exit_code, 0) << mode_name(mode) << "\n" << run.out << run.err;
    EXPECT_EQ(run.count_lines_starting("ok        "), 4) << run.out;
    // A version-1 board has no key: one given is ignored.
    run = this->run({path, "--key", game::to_hex(counting_key())});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  }
  // The keyed games do not replay on the keyless board.
  json doc = export_for(board_setup(Mode::same));
  doc["competition"]["rules_version"] = 1;
  EXPECT_EQ(this->run({write("v1keyed.json", doc)}).exit_code, 1);
}

}  // namespace
}  // namespace tilecrush::verify::test
