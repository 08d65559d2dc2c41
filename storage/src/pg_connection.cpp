#include "pg_connection.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "tilecrush/game/hex.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

// SQLite extended codes that storage acts on (see statement.hpp).
constexpr int kSqliteError = 1;
constexpr int kConstraintCheck = 275;
constexpr int kConstraintForeignKey = 787;
constexpr int kConstraintNotNull = 1299;
constexpr int kConstraintPrimaryKey = 1555;
constexpr int kConstraintUnique = 2067;

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

int code_of(const PGresult* result) {
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  if (state == nullptr) return kSqliteError;
  const std::string_view s(state);
  if (s == "23505") {
    // PostgreSQL names a primary key's index <table>_pkey unless told
    // otherwise, and the schema never tells it otherwise.
    const char* constraint = PQresultErrorField(result, PG_DIAG_CONSTRAINT_NAME);
    return constraint != nullptr && ends_with(constraint, "_pkey") ? kConstraintPrimaryKey
                                                                   : kConstraintUnique;
  }
  if (s == "23503") return kConstraintForeignKey;
  if (s == "23514") return kConstraintCheck;
  if (s == "23502") return kConstraintNotNull;
  if (s == "40001" || s == "40P01") return kRetryableConflict;
  return kSqliteError;
}

// ?N -> $M, M dense in the order of N; slot_of[N] = M - 1. Quoted text,
// quoted names and -- comments are copied as they are.
std::string rewrite_parameters(std::string_view sql, std::vector<int>& slot_of) {
  std::vector<int> used;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] == '?' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
      int n = 0;
      std::size_t j = i + 1;
      while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
      used.push_back(n);
    }
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  slot_of.assign(used.empty() ? 1 : static_cast<std::size_t>(used.back()) + 1, -1);
  for (std::size_t k = 0; k < used.size(); ++k) {
    slot_of[static_cast<std::size_t>(used[k])] = static_cast<int>(k);
  }

  std::string out;
  out.reserve(sql.size() + 8);
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char ch = sql[i];
    if (quote != 0) {
      out += ch;
      if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quote = ch;
      out += ch;
    } else if (ch == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      const std::size_t end = sql.find('\n', i);
      const std::size_t stop = end == std::string_view::npos ? sql.size() : end;
      out.append(sql.substr(i, stop - i));
      i = stop - 1;
    } else if (ch == '?' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
      int n = 0;
      std::size_t j = i + 1;
      while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
      out += '$';
      out += std::to_string(slot_of[static_cast<std::size_t>(n)] + 1);
      i = j - 1;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace

// ---- PgStatement ----

PgStatement::PgStatement(PgConnection& connection, std::string_view sql, bool cached)
    : connection_(connection), name_(connection.next_name()), cached_(cached) {
  sql_ = rewrite_parameters(sql, slot_of_);
  const auto params = static_cast<std::size_t>(
      std::count_if(slot_of_.begin(), slot_of_.end(), [](int s) { return s >= 0; }));
  values_.resize(params);
  is_null_.assign(params, 1);
  formats_.assign(params, 0);
  prepare_on_server();
}

PgStatement::~PgStatement() {
  reset();
  if (!cached_ && prepared_in_ == connection_.generation_ && connection_.conn_ != nullptr &&
      PQstatus(connection_.conn_) == CONNECTION_OK &&
      PQtransactionStatus(connection_.conn_) != PQTRANS_INERROR) {
    PQclear(PQexec(connection_.conn_, ("DEALLOCATE " + name_).c_str()));
  }
}

void PgStatement::prepare_on_server() {
  PGconn* conn = connection_.session();
  PGresult* prepared =
      PQprepare(conn, name_.c_str(), sql_.c_str(), static_cast<int>(values_.size()), nullptr);
  connection_.check(prepared, "prepare", sql_);
  PQclear(prepared);
  prepared_in_ = connection_.generation_;
}

int PgStatement::slot(int index) const {
  if (index < 0 || static_cast<std::size_t>(index) >= slot_of_.size()) return -1;
  return slot_of_[static_cast<std::size_t>(index)];
}

void PgStatement::bind_int(int index, std::int64_t value) {
  const int s = slot(index);
  if (s < 0) return;
  values_[static_cast<std::size_t>(s)] = std::to_string(value);
  is_null_[static_cast<std::size_t>(s)] = 0;
  formats_[static_cast<std::size_t>(s)] = 0;
}

void PgStatement::bind_text(int index, std::string_view text) {
  const int s = slot(index);
  if (s < 0) return;
  if (text.find('\0') != std::string_view::npos) {
    throw StorageError("text with a NUL byte cannot be stored", kSqliteError);
  }
  values_[static_cast<std::size_t>(s)].assign(text);
  is_null_[static_cast<std::size_t>(s)] = 0;
  formats_[static_cast<std::size_t>(s)] = 0;
}

void PgStatement::bind_null(int index) {
  const int s = slot(index);
  if (s < 0) return;
  is_null_[static_cast<std::size_t>(s)] = 1;
}

void PgStatement::bind_blob(int index, std::span<const std::uint8_t> bytes) {
  const int s = slot(index);
  if (s < 0) return;
  values_[static_cast<std::size_t>(s)].assign(reinterpret_cast<const char*>(bytes.data()),
                                              bytes.size());
  is_null_[static_cast<std::size_t>(s)] = 0;
  formats_[static_cast<std::size_t>(s)] = 1;
}

void PgStatement::execute() {
  PGconn* conn = connection_.session();
  if (prepared_in_ != connection_.generation_) prepare_on_server();
  std::vector<const char*> values(values_.size());
  std::vector<int> lengths(values_.size());
  for (std::size_t i = 0; i < values_.size(); ++i) {
    values[i] = is_null_[i] != 0 ? nullptr : values_[i].c_str();
    lengths[i] = static_cast<int>(values_[i].size());
  }
  PGresult* result = nullptr;
  if (connection_.deferred_.empty()) {
    result = PQexecPrepared(conn, name_.c_str(), static_cast<int>(values.size()), values.data(),
                            lengths.data(), formats_.data(), 0);
    connection_.check(result, "run", sql_);
  } else {
    result = connection_.run_pipeline(this, values, lengths, formats_);
  }
  // A COMMIT of a transaction that had failed answers ROLLBACK, not an
  // error: that must not pass for a commit.
  if (std::strcmp(PQcmdStatus(result), "ROLLBACK") == 0 && sql_.starts_with("COMMIT")) {
    PQclear(result);
    throw StorageError("commit failed: the transaction had failed and was rolled back",
                       kSqliteError);
  }
  connection_.note_transaction_control(sql_);
  const char* tuples = PQcmdTuples(result);
  connection_.changes_ = tuples != nullptr && *tuples != '\0' ? std::atoi(tuples) : 0;
  result_ = result;
  row_ = -1;
  ran_ = true;
}

bool PgStatement::step() {
  if (!ran_) execute();
  if (row_ + 1 >= PQntuples(result_)) return false;
  ++row_;
  return true;
}

bool PgStatement::is_null(int column) const {
  return PQgetisnull(result_, row_, column) != 0;
}

std::int64_t PgStatement::get_int(int column) const {
  const char* text = PQgetvalue(result_, row_, column);
  const int size = PQgetlength(result_, row_, column);
  if (size == 1 && (text[0] == 't' || text[0] == 'f')) return text[0] == 't' ? 1 : 0;
  std::int64_t value = 0;
  std::from_chars(text, text + size, value);
  return value;
}

std::string PgStatement::get_text(int column) const {
  return std::string(PQgetvalue(result_, row_, column),
                     static_cast<std::size_t>(PQgetlength(result_, row_, column)));
}

std::vector<std::uint8_t> PgStatement::get_blob(int column) const {
  // bytea in text results: \x followed by two hex digits per byte.
  const std::string_view text(PQgetvalue(result_, row_, column),
                              static_cast<std::size_t>(PQgetlength(result_, row_, column)));
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x') return {};
  return game::bytes_from_hex(text.substr(2)).value_or(std::vector<std::uint8_t>{});
}

void PgStatement::reset() noexcept {
  if (result_ != nullptr) PQclear(result_);
  result_ = nullptr;
  row_ = -1;
  ran_ = false;
  std::fill(is_null_.begin(), is_null_.end(), 1);
}

// ---- PgConnection ----

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
    deferred_.clear();
    begin_pending_ = false;
    throw StorageError("the session was lost inside a transaction");
  }
  open_session();
  return conn_;
}

std::string PgConnection::failure_message(pg_result* result, std::string_view what,
                                          std::string_view sql) {
  std::string message(what);
  message += " failed: ";
  message += result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  message += " (";
  message += sql.substr(0, 200);
  message += ")";
  return message;
}

void PgConnection::check(pg_result* result, std::string_view what, std::string_view sql) {
  const ExecStatusType status = PQresultStatus(result);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  std::string message = failure_message(result, what, sql);
  const int code = result != nullptr ? code_of(result) : kSqliteError;
  PQclear(result);
  throw StorageError(message, code);
}

PgStatement& PgConnection::cached(std::string_view sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    it = cache_.emplace(std::string(sql), std::make_unique<PgStatement>(*this, sql, true)).first;
  }
  return *it->second;
}

void PgConnection::defer(std::string_view sql, const std::string* parameter) {
  Deferred d;
  d.statement = &cached(sql);
  if (parameter != nullptr) {
    d.has_parameter = true;
    d.parameter = *parameter;
  }
  deferred_.push_back(std::move(d));
}

void PgConnection::run_deferred(std::string_view sql) {
  if (role_ != PgRole::writer) return Connection::run_deferred(sql);
  defer(sql, nullptr);
  note_transaction_control(sql);
}

pg_result* PgConnection::run_pipeline(PgStatement* last, const std::vector<const char*>& values,
                                      const std::vector<int>& lengths,
                                      const std::vector<int>& formats) {
  std::vector<Deferred> items;
  items.swap(deferred_);
  begin_pending_ = false;
  PGconn* conn = session();
  // Preparing is a round trip of its own, not allowed inside the pipeline.
  for (const Deferred& d : items) {
    if (d.statement->prepared_in_ != generation_) d.statement->prepare_on_server();
  }
  if (last != nullptr && last->prepared_in_ != generation_) last->prepare_on_server();
  // A session that broke in the middle is closed: what it was running is
  // lost with it, and it is opened again outside a transaction.
  const auto drop_session = [&](std::string message) {
    if (message.empty()) {
      message = "the PostgreSQL session failed in a pipeline: ";
      message += PQerrorMessage(conn);
      while (!message.empty() && message.back() == '\n') message.pop_back();
    }
    PQfinish(conn_);
    conn_ = nullptr;
    return StorageError(message, kSqliteError);
  };
  if (PQenterPipelineMode(conn) != 1) throw drop_session("");

  std::size_t sent = 0;
  bool sent_all = true;
  for (const Deferred& d : items) {
    const char* value = d.parameter.c_str();
    const int length = static_cast<int>(d.parameter.size());
    const int format = 0;
    const int n = d.has_parameter ? 1 : 0;
    if (PQsendQueryPrepared(conn, d.statement->name_.c_str(), n, n > 0 ? &value : nullptr,
                            n > 0 ? &length : nullptr, n > 0 ? &format : nullptr, 0) != 1) {
      sent_all = false;
      break;
    }
    ++sent;
  }
  if (sent_all && last != nullptr) {
    if (PQsendQueryPrepared(conn, last->name_.c_str(), static_cast<int>(values.size()),
                            values.data(), lengths.data(), formats.data(), 0) == 1) {
      ++sent;
    } else {
      sent_all = false;
    }
  }
  if (sent_all && PQpipelineSync(conn) != 1) sent_all = false;
  if (!sent_all) throw drop_session("");

  // Each statement's answer, then the NULL that ends it; then the sync.
  std::string error;
  int code = kSqliteError;
  pg_result* last_result = nullptr;
  bool lost = false;
  for (std::size_t i = 0; i < sent && !lost; ++i) {
    PGresult* result = PQgetResult(conn);
    if (result == nullptr || PQresultStatus(result) == PGRES_PIPELINE_SYNC) {
      PQclear(result);
      lost = true;
      break;
    }
    const bool is_last = last != nullptr && i + 1 == sent;
    const ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
      if (is_last) {
        last_result = result;
      } else {
        PQclear(result);
      }
    } else {
      // PGRES_PIPELINE_ABORTED: skipped after an earlier failure.
      if (status != PGRES_PIPELINE_ABORTED && error.empty()) {
        error = failure_message(result, "run", is_last ? last->sql_ : items[i].statement->sql_);
        code = code_of(result);
        if (!is_last) deferred_failed_ = true;
      }
      PQclear(result);
    }
    while (PGresult* extra = PQgetResult(conn)) {
      if (PQresultStatus(extra) == PGRES_PIPELINE_SYNC) lost = true;
      PQclear(extra);
    }
  }
  bool synced = false;
  if (!lost) {
    PGresult* result = PQgetResult(conn);
    synced = result != nullptr && PQresultStatus(result) == PGRES_PIPELINE_SYNC;
    PQclear(result);
  }
  if (!synced || PQexitPipelineMode(conn) != 1) {
    PQclear(last_result);
    throw drop_session(error);
  }
  if (!error.empty()) {
    PQclear(last_result);
    throw StorageError(error, code);
  }
  return last_result;
}

void PgConnection::execute(std::string_view sql) {
  if (!deferred_.empty()) run_pipeline(nullptr, {}, {}, {});
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
  if (deferred_failed_) return false;
  return begin_pending_ || (conn_ != nullptr && PQtransactionStatus(conn_) == PQTRANS_INTRANS);
}

void PgConnection::begin_write() {
  // READ COMMITTED, no lock of its own: each statement sees every commit
  // made before it began, and what must be serialised is (lock_keys(),
  // conditional updates, upserts; storage/README.md "Several nodes").
  // Sent with the transaction's first statement; a broken session is
  // replaced first, while there is nothing of the transaction to lose.
  session();
  deferred_failed_ = false;
  defer("BEGIN", nullptr);
  note_transaction_control("BEGIN");
  begin_pending_ = true;
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
  deferred_.clear();
  begin_pending_ = false;
  deferred_failed_ = false;
  in_transaction_ = false;
  savepoints_ = 0;
  held_.clear();
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) return;
  if (PQtransactionStatus(conn_) == PQTRANS_IDLE) return;
  PQclear(PQexec(conn_, "ROLLBACK"));
}

}  // namespace tilecrush::storage::detail
