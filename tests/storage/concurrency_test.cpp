// Readers on several threads and on a second read-only handle while the
// writer commits games.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;

const BoardKey kBoard{Mode::match3, "classic", "busy", ""};

bool before(const LeaderboardEntry& a, const LeaderboardEntry& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.move_count != b.move_count) return a.move_count < b.move_count;
  if (a.finished_at != b.finished_at) return a.finished_at < b.finished_at;
  return a.player_id < b.player_id;
}

// Checks one page: consecutive ranks from 1, the rules' order, a total that
// never shrinks. Returns false on the first inconsistency.
bool check_page(const LeaderboardPage& page, std::int64_t& last_total, std::string& why) {
  if (page.total < last_total) {
    why = "total went down";
    return false;
  }
  last_total = page.total;
  if (static_cast<std::int64_t>(page.entries.size()) != std::min<std::int64_t>(page.total, 50)) {
    why = "page size does not match total";
    return false;
  }
  for (std::size_t i = 0; i < page.entries.size(); ++i) {
    if (page.entries[i].rank != static_cast<std::int64_t>(i) + 1) {
      why = "rank gap";
      return false;
    }
    if (i > 0 && !before(page.entries[i - 1], page.entries[i])) {
      why = "out of order";
      return false;
    }
  }
  return true;
}

TEST(Concurrency, ReadersAndASecondHandleReadWhileGamesAreWritten) {
  TempDir dir;
  Options options = options_for(dir.file());
  options.readers = 3;
  Database writer(options);
  Options read_only = options_for(dir.file());
  read_only.read_only = true;
  read_only.readers = 2;
  Database second(read_only);

  constexpr int kPlayers = 40;
  constexpr int kGamesEach = 5;
  std::atomic<bool> writing{true};
  std::atomic<int> reads{0};
  std::atomic<int> failures{0};
  std::string failure;
  std::mutex failure_mutex;

  std::thread producer([&] {
    for (int p = 0; p < kPlayers; ++p) {
      writer.create_player({numbered("player", p), hash_token("t"), p});
    }
    writer.flush();
    for (int round = 0; round < kGamesEach; ++round) {
      for (int p = 0; p < kPlayers; ++p) {
        const auto player = writer.find_player_by_name(numbered("player", p));
        const std::string id = numbered("g", round * 1000 + p);
        writer.create_game(ranked_game(id, player->id, kBoard, round));
        const int moves = 3 + (p * 7 + round * 3) % 11;
        for (int m = 0; m < moves; ++m)
          writer.append_move(id, m, click(m, m), m * 10, m + 1, {}, 0);
        const std::int64_t score = (p * 37 + round * 53) % 200;
        writer.finish_game(
            {id, score, moves, game::OverReason::out_of_moves, 10000 + round * 100 + p, 5000});
      }
    }
    writer.flush();
    writing = false;
  });

  const auto reader = [&](Database& db) {
    std::int64_t last_total = 0;
    while (writing.load()) {
      std::string why;
      const LeaderboardPage page = db.leaderboard(kBoard, 50, 0);
      if (!check_page(page, last_total, why)) {
        std::lock_guard lock(failure_mutex);
        failure = why;
        ++failures;
      }
      if (!page.entries.empty()) {
        const auto around = db.leaderboard_around(kBoard, page.entries.back().player, 2);
        if (!around || around->entries.empty()) ++failures;
        const auto g = db.load_game(page.entries.front().game_id);
        if (!g || g->state != GameState::over) ++failures;
      }
      ++reads;
    }
  };
  std::vector<std::thread> readers;
  for (int i = 0; i < 3; ++i) readers.emplace_back(reader, std::ref(writer));
  for (int i = 0; i < 2; ++i) readers.emplace_back(reader, std::ref(second));
  producer.join();
  for (auto& r : readers) r.join();

  EXPECT_EQ(failures.load(), 0) << failure;
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(writer.metrics().ops_failed, 0u);
  for (Database* db : {&writer, &second}) {
    const LeaderboardPage page = db->leaderboard(kBoard, 100, 0);
    EXPECT_EQ(page.total, kPlayers);
    for (const auto& e : page.entries) EXPECT_EQ(e.attempts, kGamesEach);
    EXPECT_EQ(db->find_player_by_name("player7")->games_played, kGamesEach);
  }
}

TEST(Concurrency, ReadsOutnumberingThePoolWait) {
  TempDir dir;
  Options options = options_for(dir.file());
  options.readers = 1;
  Database db(options);
  testing::make_player(db, "alice");
  std::atomic<int> found{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        if (db.find_player_by_name("alice")) ++found;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(found.load(), 1200);
}

}  // namespace
}  // namespace tilecrush::storage::testing
