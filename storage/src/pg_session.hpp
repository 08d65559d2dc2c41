// One PostgreSQL session on libpq, under a PgConnection and its statements:
// the PGconn, reset when it broke; the generation that tells a statement
// prepared on an older session; statement names; the writer's pipeline
// (pg_pipeline.hpp) and its sending; what BEGIN / COMMIT / ROLLBACK /
// SAVEPOINT / RELEASE run on it leave open; the rows the last statement
// changed.
//
// Contract: live() is the session in use, reset first when it broke
// (its generation then moves on, so statements are prepared again). It is
// never reset inside a transaction: that would run the rest of the
// transaction's statements, and its COMMIT, on a fresh session without the
// earlier ones; live() throws StorageError instead until the transaction
// is abandoned. The claims role never reconnects by itself: its session's
// locks die with it (room_claims.hpp). A session that breaks inside a
// pipeline is closed: the next use outside a transaction opens a new one.
// Every failure is a StorageError (pg_failure.hpp maps the SQLSTATE).
//
// Thread safety: none; it belongs to one PgConnection and is used on that
// connection's thread, by it and by its statements.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pg_pipeline.hpp"

struct pg_conn;
struct pg_result;

namespace tilecrush::storage::detail {

// writer: the write queue's session; reader: read-only; claims: the room
// claims' session (advisory locks only).
enum class PgRole { writer, reader, claims };

class PgSession {
 public:
  // `url`: a libpq connection URI (postgresql://...). A reader's session is
  // read-only. Throws StorageError when the server cannot be reached.
  PgSession(const std::string& url, PgRole role);
  ~PgSession();
  PgSession(const PgSession&) = delete;
  PgSession& operator=(const PgSession&) = delete;

  PgRole role() const { return role_; }
  // The live session, reset first when it broke; bumps generation() then.
  pg_conn* live();
  // The session as it is (nullptr once closed), never reset.
  pg_conn* current() const { return conn_; }
  std::uint64_t generation() const { return generation_; }
  std::string next_name() { return "tc" + std::to_string(++names_); }

  // Throws StorageError for a failed result (and frees it); a good one
  // stays the caller's to free.
  void check(pg_result* result, std::string_view what, std::string_view sql);
  // Prepares `statement` on the live session (PQprepare).
  void prepare_statement(PgPrepared& statement);
  // Prepares it again when the session was replaced since.
  void prepare_if_stale(PgPrepared& statement);

  PgPipeline& pipeline() { return pipeline_; }
  // Sends the queued statements and then `last` (when given, with these
  // parameters) in one pipeline, and reads every answer. Returns last's
  // result (the caller's to free; nullptr without `last`); throws
  // StorageError for the first failure, closing a session that broke.
  pg_result* run_pipeline(PgPrepared* last, const PgParameters& parameters);

  // Follows BEGIN / COMMIT / ROLLBACK / SAVEPOINT / RELEASE run on the
  // session.
  void note_transaction_control(std::string_view sql);
  // A transaction is open: begun (perhaps still queued) and not lost.
  bool in_transaction() const;
  // Forgets the transaction and rolls it back when the session still has
  // one. Never throws.
  void abandon_transaction() noexcept;
  // Keys locked in the transaction outside any savepoint, ascending.
  const std::vector<std::int32_t>& held() const { return held_; }
  // Remembers `keys` as locked, unless inside a savepoint (a lock taken
  // there is released with its rollback).
  void note_locked(const std::vector<std::int32_t>& keys);

  int changes() const { return changes_; }
  void note_changes(int changes) { changes_ = changes; }

 private:
  void open_session();

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
};

}  // namespace tilecrush::storage::detail
