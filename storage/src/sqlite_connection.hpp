// The SQLite implementation of Connection and Statement.
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
#include "statement_cache.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace tilecrush::storage::detail {

class SqliteStatement final : public Statement {
 public:
  SqliteStatement(sqlite3* db, std::string_view sql);
  ~SqliteStatement() override;

  void bind_blob(int index, std::span<const std::uint8_t> bytes) override;
  bool step() override;
  bool is_null(int column) const override;
  std::int64_t get_int(int column) const override;
  std::string get_text(int column) const override;
  std::vector<std::uint8_t> get_blob(int column) const override;
  void reset() noexcept override;

 protected:
  void bind_int(int index, std::int64_t value) override;
  void bind_text(int index, std::string_view text) override;
  void bind_null(int index) override;

 private:
  [[noreturn]] void fail(int code, std::string_view what) const;

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

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

 private:
  sqlite3* db_ = nullptr;
  std::function<void(int)> wal_hook_;
  StatementCache<SqliteStatement> cache_;
};

}  // namespace tilecrush::storage::detail
