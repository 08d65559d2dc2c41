#include "statement.hpp"

#include <sqlite3.h>

#include <string>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
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

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::fail(int code, std::string_view what) const {
  std::string message(what);
  message += ": ";
  message += sqlite3_errmsg(db_);
  message += " (";
  message += sqlite3_sql(stmt_);
  message += ")";
  throw StorageError(message, code);
}

void Statement::bind(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void Statement::bind(int index, std::string_view text) {
  const int rc =
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void Statement::bind(int index, std::nullopt_t) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void Statement::bind_blob(int index, std::span<const std::uint8_t> bytes) {
  // A zero-length blob must stay a blob, not NULL: give SQLite a valid pointer.
  static const std::uint8_t kEmpty = 0;
  const void* data = bytes.empty() ? &kEmpty : bytes.data();
  const int rc = sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc, "step");
}

void Statement::run() {
  while (step()) {
  }
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::get_int(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::optional<std::int64_t> Statement::get_optional_int(int column) const {
  if (is_null(column)) return std::nullopt;
  return get_int(column);
}

std::string Statement::get_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::optional<std::string> Statement::get_optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return get_text(column);
}

std::vector<std::uint8_t> Statement::get_blob(int column) const {
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
  const int size = sqlite3_column_bytes(stmt_, column);
  if (data == nullptr) return {};
  return std::vector<std::uint8_t>(data, data + size);
}

void Statement::reset() noexcept {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool is_unique_violation(int sqlite_code) {
  return sqlite_code == SQLITE_CONSTRAINT_UNIQUE || sqlite_code == SQLITE_CONSTRAINT_PRIMARYKEY;
}

bool is_primary_key_violation(int sqlite_code) {
  return sqlite_code == SQLITE_CONSTRAINT_PRIMARYKEY;
}

bool is_foreign_key_violation(int sqlite_code) {
  return sqlite_code == SQLITE_CONSTRAINT_FOREIGNKEY;
}

}  // namespace tilecrush::storage::detail
