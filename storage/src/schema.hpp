// The schema and its versioned migrations (SQLite: PRAGMA user_version;
// PostgreSQL: pg_schema.cpp).
//
// Migration n brings the schema from version n-1 to n; migrator.hpp's loop
// applies them. On SQLite each runs in its own write transaction that first
// re-reads the version, so reopening, or two processes opening the same file
// at once, applies each migration once.
//
// Thread safety: none; runs on the connection's owning thread.
#pragma once

#include "connection.hpp"
#include "migrator.hpp"

namespace tilecrush::storage::detail {

// Applies every migration above the current version up to `target`. Throws
// StorageError when the file's version is newer than this build's.
void migrate(Connection& connection, int target);

int schema_version(Connection& connection);

// PostgreSQL's steps and version keeping (pg_schema.cpp): migrate() and
// schema_version() use it for a PostgreSQL connection.
const SchemaKeeper& postgres_schema();

}  // namespace tilecrush::storage::detail
