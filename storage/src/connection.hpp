// One SQLite connection with its cache of prepared statements.
//
// Thread safety: none. A connection is used by one thread at a time (the
// writer thread, or a reader holding a pool lease); it is opened in SQLite's
// multi-thread mode, so handing it between threads under a lock is fine.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "statement.hpp"

struct sqlite3;

namespace tilecrush::storage::detail {

enum class OpenMode { read_write, read_only };

class Connection {
 public:
  // Throws StorageError when the file cannot be opened.
  Connection(const std::string& path, OpenMode mode, std::chrono::milliseconds busy_timeout);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs SQL text that takes no parameters (schema scripts, BEGIN, pragmas
  // with literal values written by storage): each statement in turn is
  // prepared and stepped to completion, and its rows are ignored.
  void execute(std::string_view sql);
  // The cached prepared statement for `sql` (prepared on first use), reset
  // when the returned Query ends.
  Query query(std::string_view sql);
  // A one-off statement, not cached.
  std::unique_ptr<Statement> prepare(std::string_view sql);

  // The first column of the first row of a parameterless statement such as
  // "PRAGMA user_version".
  std::int64_t scalar_int(std::string_view sql);
  std::string scalar_text(std::string_view sql);

  std::int64_t last_insert_rowid() const;
  int changes() const;
  // True inside an explicit transaction (false once SQLite rolled it back).
  bool in_transaction() const;

  // Calls `hook` with the WAL's size in pages after each commit, on the
  // committing thread, instead of SQLite's automatic checkpoint (which this
  // turns off). The hook may call checkpoint_and_restart() and must not throw.
  void on_wal_commit(std::function<void(int pages)> hook);
  // A RESTART checkpoint: waits (up to the busy timeout) for readers and
  // any other checkpoint, copies the whole WAL and makes the next write
  // start it over. Errors are left to the next one.
  void checkpoint_and_restart();

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>{}(text);
    }
  };

  sqlite3* db_ = nullptr;
  std::function<void(int)> wal_hook_;
  std::unordered_map<std::string, std::unique_ptr<Statement>, Hash, std::equal_to<>> cache_;
};

// BEGIN ... COMMIT around several reads so that they see one snapshot.
class ReadTransaction {
 public:
  explicit ReadTransaction(Connection& connection);
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;

 private:
  Connection& connection_;
};

}  // namespace tilecrush::storage::detail
