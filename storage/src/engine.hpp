// The working parts under a Database: the writer's connection and thread,
// the checkpointer, the reader pool, the rank cache and the room claims.
// It opens them (migrating the schema), queues writes, lends readers and
// closes them; Database (database.cpp) turns each operation into a queued
// write or a read through it, and reaches its parts directly.
//
// Thread safety: enqueue(), push() and read() may be called from any
// thread, also during and after close() (writes are then refused through
// their callback, reads throw). close() may be called from any thread and
// more than once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "checkpointer.hpp"
#include "codec.hpp"
#include "connection.hpp"
#include "rank_cache.hpp"
#include "reader_pool.hpp"
#include "room_claims.hpp"
#include "tilecrush/storage/options.hpp"
#include "tilecrush/storage/write_results.hpp"
#include "write_queue.hpp"

namespace tilecrush::storage::detail {

struct Engine {
  // Opens the backend `options.path` names: the writer (migrated to this
  // build's schema) unless read-only, then the readers. A read-only handle
  // refuses a schema other than this build's. Throws StorageError.
  explicit Engine(Options options);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Commits what is queued, stops the threads, closes the readers and (on
  // SQLite) folds the WAL into the main file. Later calls do nothing.
  void close();

  Options options;
  Settings settings;
  // Writer side: absent for a read-only handle. The connection is used by the
  // writer thread only, then by close() once that thread has ended.
  std::unique_ptr<Connection> writer_connection;
  // SQLite only. Stopped by close(), kept until destruction (metrics()
  // reads it).
  std::unique_ptr<Checkpointer> checkpointer;
  std::unique_ptr<WriteQueue> writer;
  // Built once and kept until destruction, so close() never races a reader
  // over the pointer; the pool itself refuses leases after close().
  std::unique_ptr<ReaderPool> readers;
  std::unique_ptr<RankCache> ranks;
  std::unique_ptr<RoomClaims> claims;
  std::mutex close_mutex;
  bool closed = false;

  // `single_statement`: `run` executes one statement and changes nothing
  // when it fails (SQLite undoes a failed statement by itself), so it needs
  // no savepoint of its own.
  // `lock_keys`, `game`: see WriteOp.
  void enqueue(std::function<WriteResult(Connection&)> run, WriteCallback done,
               bool single_statement = false,
               std::function<void(Connection&, std::vector<std::int32_t>&)> lock_keys = {},
               std::string game = {}) {
    push(WriteOp{std::move(run), std::move(done), single_statement, std::move(lock_keys),
                 std::nullopt, std::move(game)});
  }

  // enqueue() of `operation(writer connection, args...)`, its arguments kept
  // by value until it runs.
  template <class F, class... Args>
  void write(F operation, WriteCallback done, Args... args) {
    enqueue(
        [operation, ... args = std::move(args)](Connection& c) { return operation(c, args...); },
        std::move(done));
  }

  void push(WriteOp&& op) {
    if (writer && writer->push(std::move(op))) return;
    if (op.done) {
      op.done(write_error(WriteStatus::closed,
                          writer ? "database is closed" : "database is read-only"));
    }
  }

  RankCache* rank_cache() { return ranks.get(); }

  // `operation(reader connection, args...)` on a reader leased for the call.
  template <class F, class... Args>
  auto read(F&& operation, Args&&... args) {
    auto lease = readers->acquire();
    return operation(*lease, std::forward<Args>(args)...);
  }
};

}  // namespace tilecrush::storage::detail
