#include "engine.hpp"

#include <string>
#include <utility>

#include "backend_open.hpp"
#include "schema.hpp"
#include "sqlite_connection.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

Engine::Engine(Options opened) : options(std::move(opened)) {
  const bool postgres = is_postgres_url(options.path);
  SqliteConnection* sqlite_writer = nullptr;
  if (!options.read_only) {
    if (postgres) {
      writer_connection = open_postgres_writer(options, settings);
    } else {
      auto sqlite = open_sqlite_writer(options, settings);
      sqlite_writer = sqlite.get();
      writer_connection = std::move(sqlite);
    }
  }
  ranks = std::make_unique<RankCache>(options.rank_cache_keys);
  claims = std::make_unique<RoomClaims>(postgres ? options.path : std::string());
  readers = std::make_unique<ReaderPool>(reader_factory(options), options.readers);
  if (options.read_only) {
    read([&](Connection& c) {
      settings.backend = postgres ? "postgresql" : "sqlite";
      if (!postgres) settings.journal_mode = c.scalar_text("PRAGMA journal_mode");
      settings.schema_version = schema_version(c);
    });
    if (settings.schema_version != kSchemaVersion) {
      throw StorageError("database schema version " + std::to_string(settings.schema_version) +
                         ", this build reads " + std::to_string(kSchemaVersion));
    }
    return;
  }
  if (sqlite_writer != nullptr) {
    checkpointer = std::make_unique<Checkpointer>(options.path, options.checkpoint_pages);
    Checkpointer& wal = *checkpointer;
    sqlite_writer->on_wal_commit(
        [sqlite_writer, &wal](int pages) { wal.on_commit(pages, *sqlite_writer); });
  }
  const Linger linger = options.linger.value_or(postgres ? kPostgresLinger : kSqliteLinger);
  writer = std::make_unique<WriteQueue>(*writer_connection, options.max_batch, linger,
                                        options.completions);
}

void Engine::close() {
  std::lock_guard lock(close_mutex);
  if (closed) return;
  closed = true;
  if (writer) writer->stop();
  if (checkpointer) checkpointer->stop();
  readers->close();
  if (writer_connection && !writer_connection->postgres()) {
    try {
      // Fold the WAL into the main file so the file alone holds everything.
      writer_connection->execute("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (const StorageError&) {
      // Nothing is lost: the WAL stays and is replayed on the next open.
    }
    writer_connection.reset();
  }
}

}  // namespace tilecrush::storage::detail
