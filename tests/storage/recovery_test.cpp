// Recovery codes and device tokens (schema version 8): a replaced code stops
// working, failed tries are limited per player over a sliding window, a
// recovery adds a device token and keeps only the newest few, and only
// hashes are stored.
#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <iterator>
#include <utility>

#include "storage_upgrade.hpp"
#include "test_support.hpp"
#include "two_nodes_support.hpp"

namespace tilecrush::storage::testing {
namespace {

constexpr std::int64_t kMinute = 60'000;

// Queues a recovery of `name` with `code` from `device_token` at `at`.
std::future<RecoveryResult> queue_recovery(Database& db, const std::string& name,
                                           const std::string& code, const std::string& device_token,
                                           std::int64_t at) {
  RecoveryAttempt attempt;
  attempt.name = name;
  attempt.code_hash = hash_token(code);
  attempt.device_token_hash = hash_token(device_token);
  attempt.at = at;
  auto promise = std::make_shared<std::promise<RecoveryResult>>();
  auto future = promise->get_future();
  db.recover_player(attempt, [promise](const RecoveryResult& r) { promise->set_value(r); });
  return future;
}

RecoveryResult recover(Database& db, const std::string& name, const std::string& code,
                       const std::string& device_token, std::int64_t at) {
  return queue_recovery(db, name, code, device_token, at).get();
}

// Waits for every try; how many were refused as wrong and as locked.
std::pair<int, int> wrong_and_locked(std::vector<std::future<RecoveryResult>>& tries) {
  std::pair<int, int> counts{0, 0};
  for (auto& f : tries) {
    const RecoveryResult r = f.get();
    if (r.outcome == RecoveryOutcome::wrong_code) ++counts.first;
    if (r.outcome == RecoveryOutcome::locked) ++counts.second;
  }
  return counts;
}

WriteResult set_code(Database& db, PlayerId player, const std::string& code) {
  return wait_for(
      [&](WriteCallback cb) { db.set_recovery_code(player, hash_token(code), std::move(cb)); });
}

TEST(Recovery, TheRightCodeAddsADeviceTokenAndAWrongOneDoesNot) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "Ada");
  EXPECT_FALSE(db.has_recovery_code(ada));
  ASSERT_TRUE(set_code(db, ada, "CODE-ONE").ok());
  EXPECT_TRUE(db.has_recovery_code(ada));

  const RecoveryResult wrong = recover(db, "ada", "CODE-TWO", "device-1", 1000);
  EXPECT_EQ(wrong.outcome, RecoveryOutcome::wrong_code);
  EXPECT_TRUE(db.device_token_hashes(ada).empty());

  // Names match ignoring ASCII case; the stored spelling comes back.
  const RecoveryResult right = recover(db, "ADA", "CODE-ONE", "device-1", 2000);
  ASSERT_EQ(right.outcome, RecoveryOutcome::recovered) << right.message;
  EXPECT_EQ(right.player_id, ada);
  EXPECT_EQ(right.name, "Ada");
  EXPECT_EQ(db.device_token_hashes(ada), std::vector<std::string>{hash_token("device-1")});
  // The first token is untouched.
  EXPECT_EQ(db.find_player_by_id(ada)->token_hash, hash_token("token-Ada"));
}

TEST(Recovery, AnUnknownNameOrAPlayerWithoutACodeIsAWrongCode) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId bob = make_player(db, "Bob");
  EXPECT_EQ(recover(db, "Nobody", "X", "d", 1).outcome, RecoveryOutcome::wrong_code);
  EXPECT_EQ(recover(db, "Bob", "X", "d", 1).outcome, RecoveryOutcome::wrong_code);
  EXPECT_TRUE(db.device_token_hashes(bob).empty());
  EXPECT_FALSE(db.find_player_by_name("Nobody").has_value());
  EXPECT_EQ(set_code(db, bob + 1000, "X").status, WriteStatus::not_found);
}

TEST(Recovery, ANewCodeReplacesTheOldOne) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "Ada");
  ASSERT_TRUE(set_code(db, ada, "OLD").ok());
  ASSERT_TRUE(set_code(db, ada, "NEW").ok());
  EXPECT_EQ(recover(db, "Ada", "OLD", "d1", 1).outcome, RecoveryOutcome::wrong_code);
  EXPECT_EQ(recover(db, "Ada", "NEW", "d2", 2).outcome, RecoveryOutcome::recovered);
  // A code serves again until it is replaced.
  EXPECT_EQ(recover(db, "Ada", "NEW", "d3", 3).outcome, RecoveryOutcome::recovered);
  EXPECT_EQ(db.device_token_hashes(ada),
            (std::vector<std::string>{hash_token("d2"), hash_token("d3")}));
}

TEST(Recovery, FiveFailuresInFifteenMinutesLockTheNameEvenForTheRightCode) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "Ada");
  const PlayerId bob = make_player(db, "Bob");
  ASSERT_TRUE(set_code(db, ada, "RIGHT").ok());
  ASSERT_TRUE(set_code(db, bob, "BOBS").ok());
  const std::int64_t t0 = 1'000'000'000;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(recover(db, "Ada", "WRONG", "d", t0 + i * kMinute).outcome,
              RecoveryOutcome::wrong_code);
  }
  // The sixth try within the window is refused unchecked, the right code too.
  EXPECT_EQ(recover(db, "Ada", "WRONG", "d", t0 + 5 * kMinute).outcome, RecoveryOutcome::locked);
  EXPECT_EQ(recover(db, "Ada", "RIGHT", "d", t0 + 14 * kMinute).outcome, RecoveryOutcome::locked);
  EXPECT_TRUE(db.device_token_hashes(ada).empty());
  // Per name: Bob is not locked by Ada's failures.
  EXPECT_EQ(recover(db, "Bob", "BOBS", "b", t0 + 6 * kMinute).outcome, RecoveryOutcome::recovered);
  // The window slides: 15 minutes after the first failure one try is free
  // again, and a wrong one fills it at once.
  EXPECT_EQ(recover(db, "Ada", "WRONG", "d", t0 + 15 * kMinute).outcome,
            RecoveryOutcome::wrong_code);
  EXPECT_EQ(recover(db, "Ada", "RIGHT", "d", t0 + 15 * kMinute + 1).outcome,
            RecoveryOutcome::locked);
  // 15 minutes after the second failure, the right code gets in, and
  // forgets the failures.
  EXPECT_EQ(recover(db, "Ada", "RIGHT", "d", t0 + 16 * kMinute).outcome,
            RecoveryOutcome::recovered);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(recover(db, "Ada", "WRONG", "d", t0 + 16 * kMinute + 1 + i).outcome,
              RecoveryOutcome::wrong_code);
  }
  EXPECT_EQ(recover(db, "Ada", "RIGHT", "d", t0 + 16 * kMinute + 10).outcome,
            RecoveryOutcome::locked);
}

TEST(Recovery, SimultaneousTriesNeverFailMoreThanTheLimit) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "Ada");
  ASSERT_TRUE(set_code(db, ada, "RIGHT").ok());
  std::vector<std::future<RecoveryResult>> results;
  {
    // Twenty tries queued at once, all taken into one batch.
    WriterGate gate(db);
    for (int i = 0; i < 20; ++i) results.push_back(queue_recovery(db, "Ada", "WRONG", "d", 5000));
  }
  EXPECT_EQ(wrong_and_locked(results), std::make_pair(5, 15));
}

// Two nodes on one PostgreSQL database: their tries are counted one after
// the other all the same (every write transaction takes the same lock).
TEST(Recovery, TwoNodesTryingAtOnceNeverFailMoreThanTheLimit) {
  SKIP_UNLESS_POSTGRES();
  TwoHandles nodes;
  const PlayerId ada = make_player(nodes.a, "Ada");
  ASSERT_TRUE(set_code(nodes.a, ada, "RIGHT").ok());
  std::vector<std::future<RecoveryResult>> results;
  for (int i = 0; i < 20; ++i) {
    results.push_back(queue_recovery(i % 2 == 0 ? nodes.a : nodes.b, "Ada", "WRONG", "d", 5000));
  }
  EXPECT_EQ(wrong_and_locked(results), std::make_pair(5, 15));
}

TEST(Recovery, OnlyTheNewestEightDeviceTokensAreKept) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const PlayerId ada = make_player(db, "Ada");
  ASSERT_TRUE(set_code(db, ada, "RIGHT").ok());
  for (int i = 1; i <= 10; ++i) {
    // Same time for all: the order of recovery decides, not the clock.
    ASSERT_EQ(recover(db, "Ada", "RIGHT", "device-" + std::to_string(i), 7).outcome,
              RecoveryOutcome::recovered);
  }
  std::vector<std::string> expected;
  for (int i = 3; i <= 10; ++i) expected.push_back(hash_token("device-" + std::to_string(i)));
  EXPECT_EQ(db.device_token_hashes(ada), expected);
  EXPECT_EQ(db.find_player_by_id(ada)->token_hash, hash_token("token-Ada"));
}

TEST(Recovery, AClosedDatabaseReportsFailed) {
  TempDir dir;
  Database db(options_for(dir.file()));
  db.close();
  EXPECT_EQ(recover(db, "Ada", "X", "d", 1).outcome, RecoveryOutcome::failed);
}

TEST(Recovery, OnlyHashesOfCodesAndDeviceTokensAreStored) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string code = "QZ7KM-4WD9P-HX2RT-6VCNB";
  const std::string device = "device-token-0123456789abcdef";
  {
    Database db(options_for(dir.file()));
    const PlayerId ada = make_player(db, "Ada");
    ASSERT_TRUE(set_code(db, ada, code).ok());
    ASSERT_EQ(recover(db, "Ada", code, device, 1).outcome, RecoveryOutcome::recovered);
  }
  std::ifstream in(dir.file(), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes.find(code), std::string::npos);
  EXPECT_EQ(bytes.find(device), std::string::npos);
  EXPECT_NE(bytes.find(hash_token(code)), std::string::npos);
  EXPECT_NE(bytes.find(hash_token(device)), std::string::npos);
}

// Version 8 adds the recovery column and tables to a version-7 file (or
// PostgreSQL database, migrated that far as by a build before this one):
// its players keep their tokens and have no code nor device yet.
TEST(Recovery, AVersionSevenFileGainsRecoveryAndKeepsItsPlayers) {
  TempDir dir;
  ASSERT_TRUE(at_older_version(
      dir.file(), 7, "INSERT INTO players (name, token_hash, created_at) VALUES ('old', 'h', 5)"));
  Database db(options_for(dir.file()));
  EXPECT_EQ(db.settings().schema_version, kSchemaVersion);
  const auto old = db.find_player_by_name("old");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(db.find_player_by_name("OLD")->id, old->id);
  EXPECT_EQ(old->token_hash, "h");
  EXPECT_FALSE(db.has_recovery_code(old->id));
  EXPECT_TRUE(db.device_token_hashes(old->id).empty());
  ASSERT_TRUE(set_code(db, old->id, "C").ok());
  EXPECT_EQ(recover(db, "OLD", "C", "d", 9).outcome, RecoveryOutcome::recovered);
  EXPECT_EQ(db.device_token_hashes(old->id), std::vector<std::string>{hash_token("d")});
}

}  // namespace
}  // namespace tilecrush::storage::testing
