// A prepared SQLite statement with typed binding and column access.
//
// Values only ever reach SQL through bind(); parameters are 1-based, columns
// 0-based. Errors throw StorageError carrying SQLite's extended code, so a
// caller can turn a constraint violation into a WriteResult.
//
// Thread safety: none. A statement belongs to its connection and is used by
// one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tilecrush::storage::detail {

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, std::int64_t value);
  void bind(int index, int value) { bind(index, static_cast<std::int64_t>(value)); }
  void bind(int index, std::string_view text);
  void bind(int index, std::nullopt_t);
  void bind_blob(int index, std::span<const std::uint8_t> bytes);
  template <class T>
  void bind(int index, const std::optional<T>& value) {
    if (value) {
      bind(index, *value);
    } else {
      bind(index, std::nullopt);
    }
  }

  // Advances: true when a row is ready, false when done.
  bool step();
  // Steps to the end, ignoring rows (INSERT, UPDATE, DDL, pragmas).
  void run();

  bool is_null(int column) const;
  std::int64_t get_int(int column) const;
  std::optional<std::int64_t> get_optional_int(int column) const;
  std::string get_text(int column) const;
  std::optional<std::string> get_optional_text(int column) const;
  std::vector<std::uint8_t> get_blob(int column) const;

  // Ready to run again with no parameters bound. Never throws.
  void reset() noexcept;

 private:
  [[noreturn]] void fail(int code, std::string_view what) const;

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Use of a cached statement that resets it on scope exit, so that no read
// snapshot or binding outlives the use.
class Query {
 public:
  explicit Query(Statement& statement) : statement_(&statement) {}
  ~Query() { statement_->reset(); }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  Statement* operator->() const { return statement_; }
  Statement& operator*() const { return *statement_; }

 private:
  Statement* statement_;
};

// SQLite's extended result code helpers.
bool is_unique_violation(int sqlite_code);
bool is_primary_key_violation(int sqlite_code);
bool is_foreign_key_violation(int sqlite_code);

}  // namespace tilecrush::storage::detail
