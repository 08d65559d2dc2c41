#include "pg_connection.hpp"

#include <libpq-fe.h>

#include <algorithm>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

PgConnection::PgConnection(const std::string& url, PgRole role)
    : Connection(Dialect::postgres), session_(url, role) {}

PgConnection::~PgConnection() {
  cache_.clear();
}

PgStatement& PgConnection::cached(std::string_view sql) {
  return cache_.get(sql, [&] { return std::make_unique<PgStatement>(session_, sql, true); });
}

void PgConnection::defer(std::string_view sql, const std::string* parameter) {
  session_.pipeline().queue(cached(sql).prepared(), parameter);
}

void PgConnection::run_deferred(std::string_view sql) {
  if (session_.role() != PgRole::writer) return Connection::run_deferred(sql);
  defer(sql, nullptr);
  session_.note_transaction_control(sql);
}

void PgConnection::execute(std::string_view sql) {
  if (!session_.pipeline().empty()) session_.run_pipeline(nullptr, {});
  const std::string text(sql);
  PGresult* result = PQexec(session_.live(), text.c_str());
  session_.check(result, "execute", sql);
  PQclear(result);
  session_.note_transaction_control(sql);
}

Query PgConnection::query(std::string_view sql) {
  return Query(cached(sql));
}

std::unique_ptr<Statement> PgConnection::prepare(std::string_view sql) {
  return std::make_unique<PgStatement>(session_, sql, false);
}

std::int64_t PgConnection::last_insert_rowid() {
  // The value the session's last nextval() gave: the identity column of
  // the row just inserted.
  return scalar_int("SELECT lastval()");
}

bool PgConnection::in_transaction() const {
  return session_.in_transaction();
}

void PgConnection::begin_write() {
  // READ COMMITTED, no lock of its own: each statement sees every commit
  // made before it began, and what must be serialised is (lock_keys(),
  // conditional updates, upserts; storage/README.md "Several nodes").
  // Sent with the transaction's first statement; a broken session is
  // replaced first, while there is nothing of the transaction to lose.
  session_.live();
  session_.pipeline().forget_failure();
  session_.pipeline().queue_begin(cached("BEGIN").prepared());
  session_.note_transaction_control("BEGIN");
}

bool PgConnection::lock_keys(std::vector<std::int32_t> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const std::vector<std::int32_t>& held = session_.held();
  std::erase_if(keys,
                [&](std::int32_t k) { return std::binary_search(held.begin(), held.end(), k); });
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
  session_.note_locked(keys);
  return true;
}

void PgConnection::begin_read() {
  query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")->run();
}

void PgConnection::abandon_transaction() noexcept {
  session_.abandon_transaction();
}

}  // namespace tilecrush::storage::detail
