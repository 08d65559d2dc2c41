// For tests that drive the game service or the rooms directly, without
// sockets: a connection that records the answers and pushes it is sent
// (its handlers run on a strand of the test's io_context), and a fixture
// holding a database in a temporary folder with the game service over it.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "net/connection.hpp"
#include "ops/metrics.hpp"
#include "play/board_keys.hpp"
#include "play/competitions.hpp"
#include "play/game_service.hpp"
#include "test_server.hpp"

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

// The game service over a SQLite file of its own, with a clock the test
// moves (now_), and players signed in on fake connections.
class DirectServiceTest : public ::testing::Test {
 protected:
  DirectServiceTest() : db_(options(dir_)) {}
  ~DirectServiceTest() override {
    // Stops the writer thread now: the callbacks it still holds keep
    // answers, and so connections and their strands, alive, which must all
    // go before the io_context does.
    service_.stop();
    db_.close();
  }

  static storage::Options options(const std::filesystem::path& dir) {
    storage::Options o;
    o.path = (dir / "direct.db").string();
    return o;
  }

  // A connection signed in as `name` (the player is created when new).
  std::shared_ptr<FakeConnection> connect(const std::string& name) {
    auto conn = std::make_shared<FakeConnection>(ioc_);
    const auto found = db_.find_player_by_name(name);
    if (found) {
      conn->state().player_id = found->id;
    } else {
      std::promise<std::int64_t> id;
      db_.create_player({name, "hash-" + name, now_},
                        [&id](const storage::WriteResult& r) { id.set_value(r.id); });
      conn->state().player_id = id.get_future().get();
    }
    conn->state().player_name = name;
    return conn;
  }

  server::RequestPtr request(const std::shared_ptr<FakeConnection>& conn) {
    return std::make_shared<server::Request>(conn, next_id_++, server::Reply(conn, slot_++),
                                             metrics_);
  }

  std::filesystem::path dir_ = make_temp_dir("tilecrush-direct-");
  storage::Database db_;
  server::Metrics metrics_;
  std::atomic<std::int64_t> now_{1'700'000'000'000};
  server::BoardKeys keys_{db_, server::BoardKeys::system_random(),
                          [this]() { return now_.load(); }};
  server::Competitions competitions_{db_, keys_, [this]() { return now_.load(); }, {}};
  server::GameService service_{db_, metrics_, [this]() { return now_.load(); }, keys_,
                               competitions_};
  server::net::io_context ioc_;
  std::uint64_t slot_ = 0;
  std::int64_t next_id_ = 1;
};

}  // namespace tilecrush::testing
