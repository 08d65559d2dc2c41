#include "pg_failure.hpp"

#include <libpq-fe.h>

#include "connection.hpp"

namespace tilecrush::storage::detail {
namespace {

// SQLite extended codes that storage acts on (see statement.hpp).
constexpr int kConstraintCheck = 275;
constexpr int kConstraintForeignKey = 787;
constexpr int kConstraintNotNull = 1299;
constexpr int kConstraintPrimaryKey = 1555;
constexpr int kConstraintUnique = 2067;

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

}  // namespace

int pg_error_code(const pg_result* result) {
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  if (state == nullptr) return kPgGenericError;
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
  return kPgGenericError;
}

std::string pg_failure_message(pg_conn* session, const pg_result* result, std::string_view what,
                               std::string_view sql) {
  std::string message(what);
  message += " failed: ";
  message += result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(session);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  message += " (";
  message += sql.substr(0, 200);
  message += ")";
  return message;
}

}  // namespace tilecrush::storage::detail
