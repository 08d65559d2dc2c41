// GatheringVfs (a writer's WAL frames written in one call a commit): what
// SQLite relies on still holds. A commit is in the file when it returns
// (another connection reads it at once, and a process killed right after
// loses none), a transaction whose pages spilled into the WAL reads them
// back, and one rolled back leaves nothing behind for the next writer.
// The readers are read-only connections, which keep SQLite's default VFS:
// they read the file as another process would.
#include "gathering_vfs.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "sqlite_connection.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

using detail::GatheringVfs;
using detail::OpenMode;
using detail::SqliteConnection;

constexpr std::chrono::milliseconds kBusy{5000};

void create_table(const std::string& path) {
  SqliteConnection c(path, OpenMode::read_write, kBusy);
  EXPECT_EQ(c.scalar_text("PRAGMA journal_mode = WAL"), "wal");
  c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, txn INTEGER NOT NULL, body TEXT NOT NULL)");
}

// `rows` rows of `size` characters, all of transaction `txn`.
std::string insert_rows(int txn, int rows, int size) {
  return "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
         std::to_string(rows) + ") INSERT INTO t (txn, body) SELECT " + std::to_string(txn) +
         ", substr(hex(zeroblob(" + std::to_string(size) + ")), 1, " + std::to_string(size) +
         ") FROM n";
}

// Transaction k's rows: a page's worth now and then, well past what the
// VFS gathers (GatheringFile::kLimit) every few.
int rows_of(int txn) {
  return txn % 7 == 0 ? 300 : txn % 3 == 0 ? 40 : 1 + txn % 5;
}

// The reader sees `rows` rows of table t, 900 characters each.
void expect_rows(SqliteConnection& reader, std::int64_t rows) {
  EXPECT_EQ(reader.scalar_int("SELECT count(*) FROM t"), rows);
  EXPECT_EQ(reader.scalar_int("SELECT sum(length(body)) FROM t"), rows * 900);
}

TEST(GatheringVfs, WritersUseItReadersDoNot) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  create_table(dir.file());
  ASSERT_NE(GatheringVfs::name(), nullptr);
  SqliteConnection writer(dir.file(), OpenMode::read_write, kBusy);
  SqliteConnection reader(dir.file(), OpenMode::read_only, kBusy);
  EXPECT_EQ(writer.vfs_name(), GatheringVfs::name());
  EXPECT_NE(reader.vfs_name(), GatheringVfs::name());
}

TEST(GatheringVfs, AReaderSeesEachCommitAsSoonAsItReturns) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string path = dir.file();
  create_table(path);
  SqliteConnection writer(path, OpenMode::read_write, kBusy);
  writer.execute("PRAGMA synchronous = NORMAL");
  SqliteConnection reader(path, OpenMode::read_only, kBusy);
  std::int64_t rows = 0;
  for (int txn = 1; txn <= 60; ++txn) {
    writer.execute("BEGIN IMMEDIATE");
    writer.execute(insert_rows(txn, rows_of(txn), 900));
    // Rows written earlier, on pages all over the table, change too.
    writer.execute("UPDATE t SET body = lower(body) WHERE id % 37 = " + std::to_string(txn % 37));
    writer.execute("COMMIT");
    rows += rows_of(txn);
    expect_rows(reader, rows);
    ASSERT_FALSE(HasFailure()) << "after transaction " << txn;
  }
  EXPECT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok");
}

TEST(GatheringVfs, AWriterKilledRightAfterACommitLosesNone) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string path = dir.file();
  create_table(path);
  int acks[2];
  ASSERT_EQ(pipe(acks), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Commits until killed, telling the parent each one that returned.
    close(acks[0]);
    try {
      SqliteConnection writer(path, OpenMode::read_write, kBusy);
      writer.execute("PRAGMA synchronous = NORMAL");
      for (int txn = 1;; ++txn) {
        writer.execute("BEGIN IMMEDIATE");
        writer.execute(insert_rows(txn, rows_of(txn), 900));
        writer.execute("COMMIT");
        if (write(acks[1], &txn, sizeof txn) != sizeof txn) _exit(3);
      }
    } catch (...) {
      _exit(2);
    }
  }
  close(acks[1]);
  int last = 0;
  int txn = 0;
  while (last < 40 && read(acks[0], &txn, sizeof txn) == sizeof txn) last = txn;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself: " << status;
  while (read(acks[0], &txn, sizeof txn) == sizeof txn) last = txn;
  close(acks[0]);
  ASSERT_GE(last, 40);

  SqliteConnection reader(path, OpenMode::read_only, kBusy);
  const std::int64_t stored = reader.scalar_int("SELECT max(txn) FROM t");
  EXPECT_GE(stored, last);
  for (int k = 1; k <= stored; ++k) {
    ASSERT_EQ(reader.scalar_int("SELECT count(*) FROM t WHERE txn = " + std::to_string(k)),
              rows_of(k))
        << "transaction " << k;
  }
  EXPECT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok");
}

TEST(GatheringVfs, SpilledPagesReadBackAndARollbackLeavesNothing) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string path = dir.file();
  create_table(path);
  SqliteConnection a(path, OpenMode::read_write, kBusy);
  SqliteConnection b(path, OpenMode::read_write, kBusy);
  // A cache of a few pages: a large transaction writes its pages into the
  // WAL before its commit (frames no commit marks).
  a.execute("PRAGMA cache_size = 10");
  SqliteConnection reader(path, OpenMode::read_only, kBusy);

  // Frames no commit marks, left behind by a rollback where the next
  // writer's commit goes; then the first writer writes again.
  std::int64_t rows = 0;
  int txn = 0;
  for (const int spilled : {12, 30, 60, 120}) {
    SCOPED_TRACE("rolled back after " + std::to_string(spilled) + " rows");
    a.execute("BEGIN IMMEDIATE");
    a.execute(insert_rows(1000, spilled, 900));
    a.execute("ROLLBACK");
    b.execute("BEGIN IMMEDIATE");
    b.execute(insert_rows(++txn, 30, 900));
    b.execute("COMMIT");
    a.execute(insert_rows(++txn, 1, 900));
    rows += 31;
    ASSERT_EQ(reader.scalar_int("SELECT count(*) FROM t WHERE txn = 1000"), 0);
    expect_rows(reader, rows);
    ASSERT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok");
  }

  // Pages spilled and read back in the same transaction.
  a.execute("BEGIN IMMEDIATE");
  a.execute(insert_rows(++txn, 400, 900));
  EXPECT_EQ(a.scalar_int("SELECT count(*) FROM t"), rows + 400);
  EXPECT_EQ(a.scalar_int("SELECT sum(length(body)) FROM t"), (rows + 400) * 900);
  a.execute("COMMIT");
  b.execute(insert_rows(++txn, 5, 900));
  rows += 405;
  expect_rows(reader, rows);
  EXPECT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok");
}

// The file refuses to grow (RLIMIT_FSIZE, as a full disk would) while a
// commit's gathered frames are written out: the commit fails, nothing of
// it is seen, and once the file may grow again the next commit goes in.
// Two commits: one whose frames are all gathered and written out at its
// commit frame, one larger than what is gathered at once.
TEST(GatheringVfs, ACommitWhoseFramesCannotBeWrittenFailsAndLeavesNothing) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string path = dir.file();
  create_table(path);
  SqliteConnection writer(path, OpenMode::read_write, kBusy);
  SqliteConnection reader(path, OpenMode::read_only, kBusy);
  writer.execute(insert_rows(1, 20, 900));
  std::int64_t rows = 20;
  int txn = 1;
  for (const int refused : {20, 300}) {
    struct stat wal {};
    ASSERT_EQ(stat((path + "-wal").c_str(), &wal), 0);
    rlimit before{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
    // Past the limit a write fails with EFBIG instead of the signal ending
    // the process.
    const auto old_handler = signal(SIGXFSZ, SIG_IGN);
    rlimit limited = before;
    limited.rlim_cur = static_cast<rlim_t>(wal.st_size) + 8 * 1024;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
    std::string error;
    try {
      writer.execute("BEGIN IMMEDIATE");
      writer.execute(insert_rows(++txn, refused, 900));
      writer.execute("COMMIT");
    } catch (const std::exception& e) {
      error = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &before);
    signal(SIGXFSZ, old_handler);
    EXPECT_FALSE(error.empty()) << refused << " rows went in past the limit";
    writer.abandon_transaction();
    EXPECT_EQ(reader.scalar_int("SELECT count(*) FROM t WHERE txn = " + std::to_string(txn)), 0);

    writer.execute(insert_rows(++txn, refused, 900));
    rows += refused;
    expect_rows(reader, rows);
  }
  EXPECT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok");
}

// Random transactions of two writers, against a model of the table: rows
// inserted, changed and deleted, some transactions rolled back after
// their pages spilled into the WAL, checkpoints of every kind in between
// (the WAL starting over from its header), synchronous NORMAL and FULL.
// After every step a plain reader sees exactly the model.
TEST(GatheringVfs, RandomTransactionsOfTwoWritersMatchAModel) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string path = dir.file();
  {
    SqliteConnection c(path, OpenMode::read_write, kBusy);
    EXPECT_EQ(c.scalar_text("PRAGMA journal_mode = WAL"), "wal");
    c.execute("CREATE TABLE r (id INTEGER PRIMARY KEY, ver INTEGER NOT NULL, body TEXT NOT NULL)");
  }
  SqliteConnection a(path, OpenMode::read_write, kBusy);
  SqliteConnection b(path, OpenMode::read_write, kBusy);
  a.execute("PRAGMA cache_size = 10");
  b.execute("PRAGMA cache_size = 200");
  SqliteConnection reader(path, OpenMode::read_only, kBusy);

  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> model;  // id -> (ver, length)
  std::mt19937 rng(20261127);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::int64_t next_id = 1;
  std::int64_t version = 0;
  for (int step = 0; step < 120; ++step) {
    SqliteConnection& c = pick(2) == 0 ? a : b;
    const int action = pick(10);
    if (action == 0) {
      static const char* const kinds[] = {"PASSIVE", "FULL", "RESTART", "TRUNCATE"};
      c.execute(std::string("PRAGMA wal_checkpoint(") + kinds[pick(4)] + ")");
      continue;
    }
    if (action == 1) {
      c.execute(pick(2) == 0 ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
      continue;
    }
    const bool roll_back = action == 2;
    auto changed = model;
    std::int64_t id = next_id;
    c.execute("BEGIN IMMEDIATE");
    const int inserts = pick(4) == 0 ? 40 + pick(60) : pick(12);
    for (int i = 0; i < inserts; ++i, ++id) {
      const std::int64_t length = 50 + pick(3000);
      ++version;
      c.execute("INSERT INTO r (id, ver, body) VALUES (" + std::to_string(id) + ", " +
                std::to_string(version) + ", substr(hex(zeroblob(" + std::to_string(length) +
                ")), 1, " + std::to_string(length) + "))");
      changed[id] = {version, length};
    }
    for (int i = 0, n = pick(8); i < n && !changed.empty(); ++i) {
      auto it = changed.begin();
      std::advance(it, pick(static_cast<int>(changed.size())));
      const std::int64_t length = 50 + pick(3000);
      ++version;
      c.execute("UPDATE r SET ver = " + std::to_string(version) + ", body = substr(hex(zeroblob(" +
                std::to_string(length) + ")), 1, " + std::to_string(length) +
                ") WHERE id = " + std::to_string(it->first));
      it->second = {version, length};
    }
    for (int i = 0, n = pick(3) + int(changed.size()) / 100; i < n && !changed.empty(); ++i) {
      auto it = changed.begin();
      std::advance(it, pick(static_cast<int>(changed.size())));
      c.execute("DELETE FROM r WHERE id = " + std::to_string(it->first));
      changed.erase(it);
    }
    if (roll_back) {
      c.execute("ROLLBACK");
    } else {
      c.execute("COMMIT");
      model = std::move(changed);
      next_id = id;
    }
    std::int64_t versions = 0;
    std::int64_t lengths = 0;
    for (const auto& [row, value] : model) {
      versions += value.first;
      lengths += value.second;
    }
    ASSERT_EQ(reader.scalar_int("SELECT count(*) FROM r"), std::int64_t(model.size())) << step;
    ASSERT_EQ(reader.scalar_int("SELECT coalesce(sum(ver), 0) FROM r"), versions) << step;
    ASSERT_EQ(reader.scalar_int("SELECT coalesce(sum(length(body)), 0) FROM r"), lengths) << step;
    if (step % 40 == 39) {
      ASSERT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok") << step;
    }
  }
  EXPECT_EQ(reader.scalar_text("PRAGMA integrity_check"), "ok");
}

}  // namespace
}  // namespace tilecrush::storage::testing
