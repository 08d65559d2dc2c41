#include "pg_connection.hpp"

#include <libpq-fe.h>

#include <algorithm>

#include "pg_failure.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

PgConnection::PgConnection(const std::string& url, PgRole role) : url_(url), role_(role) {
  open_session();
}

PgConnection::~PgConnection() {
  cache_.clear();
  if (conn_ != nullptr) PQfinish(conn_);
}

void PgConnection::open_session() {
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

pg_conn* PgConnection::session() {
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

void PgConnection::check(pg_result* result, std::string_view what, std::string_view sql) {
  const ExecStatusType status = PQresultStatus(result);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  std::string message = pg_failure_message(conn_, result, what, sql);
  const int code = result != nullptr ? pg_error_code(result) : kPgGenericError;
  PQclear(result);
  throw StorageError(message, code);
}

PgStatement& PgConnection::cached(std::string_view sql) {
  return cache_.get(sql, [&] { return std::make_unique<PgStatement>(*this, sql, true); });
}

void PgConnection::defer(std::string_view sql, const std::string* parameter) {
  pipeline_.queue(cached(sql), parameter);
}

void PgConnection::run_deferred(std::string_view sql) {
  if (role_ != PgRole::writer) return Connection::run_deferred(sql);
  defer(sql, nullptr);
  note_transaction_control(sql);
}

pg_result* PgConnection::run_pipeline(PgStatement* last, const PgParameters& parameters) {
  // Taken out first: if the session is lost now, so is what was queued.
  const std::vector<PgPipeline::Queued> items = pipeline_.take();
  PGconn* conn = session();
  // Preparing is a round trip of its own, not allowed inside the pipeline.
  for (const PgPipeline::Queued& q : items) q.statement->prepare_if_stale();
  if (last != nullptr) last->prepare_if_stale();
  PgPipeline::Outcome outcome = pipeline_.send(conn, items, last, parameters);
  if (outcome.session_broken) {
    // Closed: the next use outside a transaction opens a new one.
    PQfinish(conn_);
    conn_ = nullptr;
  }
  if (!outcome.error.empty()) throw StorageError(outcome.error, outcome.code);
  return outcome.result;
}

void PgConnection::execute(std::string_view sql) {
  if (!pipeline_.empty()) run_pipeline(nullptr, {});
  const std::string text(sql);
  PGresult* result = PQexec(session(), text.c_str());
  check(result, "execute", sql);
  PQclear(result);
  note_transaction_control(sql);
}

void PgConnection::note_transaction_control(std::string_view sql) {
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

Query PgConnection::query(std::string_view sql) {
  return Query(cached(sql));
}

std::unique_ptr<Statement> PgConnection::prepare(std::string_view sql) {
  return std::make_unique<PgStatement>(*this, sql, false);
}

std::int64_t PgConnection::last_insert_rowid() {
  // The value the session's last nextval() gave: the identity column of
  // the row just inserted.
  return scalar_int("SELECT lastval()");
}

bool PgConnection::in_transaction() const {
  if (pipeline_.queued_failed()) return false;
  return pipeline_.begin_pending() ||
         (conn_ != nullptr && PQtransactionStatus(conn_) == PQTRANS_INTRANS);
}

void PgConnection::begin_write() {
  // READ COMMITTED, no lock of its own: each statement sees every commit
  // made before it began, and what must be serialised is (lock_keys(),
  // conditional updates, upserts; storage/README.md "Several nodes").
  // Sent with the transaction's first statement; a broken session is
  // replaced first, while there is nothing of the transaction to lose.
  session();
  pipeline_.forget_failure();
  pipeline_.queue_begin(cached("BEGIN"));
  note_transaction_control("BEGIN");
}

bool PgConnection::lock_keys(std::vector<std::int32_t> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::erase_if(keys,
                [&](std::int32_t k) { return std::binary_search(held_.begin(), held_.end(), k); });
  if (keys.empty()) return false;
  std::string array = "{";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) array += ',';
    array += std::to_string(keys[i]);
  }
  array += '}';
  // Ascending order, as every writer takes them: two transactions never
  // wait for each other's locks in a circle. Class 7243003 keeps these
  // apart from the room claims' and the migrations' advisory locks (one
  // bigint key each, another key space).
  // Sent with the next statement (a pipeline): the server takes the locks
  // before it runs that one.
  defer(
      "SELECT count(pg_advisory_xact_lock(7243003, k)) "
      "FROM (SELECT k FROM unnest(?1::int4[]) AS k ORDER BY k) AS ordered",
      &array);
  if (savepoints_ == 0) {
    held_.insert(held_.end(), keys.begin(), keys.end());
    std::sort(held_.begin(), held_.end());
  }
  return true;
}

void PgConnection::begin_read() {
  query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")->run();
}

void PgConnection::abandon_transaction() noexcept {
  pipeline_.drop();
  pipeline_.forget_failure();
  in_transaction_ = false;
  savepoints_ = 0;
  held_.clear();
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) return;
  if (PQtransactionStatus(conn_) == PQTRANS_IDLE) return;
  PQclear(PQexec(conn_, "ROLLBACK"));
}

}  // namespace tilecrush::storage::detail
