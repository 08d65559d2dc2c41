// A connection without a socket, for tests that drive the game service or
// the rooms directly: it records the answers and pushes it is sent, and
// runs its handlers on a strand of the test's io_context.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "net/connection.hpp"

namespace tilecrush::testing {

class FakeConnection final : public server::Connection {
 public:
  explicit FakeConnection(server::net::io_context& ioc) : strand_(server::net::make_strand(ioc)) {}
  server::net::any_io_executor executor() override { return strand_; }
  void read_next() override {}
  void push(server::SharedText shared) override {
    std::string message = *shared;
    std::lock_guard lock(mutex_);
    pushes_.push_back(nlohmann::json::parse(message));
  }
  void close(server::websocket::close_code) override {}
  const std::string& remote_address() const override { return address_; }

  std::vector<nlohmann::json> answers() {
    std::lock_guard lock(mutex_);
    return answers_;
  }
  std::vector<nlohmann::json> pushes_of(const std::string& type) {
    std::lock_guard lock(mutex_);
    std::vector<nlohmann::json> out;
    for (const nlohmann::json& m : pushes_) {
      if (m["type"] == type) out.push_back(m);
    }
    return out;
  }

 protected:
  void fill_slot(std::uint64_t, std::optional<std::string> message) override {
    std::lock_guard lock(mutex_);
    if (message) answers_.push_back(nlohmann::json::parse(*message));
  }

 private:
  server::net::any_io_executor strand_;
  std::string address_ = "test";
  std::mutex mutex_;
  std::vector<nlohmann::json> answers_;
  std::vector<nlohmann::json> pushes_;
};

}  // namespace tilecrush::testing
