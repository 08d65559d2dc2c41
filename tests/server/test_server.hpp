// Runs the real server in-process on 127.0.0.1, port 0, with a database in a
// fresh temporary folder; restart() stops it and starts a new one on the
// same database (as after a process restart).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "server.hpp"

namespace tilecrush::testing {

inline std::filesystem::path make_temp_dir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

class TestServer {
 public:
  explicit TestServer(server::Config config = default_config())
      : dir_(make_temp_dir("tilecrush-test-")), config_(std::move(config)) {
    config_.db = (dir_ / "test.db").string();
    start();
  }
  ~TestServer() {
    server_.reset();
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
    return c;
  }

  unsigned short port() const { return server_->port(); }
  server::Server& server() { return *server_; }
  const std::filesystem::path& dir() const { return dir_; }
  const server::Config& config() const { return config_; }

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
  server::Config config_;
  std::unique_ptr<server::Server> server_;
};

}  // namespace tilecrush::testing
