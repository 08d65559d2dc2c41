// The two-nodes tests' pieces (two_nodes_*_test.cpp, open_room_test.cpp,
// postgres_test.cpp): two Database handles on one PostgreSQL database, and
// a race that releases two writes at the same moment.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "test_support.hpp"
#include "tilecrush/game/crypto.hpp"

namespace tilecrush::storage::testing {

// Runs a and b on two threads released at the same moment; waits for both.
template <class A, class B>
void race(A&& a, B&& b) {
  std::atomic<bool> go{false};
  std::thread ta([&] {
    while (!go.load()) {
    }
    a();
  });
  std::thread tb([&] {
    while (!go.load()) {
    }
    b();
  });
  go = true;
  ta.join();
  tb.join();
}

inline BoardRecord casual_board(const std::string& seed, std::uint8_t fill) {
  BoardRecord b;
  b.mode = game::Mode::same;
  b.preset = "easy";
  b.seed = seed;
  b.key.fill(fill);
  b.commitment = game::commitment(b.key);
  return b;
}

inline GameResult result_of(const std::string& id, std::int64_t score, std::int64_t finished_at) {
  GameResult r;
  r.game_id = id;
  r.score = score;
  r.move_count = 10;
  r.over_reason = game::OverReason::no_moves;
  r.finished_at = finished_at;
  r.duration_ms = 1000;
  return r;
}

// Two nodes, a and b, on one fresh database (url): for a test that is not
// of the TwoNodes fixture.
struct TwoHandles {
  TempDir dir;
  std::string url = dir.file();
  Database a{options_for(url)};
  Database b{options_for(url)};
};

// Two nodes, a_ and b_, on one fresh PostgreSQL database (url_): every test
// of the fixture is skipped in the SQLite run.
class TwoNodes : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_UNLESS_POSTGRES();
    url_ = dir_.file();
    a_ = std::make_unique<Database>(options_for(url_));
    b_ = std::make_unique<Database>(options_for(url_));
  }

  TempDir dir_;
  std::string url_;
  std::unique_ptr<Database> a_;
  std::unique_ptr<Database> b_;
};

}  // namespace tilecrush::storage::testing
