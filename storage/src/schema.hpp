// The schema and its versioned migrations (PRAGMA user_version).
//
// Migration n brings the schema from version n-1 to n. Each runs in its own
// write transaction that first re-reads the version, so reopening, or two
// processes opening the same file at once, applies each migration once.
//
// Thread safety: none; runs on the connection's owning thread.
#pragma once

#include "connection.hpp"

namespace tilecrush::storage::detail {

// Applies every migration above the current version up to `target`. Throws
// StorageError when the file's version is newer than this build's.
void migrate(Connection& connection, int target);

int schema_version(Connection& connection);

// Throws StorageError when `version` is newer than this build's
// kSchemaVersion (both backends, before and during a migration).
void refuse_newer(int version);

// The same for PostgreSQL (pg_schema.cpp); migrate() and schema_version()
// call them for a PostgreSQL connection.
void migrate_postgres(Connection& connection, int target);
int postgres_schema_version(Connection& connection);

}  // namespace tilecrush::storage::detail
