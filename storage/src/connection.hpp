// One database connection with its cache of prepared statements: the
// interface every store function is written against. SqliteConnection and
// PgConnection implement it.
//
// SQL text is shared between the backends where the two dialects agree
// (almost everywhere); where they differ, a store picks its text by
// dialect(). Either way every SQL string lives in storage/.
//
// Thread safety: none. A connection is used by one thread at a time (the
// writer thread, or a reader holding a pool lease); handing it between
// threads under a lock is fine.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "statement.hpp"

namespace tilecrush::storage::detail {

enum class Dialect { sqlite, postgres };

// The code StorageError carries for PostgreSQL's serialization failure and
// deadlock (SQLSTATE 40001, 40P01): the writer runs such a batch again
// (write locks are taken in one order, so a deadlock needs a lock no batch
// announced beforehand). SQLite codes are never negative.
inline constexpr int kRetryableConflict = -40001;

class Connection {
 public:
  // A connection speaks one dialect for its whole life: stores ask it on
  // nearly every statement they pick, so it is a value, not a virtual call.
  explicit Connection(Dialect dialect) : dialect_(dialect) {}
  virtual ~Connection() = default;
  // It owns its handle or session and the statements cached on it.
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Dialect dialect() const { return dialect_; }
  bool postgres() const { return dialect_ == Dialect::postgres; }

  // Runs SQL text that takes no parameters (schema scripts, BEGIN, settings
  // with literal values written by storage), every statement of it in turn;
  // rows are ignored.
  virtual void execute(std::string_view sql) = 0;
  // The cached prepared statement for `sql` (prepared on first use), reset
  // when the returned Query ends.
  virtual Query query(std::string_view sql) = 0;
  // A one-off statement, not cached.
  virtual std::unique_ptr<Statement> prepare(std::string_view sql) = 0;

  // Runs the cached statement `sql` with `values` bound to ?1, ?2, ...
  // (bind_all()); rows are ignored, changes() tells what it changed.
  template <class... Values>
  void run(std::string_view sql, const Values&... values) {
    Query q = query(sql);
    bind_all(*q, values...);
    q->run();
  }
  // run() of a write nobody reads anything of, which may go with the next
  // statement whose answer is read (Statement::run_later(): its failure
  // then loses the transaction).
  template <class... Values>
  void run_later(std::string_view sql, const Values&... values) {
    Query q = query(sql);
    bind_all(*q, values...);
    q->run_later();
  }
  // The first row of the cached statement `sql` with `values` bound to ?1,
  // ?2, ..., as `read(row)` makes it; nullopt when there is no row.
  template <class Read, class... Values>
  auto first_row(std::string_view sql, Read&& read, const Values&... values)
      -> std::optional<std::decay_t<decltype(read(std::declval<const Statement&>()))>> {
    Query q = query(sql);
    bind_all(*q, values...);
    if (!q->step()) return std::nullopt;
    return read(*q);
  }
  // Every row of the cached statement `sql` with `values` bound to ?1, ?2,
  // ..., in order, as `read(row)` makes each.
  template <class Read, class... Values>
  auto rows(std::string_view sql, Read&& read, const Values&... values)
      -> std::vector<std::decay_t<decltype(read(std::declval<const Statement&>()))>> {
    Query q = query(sql);
    bind_all(*q, values...);
    std::vector<std::decay_t<decltype(read(std::declval<const Statement&>()))>> out;
    while (q->step()) out.push_back(read(*q));
    return out;
  }

  // The first column of the first row of a parameterless statement.
  std::int64_t scalar_int(std::string_view sql);
  std::string scalar_text(std::string_view sql);

  // The id the last INSERT on this connection gave its row.
  virtual std::int64_t last_insert_rowid() = 0;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  virtual int changes() const = 0;
  // True inside an explicit transaction that can still commit (false once
  // the backend rolled it back, or, on PostgreSQL, once a statement failed
  // outside a savepoint: call abandon_transaction() then).
  virtual bool in_transaction() const = 0;

  // Starts a write transaction. SQLite: BEGIN IMMEDIATE, its one write
  // lock. PostgreSQL: a READ COMMITTED transaction that locks nothing by
  // itself; writers of several nodes run at the same time, and what must
  // happen once is made once by the rows that carry it (conditional
  // updates, unique keys, upserts) or by lock_keys() (storage/README.md).
  virtual void begin_write() = 0;
  // Inside a write transaction: waits until no other write transaction, of
  // any node, holds one of `keys` (lock_key()), then holds them until the
  // transaction ends (PostgreSQL: transaction-scoped advisory locks, taken
  // in ascending order; keys already held cost nothing). Every statement
  // run after it sees what the previous holders committed. Does nothing on
  // SQLite, whose writes are serialised already. True when it took a key
  // not held before (what was read before it may be stale then).
  virtual bool lock_keys(std::vector<std::int32_t> keys) {
    (void)keys;
    return false;
  }
  // Inside a write transaction: runs a parameterless statement whose
  // answer nobody reads (SAVEPOINT, RELEASE). PostgreSQL's writer sends it
  // with the next statement whose answer is read, in one pipeline (one
  // round trip for all; so do begin_write() and lock_keys()): a failure of
  // it is then thrown by that statement instead of the statement's own,
  // and the transaction is lost. SQLite runs it at once.
  virtual void run_deferred(std::string_view sql) { query(sql)->run(); }
  // Whether lock_keys() would take anything (false on SQLite).
  virtual bool locks_keys() const { return false; }
  // Starts a read transaction in which every statement sees one snapshot.
  virtual void begin_read() = 0;
  // Rolls back whatever transaction is open, failed or not. Never throws.
  virtual void abandon_transaction() noexcept = 0;
  // Frees what the connection caches and does not need (SQLite's page
  // cache, outside a transaction); the cache fills again on use. Never
  // throws. Nothing to free on PostgreSQL, whose cache is the server's.
  virtual void release_memory() noexcept {}

 private:
  Dialect dialect_;
};

// The lock key of `name` (a board, a player...: see stores.hpp's *_lock()),
// 32 bits of its FNV-1a hash. Two names sharing a key only serialise more
// than needed.
std::int32_t lock_key(std::string_view name);

// begin_read() ... COMMIT around several reads so that they see one
// snapshot.
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
