// The PostgreSQL schema and its versioned migrations.
//
// PostgreSQL support starts at schema version 6: its first migration
// creates the whole version-6 schema at once (there are no older
// PostgreSQL databases to upgrade). Every later version is one more step:
// SQLite's step in PostgreSQL's spelling (pg_migrations.cpp), and both
// backends record the same version numbers. Migrator (migrator.hpp) applies the steps; this
// file says where the version lives and how nodes starting at once apply
// each step once.
//
// Types: every integer is BIGINT (SQLite's INTEGER is 64-bit), booleans
// stay 0/1 integers, blobs are BYTEA. Names are unique ignoring ASCII case
// only, as in SQLite's NOCASE: lower() under the "C" collation folds A-Z
// and nothing else, whatever the database's locale.
#include <string>
#include <string_view>

#include "migrations.hpp"
#include "migrator.hpp"
#include "schema.hpp"

namespace tilecrush::storage::detail {
namespace {

// Any constant, the same for every node: serialises migrations.
constexpr std::string_view kLock = R"sql(
SELECT pg_advisory_xact_lock(7243001)
)sql";

// The version lives in the table schema_version; every missing step runs
// in one transaction (PostgreSQL's DDL is transactional: all or nothing)
// under an advisory lock.
class PostgresSchema final : public SchemaKeeper {
 public:
  std::span<const std::string_view> steps() const override { return postgres_migrations(); }
  int first_version() const override { return kPgFirstVersion; }
  Grouping grouping() const override { return Grouping::one_transaction; }

  int version(Connection& c) const override {
    return static_cast<int>(
        c.scalar_int("SELECT CASE WHEN to_regclass('schema_version') IS NULL THEN 0 "
                     "ELSE (SELECT coalesce(max(version), 0) FROM schema_version) END"));
  }
  int begin_locked(Connection& c) const override {
    c.execute("BEGIN");
    c.execute(kLock);
    c.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)");
    return static_cast<int>(c.scalar_int("SELECT coalesce(max(version), 0) FROM schema_version"));
  }
  void record(Connection& c, int version) const override {
    c.execute("DELETE FROM schema_version");
    // The version is this build's constant, not a value from outside.
    c.execute("INSERT INTO schema_version VALUES (" + std::to_string(version) + ")");
  }
};

}  // namespace

const SchemaKeeper& postgres_schema() {
  static const PostgresSchema keeper;
  return keeper;
}

}  // namespace tilecrush::storage::detail
