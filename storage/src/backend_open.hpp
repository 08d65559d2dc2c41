// Opening a backend: the writer connection with its settings and
// migrations, and the readers' connections, for a SQLite file or a
// PostgreSQL URL (database.cpp picks by Options::path).
//
// Thread safety: none; called by Database's constructor.
#pragma once

#include <functional>
#include <memory>

#include "pg_connection.hpp"
#include "sqlite_connection.hpp"
#include "tilecrush/storage/options.hpp"

namespace tilecrush::storage::detail {

// WAL, synchronous, foreign keys, cache; migrated; `settings` filled from
// what the connection reports. Throws StorageError.
std::unique_ptr<SqliteConnection> open_sqlite_writer(const Options& options, Settings& settings);
// Migrated; `settings` filled. Throws StorageError.
std::unique_ptr<PgConnection> open_postgres_writer(const Options& options, Settings& settings);
// Opens one reader connection of the backend `options.path` names.
std::function<std::unique_ptr<Connection>()> reader_factory(const Options& options);

}  // namespace tilecrush::storage::detail
