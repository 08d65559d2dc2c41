#include "schema.hpp"

#include <array>
#include <string>
#include <string_view>

#include "migrations.hpp"
#include "tilecrush/storage/error.hpp"
#include "tilecrush/storage/options.hpp"

namespace tilecrush::storage::detail {
namespace {}  // namespace

int schema_version(Connection& connection) {
  if (connection.postgres()) return postgres_schema_version(connection);
  return static_cast<int>(connection.scalar_int("PRAGMA user_version"));
}

void refuse_newer(int version) {
  if (version > kSchemaVersion) {
    throw StorageError("database schema version " + std::to_string(version) +
                       " is newer than this build's " + std::to_string(kSchemaVersion));
  }
}

void migrate(Connection& connection, int target) {
  if (connection.postgres()) {
    migrate_postgres(connection, target);
    return;
  }
  if (target > kSchemaVersion) target = kSchemaVersion;
  const int start = schema_version(connection);
  refuse_newer(start);
  for (int next = start + 1; next <= target; ++next) {
    connection.execute("BEGIN IMMEDIATE");
    try {
      // Re-read under the write lock: another process may have migrated.
      const int current = schema_version(connection);
      refuse_newer(current);
      if (current == next - 1) {
        connection.execute(sqlite_migrations()[static_cast<std::size_t>(next - 1)]);
        // PRAGMA takes no parameters; the value is this build's constant.
        connection.execute("PRAGMA user_version = " + std::to_string(next));
      }
      connection.execute("COMMIT");
    } catch (...) {
      if (connection.in_transaction()) connection.execute("ROLLBACK");
      throw;
    }
  }
}

}  // namespace tilecrush::storage::detail
