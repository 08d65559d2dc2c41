#include "connection.hpp"

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

namespace {

// SQLite's extended codes (sqlite3.h), named here so that this file, which
// both backends use, needs no SQLite header.
constexpr int kConstraintForeignKey = 787;
constexpr int kConstraintPrimaryKey = 1555;
constexpr int kConstraintUnique = 2067;

}  // namespace

std::int32_t lock_key(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (const char ch : name) {
    hash ^= static_cast<unsigned char>(ch);
    hash *= 16777619u;
  }
  return static_cast<std::int32_t>(hash);
}

bool is_unique_violation(int code) {
  return code == kConstraintUnique || code == kConstraintPrimaryKey;
}

bool is_primary_key_violation(int code) {
  return code == kConstraintPrimaryKey;
}

bool is_foreign_key_violation(int code) {
  return code == kConstraintForeignKey;
}

bool is_retryable(int code) {
  return code == kRetryableConflict;
}

std::int64_t Connection::scalar_int(std::string_view sql) {
  auto q = query(sql);
  return q->step() ? q->get_int(0) : 0;
}

std::string Connection::scalar_text(std::string_view sql) {
  auto q = query(sql);
  return q->step() ? q->get_text(0) : std::string();
}

ReadTransaction::ReadTransaction(Connection& connection) : connection_(connection) {
  connection_.begin_read();
}

ReadTransaction::~ReadTransaction() {
  if (!connection_.in_transaction()) {
    connection_.abandon_transaction();
    return;
  }
  try {
    connection_.query("COMMIT")->run();
  } catch (const StorageError&) {
    // A read transaction has nothing to lose: drop it so the connection can
    // serve the next read.
    connection_.abandon_transaction();
  }
}

}  // namespace tilecrush::storage::detail
