// The migration loop, written once for both backends: a SchemaKeeper says
// where a backend keeps its schema's version, how it keeps other migrators
// out and which SQL steps it has; the Migrator reads the version, refuses a
// newer one and applies the missing steps in order, each run of them in a
// transaction that first re-reads the version under the backend's lock, so
// that reopening, or two processes (or nodes) opening one database at once,
// applies each step once.
//
// Thread safety: none; runs on the connection's owning thread.
#pragma once

#include <span>
#include <string_view>

#include "connection.hpp"

namespace tilecrush::storage::detail {

// One backend's schema: its steps and its version's keeping (schema.cpp for
// SQLite, pg_schema.cpp for PostgreSQL).
class SchemaKeeper {
 public:
  // How many steps share a transaction.
  enum class Grouping {
    // Each reached version is committed at once; the version is read first
    // without the lock, so that a schema up to date takes no write lock.
    transaction_per_step,
    // All or nothing (DDL that is transactional); every run takes the lock
    // and reads the version inside it only (begin_locked() may create what
    // holds the version).
    one_transaction,
  };

  virtual ~SchemaKeeper() = default;

  // Step i brings the schema to version first_version() + i; the first step
  // also brings a schema of any older version (0: none) there.
  virtual std::span<const std::string_view> steps() const = 0;
  virtual int first_version() const = 0;
  virtual Grouping grouping() const = 0;

  // The stored version, 0 for an empty database; takes no lock (PostgreSQL:
  // once the version's table exists).
  virtual int version(Connection& connection) const = 0;
  // Begins a write transaction that no other migrator can enter until it
  // ends, and returns the version read inside it.
  virtual int begin_locked(Connection& connection) const = 0;
  // Inside that transaction: records `version` as the stored version.
  virtual void record(Connection& connection, int version) const = 0;
};

class Migrator {
 public:
  Migrator(Connection& connection, const SchemaKeeper& keeper)
      : connection_(connection), keeper_(keeper) {}

  // Applies every step above the stored version up to `target` (at most
  // kSchemaVersion). Throws StorageError when the stored version is newer
  // than this build's, before or during the migration; a failed transaction
  // is rolled back and its error rethrown.
  void run(int target);

 private:
  // One transaction: re-reads the version under the lock and applies the
  // steps up to `upto`; returns the version stored afterwards.
  int advance(int upto);

  Connection& connection_;
  const SchemaKeeper& keeper_;
};

}  // namespace tilecrush::storage::detail
