// Runs the real server in-process on 127.0.0.1, port 0, with a database in a
// fresh temporary folder; restart() stops it and starts a new one on the
// same database (as after a process restart).
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "server.hpp"
#include "test_database.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::testing {

// The board keys of the in-process test server: known to the tests, so that
// their local engine copies of ranked games deal the same boards. (The
// server itself draws keys from the OS random source; fairness_test.cpp
// runs it that way.)
inline game::BoardSecret test_board_key(const std::string& scope, int mode,
                                        const std::string& preset, const std::string& seed) {
  return game::sha256("tilecrush-test-board-key/" + scope + "/" + std::to_string(mode) + "/" +
                      preset + "/" + seed);
}

// A ranked-shaped setup gets the test server's key of its casual board
// (scope ""), unless it carries one; any other setup is dealt without one.
inline game::GameSetup with_test_key(game::GameSetup setup, const std::string& scope = "") {
  if (!setup.ranked()) {
    setup.board_key.reset();
  } else if (!setup.board_key && setup.rules_version >= 2) {
    setup.board_key = test_board_key(scope, static_cast<int>(setup.mode), setup.preset, setup.seed);
  }
  return setup;
}

inline std::filesystem::path make_temp_dir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

class TestServer {
 public:
  explicit TestServer(server::Config config = default_config())
      : dir_(make_temp_dir("tilecrush-test-")),
        database_(std::make_unique<testing::ScratchDatabase>(dir_, "test.db")),
        config_(std::move(config)) {
    config_.db = database_->location();
    start();
  }
  ~TestServer() {
    server_.reset();
    database_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  static server::Config default_config() {
    server::Config c;
    c.bind = "127.0.0.1";
    c.port = 0;
    c.threads = 2;
    c.static_dir = TILECRUSH_SOURCE_DIR "/web-client";
    c.max_connections_per_address = 4096;
    c.board_key_source = test_board_key;
    return c;
  }

  // Timeouts short enough to watch the cut-offs happen (the defaults are
  // 15 s and 60 s): an HTTP request must arrive within 1 s; a WebSocket
  // idle for 1 s is pinged and closed at 2 s without an answer.
  static server::Config short_timeouts_config() {
    server::Config c = default_config();
    c.http_timeout_s = 1;
    c.idle_timeout_s = 2;
    return c;
  }

  unsigned short port() const { return server_->port(); }
  server::Server& server() { return *server_; }
  const std::filesystem::path& dir() const { return dir_; }
  const server::Config& config() const { return config_; }

  // Waits up to `limit` for /metrics to hold `line` (name, space, value);
  // false when it never did.
  bool wait_for_metric(const std::string& line,
                       std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      if (("\n" + server_->metrics().render()).find("\n" + line + "\n") != std::string::npos) {
        return true;
      }
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  void restart() {
    server_->stop();
    server_.reset();
    start();
  }

 private:
  void start() {
    server_ = std::make_unique<server::Server>(config_);
    server_->start();
  }

  std::filesystem::path dir_;
  std::unique_ptr<testing::ScratchDatabase> database_;
  server::Config config_;
  std::unique_ptr<server::Server> server_;
};

}  // namespace tilecrush::testing
