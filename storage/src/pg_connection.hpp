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
  std::unordered_map<std::string, std::unique_ptr<PgStatement>, Hash, std::equal_to<>> cache_;
};

}  // namespace tilecrush::storage::detail
