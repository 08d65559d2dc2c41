#include "pg_session.hpp"

#include <libpq-fe.h>

#include <algorithm>

#include "pg_failure.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

PgSession::PgSession(const std::string& url, PgRole role) : url_(url), role_(role) {
  open_session();
}

PgSession::~PgSession() {
  if (conn_ != nullptr) PQfinish(conn_);
}

void PgSession::open_session() {
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = PQconnectdb(url_.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string message = "cannot connect to PostgreSQL: ";
    message += PQerrorMessage(conn_);
    PQfinish(conn_);
    conn_ = nullptr;
    throw StorageError(message);
  }
  // Quiet NOTICEs (IF NOT EXISTS, ...) instead of printing them to stderr.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  std::string settings = "SET client_encoding = 'UTF8'; SET TIME ZONE 'UTC'";
  if (role_ == PgRole::reader) settings += "; SET default_transaction_read_only = on";
  // A node that stops inside a write transaction (frozen, cut off) would
  // hold every other node's writes behind its lock: PostgreSQL ends such a
  // session after this long.
  if (role_ == PgRole::writer) settings += "; SET idle_in_transaction_session_timeout = '10s'";
  PGresult* result = PQexec(conn_, settings.c_str());
  const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
  std::string message = ok ? "" : PQresultErrorMessage(result);
  PQclear(result);
  if (!ok) throw StorageError("cannot set up the PostgreSQL session: " + message);
  ++generation_;
}

pg_conn* PgSession::live() {
  if (conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK) return conn_;
  if (role_ == PgRole::claims && conn_ != nullptr) {
    throw StorageError("the room claims' session was lost");
  }
  if (in_transaction_) {
    // What was queued for it is lost with it (in_transaction() turns false).
    pipeline_.drop();
    throw StorageError("the session was lost inside a transaction");
  }
  open_session();
  return conn_;
}

void PgSession::check(pg_result* result, std::string_view what, std::string_view sql) {
  const ExecStatusType status = PQresultStatus(result);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  std::string message = pg_failure_message(conn_, result, what, sql);
  const int code = result != nullptr ? pg_error_code(result) : kPgGenericError;
  PQclear(result);
  throw StorageError(message, code);
}

void PgSession::prepare_statement(PgPrepared& statement) {
  PGconn* conn = live();
  PGresult* prepared =
      PQprepare(conn, statement.name.c_str(), statement.sql.c_str(), statement.parameters, nullptr);
  check(prepared, "prepare", statement.sql);
  PQclear(prepared);
  statement.prepared_in = generation_;
}

void PgSession::prepare_if_stale(PgPrepared& statement) {
  if (statement.prepared_in != generation_) prepare_statement(statement);
}

pg_result* PgSession::run_pipeline(PgPrepared* last, const PgParameters& parameters) {
  // Taken out first: if the session is lost now, so is what was queued.
  const std::vector<PgPipeline::Queued> items = pipeline_.take();
  PGconn* conn = live();
  // Preparing is a round trip of its own, not allowed inside the pipeline.
  for (const PgPipeline::Queued& q : items) prepare_if_stale(*q.statement);
  if (last != nullptr) prepare_if_stale(*last);
  PgPipeline::Outcome outcome = pipeline_.send(conn, items, last, parameters);
  if (outcome.session_broken) {
    // Closed: the next use outside a transaction opens a new one.
    PQfinish(conn_);
    conn_ = nullptr;
  }
  if (!outcome.error.empty()) throw StorageError(outcome.error, outcome.code);
  return outcome.result;
}

void PgSession::note_transaction_control(std::string_view sql) {
  if (sql.starts_with("BEGIN") || sql == "COMMIT" || sql == "ROLLBACK") {
    in_transaction_ = sql.starts_with("BEGIN");
    savepoints_ = 0;
    held_.clear();
  } else if (sql.starts_with("SAVEPOINT")) {
    ++savepoints_;
  } else if (sql.starts_with("RELEASE")) {
    savepoints_ = std::max(savepoints_ - 1, 0);
  }
}

bool PgSession::in_transaction() const {
  if (pipeline_.queued_failed()) return false;
  return pipeline_.begin_pending() ||
         (conn_ != nullptr && PQtransactionStatus(conn_) == PQTRANS_INTRANS);
}

void PgSession::abandon_transaction() noexcept {
  pipeline_.drop();
  pipeline_.forget_failure();
  in_transaction_ = false;
  savepoints_ = 0;
  held_.clear();
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) return;
  if (PQtransactionStatus(conn_) == PQTRANS_IDLE) return;
  PQclear(PQexec(conn_, "ROLLBACK"));
}

void PgSession::note_locked(const std::vector<std::int32_t>& keys) {
  if (savepoints_ == 0) {
    held_.insert(held_.end(), keys.begin(), keys.end());
    std::sort(held_.begin(), held_.end());
  }
}

}  // namespace tilecrush::storage::detail
