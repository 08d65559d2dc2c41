// The writer's linger (Options::linger, write_queue.hpp): it waits for more
// operations only while they arrive fast, never longer than its bound, and
// never while a flush() or stop() waits.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using game::Mode;
using Clock = std::chrono::steady_clock;

const BoardKey kLingerBoard{Mode::same, "easy", "w", ""};

Options linger_options(const std::string& path, std::chrono::microseconds bound, double min_rate,
                       std::size_t batch) {
  Options options = options_for(path);
  options.linger = Linger{bound, min_rate, batch};
  return options;
}

// Creates game `id` for a new player and waits for it.
void start_linger_game(Database& db, const std::string& id) {
  const WriteResult r = store_game(db, ranked_game(id, make_player(db, "p-" + id), kLingerBoard));
  ASSERT_TRUE(r.ok()) << r.message;
}

// Appends moves to `id` from move `next` on, one every ~100 µs, until
// `count` are queued or, with count 0, until `span` has passed; counts the
// successful ones in `ok`. Returns the next move's seq.
int pace_moves(Database& db, const std::string& id, int next, int count, Clock::duration span,
               std::atomic<int>& ok) {
  const auto until = Clock::now() + span;
  for (int queued = 0; count > 0 ? queued < count : Clock::now() < until; ++queued, ++next) {
    db.append_move(id, next, click(next % 10, next % 7), next, next + 1, {}, 0,
                   [&ok](const WriteResult& r) {
                     if (r.ok()) ++ok;
                   });
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return next;
}

// Paces moves (as pace_moves) in 50 ms spans until the writer has begun a
// linger after `lingered` of them, or for 10 s. The writer sees the rate
// over 50 ms windows after a batch, so how soon it lingers depends on the
// machine: on a loaded one (a sanitizer build on PostgreSQL beside other
// work) the first 200 ms may hold none.
int pace_until_lingering(Database& db, const std::string& id, int next, std::uint64_t lingered,
                         std::atomic<int>& ok) {
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  do {
    next = pace_moves(db, id, next, 0, std::chrono::milliseconds(50), ok);
  } while (db.metrics().batches_lingered <= lingered && Clock::now() < give_up);
  return next;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST(Linger, SlowOperationsAreCommittedWithoutWaiting) {
  TempDir dir;
  // A 2 s bound: an operation that waited it would show.
  Database db(linger_options(dir.file(), std::chrono::seconds(2), 1000, 32));
  const WriterMetrics before = db.metrics();
  for (int i = 0; i < 8; ++i) {
    const auto start = Clock::now();
    const WriteResult r = wait_for([&](WriteCallback cb) {
      db.create_player({numbered("slow", i), "h", i}, std::move(cb));
    });
    EXPECT_TRUE(r.ok()) << r.message;
    EXPECT_LT(seconds_since(start), 0.5) << "operation " << i;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const WriterMetrics after = db.metrics();
  EXPECT_EQ(after.batches_lingered, 0u);
  EXPECT_EQ(after.batches_committed - before.batches_committed, 8u);
}

TEST(Linger, BusyWriterCommitsFewerLargerBatches) {
  TempDir dir;
  Database db(linger_options(dir.file(), std::chrono::milliseconds(50), 200, 64));
  start_linger_game(db, "g");
  std::atomic<int> ok{0};
  // Several of the writer's 50 ms rate windows: it sees the rate, then
  // lingers.
  int next = pace_moves(db, "g", 0, 0, std::chrono::milliseconds(200), ok);
  const WriterMetrics before = db.metrics();
  constexpr int kMoves = 1000;
  next = pace_moves(db, "g", next, kMoves, {}, ok);
  db.flush();
  const WriterMetrics after = db.metrics();
  EXPECT_EQ(ok.load(), next);
  EXPECT_EQ(db.load_game("g")->moves.size(), static_cast<std::size_t>(next));
  // A batch is taken when 64 are queued or 50 ms after the last commit: at
  // least ~16 moves a batch at any pace of this loop (without the linger,
  // it commits every move or two it is given).
  const std::uint64_t batches = after.batches_committed - before.batches_committed;
  EXPECT_LE(batches, static_cast<std::uint64_t>(kMoves / 8));
  EXPECT_GE(after.max_batch_size, 16u);
  // The writer waited for them; unless it was the slower side throughout
  // (a loaded machine, a sanitizer build): then 64 were queued whenever it
  // took a batch, which it took at once, every batch full.
  if (after.batches_lingered == before.batches_lingered) {
    EXPECT_LE(batches, static_cast<std::uint64_t>(kMoves / 64 + 2))
        << "neither lingered nor took full batches";
  }
}

TEST(Linger, FlushAndStopEndALingerAtOnce) {
  TempDir dir;
  const std::string path = dir.file();
  // The queue never fills (1,000) and the bound is 2 s: the writer lingers
  // until a flush() or close() ends it.
  const Options options = linger_options(path, std::chrono::seconds(2), 100, 1000);
  auto db = std::make_unique<Database>(options);
  start_linger_game(*db, "g");
  std::atomic<int> ok{0};
  int next = pace_until_lingering(*db, "g", 0, db->metrics().batches_lingered, ok);
  EXPECT_GE(db->metrics().batches_lingered, 1u);
  auto start = Clock::now();
  db->flush();
  EXPECT_LT(seconds_since(start), 1.0);
  EXPECT_EQ(ok.load(), next);

  const std::uint64_t lingered = db->metrics().batches_lingered;
  next = pace_until_lingering(*db, "g", next, lingered, ok);
  EXPECT_GT(db->metrics().batches_lingered, lingered);  // lingering now
  start = Clock::now();
  db.reset();  // close(): the writer commits what is queued, then ends
  EXPECT_LT(seconds_since(start), 1.0);
  EXPECT_EQ(ok.load(), next);

  Database reopened(options_for(path));
  EXPECT_EQ(reopened.load_game("g")->moves.size(), static_cast<std::size_t>(next));
}

}  // namespace
}  // namespace tilecrush::storage::testing
