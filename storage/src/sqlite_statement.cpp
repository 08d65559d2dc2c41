#include "sqlite_statement.hpp"

#include <sqlite3.h>

#include <string>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

SqliteStatement::SqliteStatement(sqlite3* db, std::string_view sql) : db_(db) {
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt_, &tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw StorageError(
        "prepare failed: " + std::string(sqlite3_errmsg(db_)) + " in: " + std::string(sql),
        sqlite3_extended_errcode(db_));
  }
  if (stmt_ == nullptr) {
    throw StorageError("prepare: no statement in: " + std::string(sql));
  }
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

void SqliteStatement::fail(int code, std::string_view what) const {
  std::string message(what);
  message += ": ";
  message += sqlite3_errmsg(db_);
  message += " (";
  message += sqlite3_sql(stmt_);
  message += ")";
  throw StorageError(message, code);
}

void SqliteStatement::bind_int(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void SqliteStatement::bind_text(int index, std::string_view text) {
  const int rc =
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void SqliteStatement::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void SqliteStatement::bind_blob(int index, std::span<const std::uint8_t> bytes) {
  // A zero-length blob must stay a blob, not NULL: give SQLite a valid pointer.
  static const std::uint8_t kEmpty = 0;
  const void* data = bytes.empty() ? &kEmpty : bytes.data();
  const int rc = sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc, "step");
}

bool SqliteStatement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::get_int(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string SqliteStatement::get_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::vector<std::uint8_t> SqliteStatement::get_blob(int column) const {
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
  const int size = sqlite3_column_bytes(stmt_, column);
  if (data == nullptr) return {};
  return std::vector<std::uint8_t>(data, data + size);
}

void SqliteStatement::reset() noexcept {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

}  // namespace tilecrush::storage::detail
