// How a Database is opened (Options), what it reports after opening
// (Settings), and the schema version this build writes: what storage's own
// files need of the facade (database.hpp) without the facade itself.
//
// Thread safety: plain values and constants.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::storage {

enum class Synchronous : std::uint8_t { normal, full };

// The writer's group commit with a linger (write_queue.hpp): when
// operations have been arriving fast, the writer waits a moment before it
// takes a short queue, so that one commit carries more of them. It never
// waits below `min_rate`, so a lightly loaded server answers as soon as it
// can; an idle-to-busy change takes one measuring window (50 ms) to show.
struct Linger {
  // The longest the writer waits after a commit for the queue to fill: no
  // operation is delayed longer than this by the linger. 0 turns it off.
  std::chrono::microseconds bound{0};
  // Operations a second (taken by the writer over its last 50 ms window)
  // at or above which the writer lingers.
  double min_rate = 0;
  // The writer stops waiting as soon as this many operations are queued.
  std::size_t batch = 32;
};
// Defaults, chosen by measurement (docs/capacity.md, "Group commit with a
// linger"): 1 ms on both (on PostgreSQL 2 ms gave a p99 over 10 ms at a
// paced 4,000 moves/s). A PostgreSQL commit costs ~300 µs of its CPU
// against ~10 µs of writer CPU for SQLite, so PostgreSQL starts lingering
// at a lower rate: 1,500, so that two nodes sharing a paced 4,000 moves/s
// (about 1,800 each) linger too (at 2,000 they did not: 2.6-2.8 moves a
// commit, against 5.0-5.1 now); neither does at 1,000 operations a second.
inline constexpr Linger kSqliteLinger{std::chrono::microseconds(1000), 5000, 32};
inline constexpr Linger kPostgresLinger{std::chrono::microseconds(1000), 1500, 32};

// Told on the writer thread around the callbacks of each batch, after its
// commit (or its failure): whatever those callbacks hand to other threads
// may be gathered between begin and end and passed on once a batch (the
// server wakes each network thread once a batch, not once an answer). Both
// are called once a batch, in that order; neither may throw or call into
// the Database.
class CompletionObserver {
 public:
  virtual void completions_begin() noexcept = 0;
  virtual void completions_end() noexcept = 0;

 protected:
  ~CompletionObserver() = default;
};

struct Options {
  // A file path (created when missing, unless read_only). Not ":memory:":
  // the readers need to share the writer's file. Or a libpq URL
  // (postgresql://user@host:port/database?...) of an existing database:
  // PostgreSQL is used then, and the schema is created in it.
  std::string path;
  // No writer thread and no migrations: for a second handle (or process)
  // reading a database another Database writes. Writes are refused with
  // WriteStatus::closed. The schema must be at kSchemaVersion.
  bool read_only = false;
  Synchronous synchronous = Synchronous::normal;
  std::chrono::milliseconds busy_timeout{5000};
  std::size_t readers = 4;       // read connections in the pool (>= 1)
  std::size_t max_batch = 1024;  // operations per write transaction (>= 1)
  // When the writer waits for more operations before a commit (Linger
  // above); unset: kSqliteLinger or kPostgresLinger, by the backend.
  std::optional<Linger> linger{};
  // The WAL is copied back into the main file by a thread of its own once
  // it holds this many pages (4 KiB each), so the writer never waits for a
  // checkpoint's fsyncs; at 16 times this the writer waits for a full one
  // that starts the WAL over.
  int checkpoint_pages = 4000;
  // Leaderboard keys held in memory by the rank cache (about 40 bytes each),
  // over every board read lately: a board's rank, page and around-me then
  // cost O(log n) instead of O(offset). A board larger than this is read by
  // the plain ordered scan; 0 turns the cache off.
  std::size_t rank_cache_keys = 4'000'000;
  // Told around each batch's callbacks (CompletionObserver above); must
  // outlive the Database. Null: nobody is told.
  CompletionObserver* completions = nullptr;
};

// What the writer connection reports after open (read back, not assumed).
struct Settings {
  std::string backend;       // "sqlite" or "postgresql"
  std::string journal_mode;  // "wal" (SQLite only)
  // 1 NORMAL, 2 FULL (0 for a read-only handle); PostgreSQL: 2 when
  // synchronous_commit is on, 0 when off.
  int synchronous = 0;
  bool foreign_keys = false;
  int schema_version = 0;
};

// True when `path` names a PostgreSQL database (postgresql:// or
// postgres://) rather than a SQLite file.
bool is_postgres_url(std::string_view path);

// The schema version this build writes (PRAGMA user_version; PostgreSQL:
// the table schema_version).
inline constexpr int kSchemaVersion = 13;

}  // namespace tilecrush::storage
