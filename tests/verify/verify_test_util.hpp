// Helpers for tilecrush_verify's tests: games played with the engine on a
// keyed board, the results export the server would serve for them, and a
// runner for the built tool (its exit code and output).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::verify::test {

using nlohmann::json;

inline game::BoardSecret counting_key() {
  game::BoardSecret key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  return key;
}

// A competition board: rules version 2 with the key, or version 1 without.
inline game::GameSetup board_setup(game::Mode mode, int rules_version = 2) {
  game::GameSetup setup;
  setup.mode = mode;
  setup.preset = "classic";
  setup.seed = "2026-11-24";
  setup.rules_version = rules_version;
  if (rules_version >= 2) setup.board_key = counting_key();
  return setup;
}

// Plays legal moves (choice i * stride + offset) until over or `max_moves`.
inline std::unique_ptr<game::Game> play(const game::GameSetup& setup, int max_moves,
                                        std::size_t stride, std::size_t offset) {
  auto created = game::create_game(setup);
  EXPECT_TRUE(created.game) << created.error;
  if (!created.game) return nullptr;
  game::EventList events;
  for (int i = 0; i < max_moves && !created.game->over(); ++i) {
    const auto legal = created.game->legal_moves();
    if (legal.empty()) break;
    const auto pick = (static_cast<std::size_t>(i) * stride + offset) % legal.size();
    EXPECT_TRUE(created.game->apply(legal[pick], events).ok());
  }
  return std::move(created.game);
}

// The server's spelling of a move (protocol::move_json, protocol/src/http_bodies.cpp).
inline json move_json(const game::Move& m) {
  json out = json::array({std::string(game::to_string(m.kind)), m.a.x, m.a.y});
  if (m.kind == game::MoveKind::swap) {
    out.push_back(m.b.x);
    out.push_back(m.b.y);
  }
  return out;
}

// A closed competition's export: three ranked entries (the third one short,
// as if resigned or ended by the close) in the rules' order, named player1..3
// and game1..3 in rank order, and one disqualified entry (player4, game4).
// Finish times and player ids grow with the rank, as do hidden durations.
inline json export_for(const game::GameSetup& setup) {
  struct Played {
    std::int64_t score = 0;
    std::int64_t move_count = 0;
    json moves = json::array();
  };
  std::vector<Played> played;
  const int lengths[] = {40, 30, 5, 25};
  for (int i = 0; i < 4; ++i) {
    const auto g = play(setup, lengths[i], static_cast<std::size_t>(7 + 2 * i),
                        static_cast<std::size_t>(3 * i));
    if (!g) return {};
    Played p{g->score(), g->move_count(), json::array()};
    for (const auto& m : g->moves()) p.moves.push_back(move_json(m));
    played.push_back(std::move(p));
  }
  // Score descending, then fewer moves: the order (with the times and ids
  // below growing along it) of every mode.
  std::stable_sort(played.begin(), played.begin() + 3, [](const Played& a, const Played& b) {
    return a.score != b.score ? a.score > b.score : a.move_count < b.move_count;
  });
  json entries = json::array();
  for (int i = 0; i < 4; ++i) {
    const bool dq = i == 3;
    entries.push_back({{"rank", dq ? json(nullptr) : json(i + 1)},
                       {"player", "player" + std::to_string(i + 1)},
                       {"score", played[i].score},
                       {"move_count", played[i].move_count},
                       {"duration_ms", 1000 * (i + 1)},
                       {"game_id", "game" + std::to_string(i + 1)},
                       {"moves", std::move(played[i].moves)},
                       {"flags", dq ? json::array({"disqualified"}) : json::array()},
                       {"finished_at", "2026-11-24T10:00:0" + std::to_string(i) + ".000Z"},
                       {"player_id", 10 + i},
                       {"attempts_used", 1},
                       {"reason", dq ? json("bot") : json(nullptr)}});
  }
  const bool keyed = setup.board_key.has_value();
  json competition = {
      {"id", "daily-2026-11-24-" + std::string(game::to_string(setup.mode)) + "-classic"},
      {"name", "Daily"},
      {"mode", std::string(game::to_string(setup.mode))},
      {"preset", setup.preset},
      {"seed", setup.seed},
      {"daily", true},
      {"rules_version", setup.rules_version},
      {"opens_at", "2026-11-24T00:00:00.000Z"},
      {"closes_at", "2026-11-25T00:00:00.000Z"},
      {"state", "closed"},
      {"commitment", keyed ? json(game::commitment(*setup.board_key)) : json(nullptr)},
      {"key", keyed ? json(game::to_hex(*setup.board_key)) : json(nullptr)}};
  return {{"competition", std::move(competition)}, {"entries", std::move(entries)}};
}

struct ToolRun {
  int exit_code = -1;  // -1: did not exit normally (a crash)
  std::string out;
  std::string err;

  int count_lines_starting(const std::string& prefix) const {
    int n = 0;
    std::size_t pos = 0;
    while (pos < out.size()) {
      const std::size_t end = out.find('\n', pos);
      if (out.compare(pos, prefix.size(), prefix) == 0) ++n;
      if (end == std::string::npos) break;
      pos = end + 1;
    }
    return n;
  }
};

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A fresh temporary folder per test, removed afterwards.
class VerifyTool : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("tilecrush_verify_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  std::string write(const std::string& name, const json& doc) { return write(name, doc.dump()); }

  // Runs the built tool; `stdin_path` feeds its standard input.
  ToolRun run(const std::vector<std::string>& args,
              const std::optional<std::string>& stdin_path = {}) {
    const auto err_path = dir_ / "stderr.txt";
    std::string cmd = shell_quote(TILECRUSH_VERIFY_BIN);
    for (const auto& a : args) cmd += " " + shell_quote(a);
    cmd += " 2>" + shell_quote(err_path.string());
    cmd += " <" + shell_quote(stdin_path.value_or("/dev/null"));
    ToolRun result;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
    const int status = ::pclose(pipe);
    if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    std::ifstream err_file(err_path);
    result.err.assign(std::istreambuf_iterator<char>(err_file), {});
    return result;
  }

  std::filesystem::path dir_;
};

}  // namespace tilecrush::verify::test
