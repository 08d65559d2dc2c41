// The PostgreSQL schema and its versioned migrations.
//
// PostgreSQL support starts at schema version 6: its first migration
// creates the whole version-6 schema at once (there are no older
// PostgreSQL databases to upgrade). Every later version is one more step
// here, beside its SQLite step in schema.cpp, and both backends record the
// same version numbers. The version lives in the table schema_version; a
// migration runs in one transaction (PostgreSQL's DDL is transactional)
// under an advisory lock, so nodes starting at once apply each step once.
//
// Types: every integer is BIGINT (SQLite's INTEGER is 64-bit), booleans
// stay 0/1 integers, blobs are BYTEA. Names are unique ignoring ASCII case
// only, as in SQLite's NOCASE: lower() under the "C" collation folds A-Z
// and nothing else, whatever the database's locale.
#include <array>
#include <string>
#include <string_view>

#include "migrations.hpp"
#include "schema.hpp"
#include "tilecrush/storage/error.hpp"
#include "tilecrush/storage/options.hpp"

namespace tilecrush::storage::detail {
namespace {

// Any constant, the same for every node: serialises migrations.
constexpr std::string_view kLock = "SELECT pg_advisory_xact_lock(7243001)";

int read_version(Connection& c) {
  c.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)");
  return static_cast<int>(c.scalar_int("SELECT coalesce(max(version), 0) FROM schema_version"));
}

}  // namespace

int postgres_schema_version(Connection& c) {
  return static_cast<int>(
      c.scalar_int("SELECT CASE WHEN to_regclass('schema_version') IS NULL THEN 0 "
                   "ELSE (SELECT coalesce(max(version), 0) FROM schema_version) END"));
}

void migrate_postgres(Connection& c, int target) {
  if (target > kSchemaVersion) target = kSchemaVersion;
  c.execute("BEGIN");
  try {
    c.execute(kLock);
    const int start = read_version(c);
    refuse_newer(start);
    for (int next = std::max(start + 1, kPgFirstVersion); next <= target; ++next) {
      c.execute(postgres_migrations()[static_cast<std::size_t>(next - kPgFirstVersion)]);
    }
    if (target > start) {
      c.execute("DELETE FROM schema_version");
      // The version is this build's constant, not a value from outside.
      c.execute("INSERT INTO schema_version VALUES (" + std::to_string(target) + ")");
    }
    c.execute("COMMIT");
  } catch (...) {
    c.abandon_transaction();
    throw;
  }
}

}  // namespace tilecrush::storage::detail
