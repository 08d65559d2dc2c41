// The PostgreSQL implementation of Connection, on libpq (its statements:
// pg_statement.hpp; the writer's pipeline: pg_pipeline.hpp).
//
// A broken session (the server restarted, the network dropped) is reset on
// the next use outside a transaction, and its statements are prepared
// again; what was running fails with StorageError, as any fault does. Inside
// a transaction it is never reset: that would run the rest of the
// transaction's statements, and its COMMIT, on a fresh session without the
// earlier ones; every statement fails instead until the transaction is
// abandoned. The claims role never reconnects by itself: its session's
// locks die with it, which its owner must notice (room_claims.hpp).
//
// Pipelines (the writer): begin_write()'s BEGIN, lock_keys()' lock and
// run_deferred()'s statements are queued in a PgPipeline and sent with the
// next statement whose answer is read (one round trip). A session that
// breaks inside a pipeline is closed: the next use outside a transaction
// opens a new one. BEGIN not sent yet leaves nothing to lose: begin_write()
// resets a broken session first.
//
// Thread safety: none (see Connection).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "connection.hpp"
#include "pg_pipeline.hpp"
#include "pg_statement.hpp"
#include "statement_cache.hpp"

struct pg_conn;
struct pg_result;

namespace tilecrush::storage::detail {

// writer: the write queue's session; reader: read-only; claims: the room
// claims' session (advisory locks only).
enum class PgRole { writer, reader, claims };

class PgConnection final : public Connection {
 public:
  // `url`: a libpq connection URI (postgresql://...). A reader's session is
  // read-only. Throws StorageError when the server cannot be reached.
  PgConnection(const std::string& url, PgRole role);
  ~PgConnection() override;
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  Dialect dialect() const override { return Dialect::postgres; }
  void execute(std::string_view sql) override;
  Query query(std::string_view sql) override;
  std::unique_ptr<Statement> prepare(std::string_view sql) override;
  std::int64_t last_insert_rowid() override;
  int changes() const override { return changes_; }
  bool in_transaction() const override;
  void begin_write() override;
  bool lock_keys(std::vector<std::int32_t> keys) override;
  bool locks_keys() const override { return role_ == PgRole::writer; }
  void begin_read() override;
  void abandon_transaction() noexcept override;
  void run_deferred(std::string_view sql) override;

 private:
  friend class PgStatement;
  // The live session, reset first when it broke; bumps generation_ then.
  pg_conn* session();
  void open_session();
  // Throws StorageError for a failed result (and frees it); a good one
  // stays the caller's to free.
  void check(pg_result* result, std::string_view what, std::string_view sql);
  std::string next_name() { return "tc" + std::to_string(++names_); }
  // Follows BEGIN / COMMIT / ROLLBACK run on the session (in_transaction_).
  void note_transaction_control(std::string_view sql);
  // The cached statement for `sql`, prepared on first use.
  PgStatement& cached(std::string_view sql);
  // Queues the cached statement for `sql` (one text parameter, or none) to
  // be sent before the next statement that is read.
  void defer(std::string_view sql, const std::string* parameter);
  // Sends the queued statements and then `last` (when given, with these
  // parameters) in one pipeline, and reads every answer. Returns last's
  // result (the caller's to free; nullptr without `last`); throws
  // StorageError for the first failure, closing a session that broke.
  pg_result* run_pipeline(PgStatement* last, const PgParameters& parameters);

  std::string url_;
  PgRole role_;
  pg_conn* conn_ = nullptr;
  std::uint64_t generation_ = 1;
  std::uint64_t names_ = 0;
  int changes_ = 0;
  // A transaction was begun on the session and not yet ended by COMMIT,
  // ROLLBACK or abandon_transaction().
  bool in_transaction_ = false;
  // Savepoints open in the transaction; keys locked outside any of them,
  // which only the transaction's end releases (a lock taken inside a
  // savepoint that is rolled back is released with it, so those are not
  // remembered).
  int savepoints_ = 0;
  std::vector<std::int32_t> held_;
  // Statements queued to be sent with the next one that is read
  // (pg_pipeline.hpp).
  PgPipeline pipeline_;
  StatementCache<PgStatement> cache_;
};

}  // namespace tilecrush::storage::detail
