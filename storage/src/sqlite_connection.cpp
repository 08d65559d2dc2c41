#include "sqlite_connection.hpp"

#include <sqlite3.h>

#include "gathering_vfs.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

// SQLite counts the memory it allocates (sqlite3_memory_used) under one
// process-wide mutex, taken on every allocation and free: 8-10% of the
// writer thread's CPU per move (docs/capacity.md, "The writer's CPU per
// move"). Nothing here reads those counts. Only possible before SQLite
// initialises, so once, before the first connection opens; should
// something in the process have initialised it already, the call is
// refused and the counts stay on (slower, nothing else).
void configure_sqlite_once() {
  static const bool configured = [] {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
  }();
  (void)configured;
}

}  // namespace

SqliteConnection::SqliteConnection(const std::string& path, OpenMode mode,
                                   std::chrono::milliseconds busy_timeout)
    : Connection(Dialect::sqlite) {
  configure_sqlite_once();
  int flags = SQLITE_OPEN_NOMUTEX;
  flags |= mode == OpenMode::read_only ? SQLITE_OPEN_READONLY
                                       : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  // A connection that writes writes its WAL through GatheringVfs: a
  // commit's frames in one system call (gathering_vfs.hpp).
  const char* vfs = mode == OpenMode::read_write ? GatheringVfs::name() : nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, vfs);
  if (rc != SQLITE_OK) {
    std::string message = "cannot open database " + path + ": ";
    message += db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StorageError(message, rc);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout.count()));
}

SqliteConnection::~SqliteConnection() {
  cache_.clear();  // finalize every statement before closing
  sqlite3_close_v2(db_);
}

void SqliteConnection::on_wal_commit(std::function<void(int pages)> hook) {
  wal_hook_ = std::move(hook);
  sqlite3_wal_hook(
      db_,
      [](void* self, sqlite3*, const char*, int pages) {
        static_cast<SqliteConnection*>(self)->wal_hook_(pages);
        return SQLITE_OK;
      },
      this);
}

void SqliteConnection::checkpoint_and_restart() {
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_RESTART, nullptr, nullptr);
}

std::string SqliteConnection::vfs_name() const {
  sqlite3_vfs* vfs = nullptr;
  sqlite3_file_control(db_, "main", SQLITE_FCNTL_VFS_POINTER, &vfs);
  return vfs != nullptr && vfs->zName != nullptr ? vfs->zName : "";
}

void SqliteConnection::execute(std::string_view sql) {
  while (!sql.empty()) {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, &tail);
    if (rc != SQLITE_OK) {
      throw StorageError(std::string("prepare failed: ") + sqlite3_errmsg(db_),
                         sqlite3_extended_errcode(db_));
    }
    sql.remove_prefix(static_cast<std::size_t>(tail - sql.data()));
    if (stmt == nullptr) continue;  // whitespace or a comment
    int step_rc = SQLITE_ROW;
    while (step_rc == SQLITE_ROW) step_rc = sqlite3_step(stmt);
    if (step_rc != SQLITE_DONE) {
      std::string message =
          std::string("execute failed: ") + sqlite3_errmsg(db_) + " (" + sqlite3_sql(stmt) + ")";
      sqlite3_finalize(stmt);
      throw StorageError(message, step_rc);
    }
    sqlite3_finalize(stmt);
  }
}

Query SqliteConnection::query(std::string_view sql) {
  return Query(cache_.get(sql, [&] { return std::make_unique<SqliteStatement>(db_, sql); }));
}

std::unique_ptr<Statement> SqliteConnection::prepare(std::string_view sql) {
  return std::make_unique<SqliteStatement>(db_, sql);
}

std::int64_t SqliteConnection::last_insert_rowid() {
  return sqlite3_last_insert_rowid(db_);
}

int SqliteConnection::changes() const {
  return sqlite3_changes(db_);
}

void SqliteConnection::release_memory() noexcept {
  sqlite3_db_release_memory(db_);
}

bool SqliteConnection::in_transaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}

void SqliteConnection::begin_write() {
  query("BEGIN IMMEDIATE")->run();
}

void SqliteConnection::begin_read() {
  query("BEGIN")->run();
}

void SqliteConnection::abandon_transaction() noexcept {
  if (!in_transaction()) return;
  try {
    query("ROLLBACK")->run();
  } catch (const StorageError&) {
  }
}

}  // namespace tilecrush::storage::detail
