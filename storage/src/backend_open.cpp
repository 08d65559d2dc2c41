#include "backend_open.hpp"

#include "schema.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

std::unique_ptr<SqliteConnection> open_sqlite_writer(const Options& options, Settings& settings) {
  auto c =
      std::make_unique<SqliteConnection>(options.path, OpenMode::read_write, options.busy_timeout);
  const std::string mode = c->scalar_text("PRAGMA journal_mode = WAL");
  if (mode != "wal") throw StorageError("cannot use WAL: journal mode stays " + mode);
  c->execute(options.synchronous == Synchronous::full ? "PRAGMA synchronous = FULL"
                                                      : "PRAGMA synchronous = NORMAL");
  c->execute("PRAGMA foreign_keys = ON");
  // After a large batch the WAL file shrinks back to this once checkpointed.
  c->execute("PRAGMA journal_size_limit = 67108864");
  // The writer touches the rows of every live game: keep them in SQLite's
  // own cache rather than re-reading pages from the OS per write. 8 MiB
  // (2,048 pages) holds the pages of thousands of live games and the
  // indexes' upper levels; once full, SQLite reuses its page buffers
  // instead of allocating, so the process stays flat under load (a larger
  // cache kept filling with pages of long-ended games: bench/README.md,
  // "Memory through a day of play").
  c->execute("PRAGMA cache_size = -8192");
  migrate(*c, kSchemaVersion);

  settings.backend = "sqlite";
  settings.journal_mode = c->scalar_text("PRAGMA journal_mode");
  settings.synchronous = static_cast<int>(c->scalar_int("PRAGMA synchronous"));
  settings.foreign_keys = c->scalar_int("PRAGMA foreign_keys") != 0;
  settings.schema_version = schema_version(*c);
  return c;
}

// PostgreSQL commits durably (synchronous_commit on, its default) and
// always checks foreign keys; Synchronous::full changes nothing there.
std::unique_ptr<PgConnection> open_postgres_writer(const Options& options, Settings& settings) {
  auto c = std::make_unique<PgConnection>(options.path, PgRole::writer);
  migrate(*c, kSchemaVersion);
  settings.backend = "postgresql";
  settings.synchronous = c->scalar_text("SHOW synchronous_commit") == "off" ? 0 : 2;
  settings.foreign_keys = true;
  settings.schema_version = schema_version(*c);
  return c;
}

std::function<std::unique_ptr<Connection>()> reader_factory(const Options& options) {
  if (is_postgres_url(options.path)) {
    return [url = options.path] { return std::make_unique<PgConnection>(url, PgRole::reader); };
  }
  return [path = options.path, timeout = options.busy_timeout] {
    return std::make_unique<SqliteConnection>(path, OpenMode::read_only, timeout);
  };
}

}  // namespace tilecrush::storage::detail
