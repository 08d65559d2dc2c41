// The PostgreSQL implementation of Connection, on libpq (its session:
// pg_session.hpp; its statements: pg_statement.hpp; the writer's pipeline:
// pg_pipeline.hpp).
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
#include "pg_session.hpp"
#include "pg_statement.hpp"
#include "statement_cache.hpp"

namespace tilecrush::storage::detail {

class PgConnection final : public Connection {
 public:
  // `url`: a libpq connection URI (postgresql://...). A reader's session is
  // read-only. Throws StorageError when the server cannot be reached.
  PgConnection(const std::string& url, PgRole role);
  ~PgConnection() override;

  void execute(std::string_view sql) override;
  Query query(std::string_view sql) override;
  std::unique_ptr<Statement> prepare(std::string_view sql) override;
  std::int64_t last_insert_rowid() override;
  int changes() const override { return session_.changes(); }
  bool in_transaction() const override;
  void begin_write() override;
  bool lock_keys(std::vector<std::int32_t> keys) override;
  bool locks_keys() const override { return session_.role() == PgRole::writer; }
  void begin_read() override;
  void abandon_transaction() noexcept override;
  void run_deferred(std::string_view sql) override;

 private:
  // The cached statement for `sql`, prepared on first use.
  PgStatement& cached(std::string_view sql);
  // Queues the cached statement for `sql` (one text parameter, or none) to
  // be sent before the next statement that is read.
  void defer(std::string_view sql, const std::string* parameter);

  // Declared first: the statements cached below end before it.
  PgSession session_;
  StatementCache<PgStatement> cache_;
};

}  // namespace tilecrush::storage::detail
