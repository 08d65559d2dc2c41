// The SQLite implementation of Connection (its statements:
// sqlite_statement.hpp).
//
// Thread safety: none (see Connection). Opened in SQLite's multi-thread
// mode, so handing a connection between threads under a lock is fine.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "connection.hpp"
#include "sqlite_statement.hpp"
#include "statement_cache.hpp"

struct sqlite3;

namespace tilecrush::storage::detail {

enum class OpenMode { read_write, read_only };

class SqliteConnection final : public Connection {
 public:
  // Throws StorageError when the file cannot be opened.
  SqliteConnection(const std::string& path, OpenMode mode, std::chrono::milliseconds busy_timeout);
  ~SqliteConnection() override;

  void execute(std::string_view sql) override;
  Query query(std::string_view sql) override;
  std::unique_ptr<Statement> prepare(std::string_view sql) override;
  std::int64_t last_insert_rowid() override;
  int changes() const override;
  void release_memory() noexcept override;
  bool in_transaction() const override;
  void begin_write() override;
  void begin_read() override;
  void abandon_transaction() noexcept override;

  // Calls `hook` with the WAL's size in pages after each commit, on the
  // committing thread, instead of SQLite's automatic checkpoint (which this
  // turns off). The hook may call checkpoint_and_restart() and must not throw.
  void on_wal_commit(std::function<void(int pages)> hook);
  // A RESTART checkpoint: waits (up to the busy timeout) for readers and
  // any other checkpoint, copies the whole WAL and makes the next write
  // start it over. Errors are left to the next one.
  void checkpoint_and_restart();
  // The name of the VFS the connection's files go through (a writer's:
  // GatheringVfs).
  std::string vfs_name() const;

 private:
  sqlite3* db_ = nullptr;
  std::function<void(int)> wal_hook_;
  StatementCache<SqliteStatement> cache_;
};

}  // namespace tilecrush::storage::detail
