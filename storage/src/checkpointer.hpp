// Folds the WAL back into the main database file off the writer thread.
//
// A checkpoint ends with an fsync of the WAL and of the database file, which
// takes milliseconds on real disks; run by the writer (SQLite's automatic
// checkpoint), every move queued behind it waited that long. Instead the
// writer's connection reports each commit's WAL size through on_commit(),
// and once the WAL holds `pages` pages this thread runs a PASSIVE checkpoint
// on its own connection, which never blocks the writer or the readers.
//
// A passive checkpoint copies only what no reader still needs, and the WAL
// starts over from its beginning only once everything was copied while no
// write was under way; under a writer that never pauses the file could grow
// without bound. So past `pages * kForceFactor` pages, on_commit() runs a
// RESTART checkpoint on the writer's connection, right after its commit: it
// first waits for this thread's checkpoint if one is under way (SQLite
// would refuse a second checkpointer at once), then for readers, and makes
// the next transaction start the WAL over. The writer waits, but only once
// per kForceFactor * pages of WAL.
//
// Thread safety: on_commit() is called by the writer thread only; stop() by
// the owner, once, before the writer's connection closes.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "sqlite_connection.hpp"

namespace tilecrush::storage::detail {

class Checkpointer {
 public:
  static constexpr int kForceFactor = 16;

  // Opens its own connection to `path` (throws StorageError when it can't).
  Checkpointer(const std::string& path, int pages);
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // The writer's WAL holds `wal_pages` pages after a commit on `writer`.
  void on_commit(int wal_pages, SqliteConnection& writer);
  // Ends the thread (a checkpoint under way completes first). Idempotent.
  void stop();

  std::uint64_t checkpoints() const;

 private:
  void loop();

  SqliteConnection connection_;
  const int pages_;
  // Held while a checkpoint runs, by this thread or by a forcing writer.
  std::mutex running_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool wanted_ = false;
  bool stopping_ = false;
  std::uint64_t checkpoints_ = 0;
  std::thread thread_;  // starts once everything above exists
};

}  // namespace tilecrush::storage::detail
