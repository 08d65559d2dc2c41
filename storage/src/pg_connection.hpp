// The PostgreSQL implementation of Connection and Statement, on libpq.
//
// Every statement is prepared on the server (PQprepare) once per session
// and run with PQexecPrepared: values travel as parameters, never in the
// SQL text. The shared SQL numbers its parameters ?1, ?2, ...; a statement
// rewrites them to $1, $2, ... densely (a statement that names ?11 but not
// ?5 gets $5 for ?11), and bind() of a number the text never names is
// ignored, so the same binding code serves both dialects.
//
// A broken session (the server restarted, the network dropped) is reset on
// the next use outside a transaction, and its statements are prepared
// again; what was running fails with StorageError, as any fault does. Inside
// a transaction it is never reset: that would run the rest of the
// transaction's statements, and its COMMIT, on a fresh session without the
// earlier ones; every statement fails instead until the transaction is
// abandoned. The claims role never
// reconnects by itself: its session's locks die with it, which its owner
// must notice (room_claims.hpp).
//
// Pipelines (the writer): begin_write()'s BEGIN, lock_keys()' lock and
// run_deferred()'s statements are not sent at once but queued, and sent
// with the next statement whose answer is read, in libpq's pipeline mode:
// all of them, then one sync, then every answer read (one round trip).
// The server runs them in order; once one fails it skips the rest up to
// the sync (PGRES_PIPELINE_ABORTED), and the first failure is thrown. When
// a queued statement failed, the transaction counts as lost: a rollback to
// the caller's savepoint, which the pipeline may never have made, would
// not undo what the failure interrupted. A session that breaks inside a pipeline is closed: the
// next use outside a transaction opens a new one. BEGIN not sent yet
// leaves nothing to lose: begin_write() resets a broken session first.
//
// Thread safety: none (see Connection).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "connection.hpp"

struct pg_conn;
struct pg_result;

namespace tilecrush::storage::detail {

class PgConnection;

class PgStatement final : public Statement {
 public:
  // `sql` in the shared dialect (?N parameters). `cached`: kept for the
  // session; else deallocated when the statement ends.
  PgStatement(PgConnection& connection, std::string_view sql, bool cached);
  ~PgStatement() override;
  PgStatement(const PgStatement&) = delete;
  PgStatement& operator=(const PgStatement&) = delete;

  void bind_blob(int index, std::span<const std::uint8_t> bytes) override;
  bool step() override;
  bool is_null(int column) const override;
  std::int64_t get_int(int column) const override;
  std::string get_text(int column) const override;
  std::vector<std::uint8_t> get_blob(int column) const override;
  void reset() noexcept override;

 protected:
  void bind_int(int index, std::int64_t value) override;
  void bind_text(int index, std::string_view text) override;
  void bind_null(int index) override;

 private:
  // The parameter slot (0-based) of SQL parameter ?index, or -1.
  int slot(int index) const;
  friend class PgConnection;  // runs it in a pipeline
  void prepare_on_server();
  void execute();

  PgConnection& connection_;
  std::string name_;
  std::string sql_;  // rewritten to $N
  bool cached_;
  std::uint64_t prepared_in_ = 0;  // the session generation it was prepared in; 0: never
  std::vector<int> slot_of_;       // by ?N
  std::vector<std::string> values_;
  std::vector<char> is_null_;
  std::vector<int> formats_;  // 0 text, 1 binary
  pg_result* result_ = nullptr;
  int row_ = -1;
  bool ran_ = false;
};

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
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>{}(text);
    }
  };

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
  // StorageError for the first failure.
  pg_result* run_pipeline(PgStatement* last, const std::vector<const char*>& values,
                          const std::vector<int>& lengths, const std::vector<int>& formats);
  // The message and code StorageError carries for a failed result.
  std::string failure_message(pg_result* result, std::string_view what, std::string_view sql);

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
  // Statements queued to be sent with the next one that is read (see
  // "Pipelines" above), each with its parameter when it has one.
  struct Deferred {
    PgStatement* statement = nullptr;
    bool has_parameter = false;
    std::string parameter;
  };
  std::vector<Deferred> deferred_;
  // A BEGIN is queued and not sent yet: the transaction counts as open.
  bool begin_pending_ = false;
  // A queued statement failed (not the one whose answer was read): the
  // caller's own savepoints cannot be trusted to undo it, so the
  // transaction counts as lost (in_transaction() false) until abandoned.
  bool deferred_failed_ = false;
  std::unordered_map<std::string, std::unique_ptr<PgStatement>, Hash, std::equal_to<>> cache_;
};

}  // namespace tilecrush::storage::detail
