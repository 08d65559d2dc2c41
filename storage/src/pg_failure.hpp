// How a failed libpq result becomes a StorageError: the SQLite extended
// code storage acts on (statement.hpp; PostgreSQL's SQLSTATEs mapped onto
// them) and the message, naming the statement.
//
// Thread safety: pure functions of their arguments; a result or session is
// used by one thread at a time (see Connection).
#pragma once

#include <string>
#include <string_view>

struct pg_conn;
struct pg_result;

namespace tilecrush::storage::detail {

// The code of a failure storage does not act on (SQLITE_ERROR).
inline constexpr int kPgGenericError = 1;

// The code StorageError carries for `result`'s failure.
int pg_error_code(const pg_result* result);

// "<what> failed: <the server's message> (<the first 200 characters of
// sql>)"; the session's message when there is no result.
std::string pg_failure_message(pg_conn* session, const pg_result* result, std::string_view what,
                               std::string_view sql);

}  // namespace tilecrush::storage::detail
