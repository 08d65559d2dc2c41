// Shared pieces of the competition tests: a server with a clock the test
// moves, an operator token, organisers, and helpers to create a
// competition and play attempts in it over real HTTP and WebSocket.
#pragma once

#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "itest_util.hpp"
#include "ops/clock.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::testing {

inline constexpr const char* kOperatorToken = "operator-token-for-tests-0123456789";

// 2030-01-01T10:00:00Z: the test clock's start.
inline constexpr std::int64_t kClockStart = 1'893'492'000'000;

class CompetitionServer {
 public:
  // real_keys: board keys from the OS random source, as in production
  // (otherwise test_board_key(), which the tests know).
  explicit CompetitionServer(bool real_keys = false)
      : clock_(std::make_shared<std::atomic<std::int64_t>>(kClockStart)) {
    server::Config c = unthrottled_config();
    if (real_keys) c.board_key_source = nullptr;
    c.operator_token = kOperatorToken;
    c.now = [clock = clock_]() { return clock->load(); };
    ts_ = std::make_unique<TestServer>(c);
  }

  TestServer& ts() { return *ts_; }
  unsigned short port() { return ts_->port(); }
  std::int64_t now() const { return clock_->load(); }
  // Moves the server's clock, then lets its closing pass (every second) run.
  void advance_ms(std::int64_t ms, bool wait_for_closing = true) {
    clock_->fetch_add(ms);
    if (!wait_for_closing) return;
    // The closer's sweep runs about once a second: wait until no
    // competition past its close is left undone (its games ended, its
    // writes committed), however slow the machine.
    std::this_thread::sleep_for(std::chrono::milliseconds(1300));
    storage::Database& db = ts_->server().database();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!db.competitions(storage::CompetitionState::to_close, now(), 1).empty() &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    db.flush();
  }

  // An organiser, as the operator's --add-organiser makes one: its token.
  std::string add_organiser(const std::string& name) {
    const std::string token = "organiser-token-" + name;
    storage::WriteResult result;
    ts_->server().database().create_organiser(
        {name, storage::hash_token(token), now()},
        [&result](const storage::WriteResult& r) { result = r; });
    ts_->server().database().flush();
    EXPECT_TRUE(result.ok()) << result.message;
    return token;
  }

  // The token of "ann", the tests' usual organiser, made on first use.
  const std::string& ann() {
    if (ann_.empty()) ann_ = add_organiser("ann");
    return ann_;
  }

  HttpResult post(const std::string& target, const json& body, const std::string& token) {
    return http_request(port(), beast::http::verb::post, target, body.dump(),
                        token.empty() ? "" : "Bearer " + token);
  }
  HttpResult get(const std::string& target) { return http_get(port(), target); }
  // GET with an Authorization header (empty: none).
  HttpResult get_as(const std::string& target, const std::string& authorization) {
    return http_request(port(), beast::http::verb::get, target, "", authorization);
  }

  // Creates a competition opening `opens_in_ms` from now and closing
  // `length_ms` later; returns its view (null on failure).
  json create(const std::string& token, json fields, std::int64_t opens_in_ms = 0,
              std::int64_t length_ms = 3'600'000) {
    if (!fields.contains("name")) fields["name"] = "Cup";
    if (!fields.contains("mode")) fields["mode"] = "match3";
    if (!fields.contains("preset")) fields["preset"] = "classic";
    fields["opens_at"] = server::iso_time(now() + opens_in_ms);
    fields["closes_at"] = server::iso_time(now() + opens_in_ms + length_ms);
    const HttpResult r = post("/api/competitions", fields, token);
    EXPECT_EQ(r.status, 201u) << r.body;
    return r.status == 201 ? r.json_body() : json();
  }

  // The local engine copy of a game on a competition's board.
  static std::unique_ptr<game::Game> local_copy(const json& competition) {
    game::GameSetup setup;
    setup.mode = *game::parse_mode(competition["mode"].get<std::string>());
    setup.preset = competition["preset"];
    setup.seed = competition["seed"];
    setup.board_key =
        test_board_key(competition["id"], static_cast<int>(setup.mode), setup.preset, setup.seed);
    return make_local(setup);
  }

 private:
  std::shared_ptr<std::atomic<std::int64_t>> clock_;
  std::unique_ptr<TestServer> ts_;
  std::string ann_;
};

// Runs tilecrush_verify on `results` (written to dir/name.json, its output
// to dir/name.out); its exit status.
inline int run_verify(const std::filesystem::path& dir, const json& results,
                      const std::string& name) {
  const auto file = dir / (name + ".json");
  std::ofstream(file) << results.dump();
  const std::string command = std::string(TILECRUSH_VERIFY_BINARY) + " " + file.string() + " > " +
                              (dir / (name + ".out")).string() + " 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// new_game in a competition: the reply (a game or an error).
inline json start_attempt(WsClient& c, const std::string& competition) {
  return c.request({{"type", "new_game"}, {"competition", competition}});
}

}  // namespace tilecrush::testing
