// A prepared statement with typed binding and column access, the same for
// every backend (SQLite, PostgreSQL).
//
// Values only ever reach SQL through bind(); parameters are 1-based, columns
// 0-based. The SQL text numbers its parameters ?1, ?2, ... (PostgreSQL's
// statement renumbers them). Errors throw StorageError carrying an SQLite
// extended result code (PostgreSQL's SQLSTATEs are mapped onto the few that
// storage acts on), so a caller can turn a constraint violation into a
// WriteResult whatever the backend.
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

namespace tilecrush::storage::detail {

class Statement {
 public:
  Statement() = default;
  virtual ~Statement() = default;
  // A statement stays with the connection that prepared it.
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, std::int64_t value) { bind_int(index, value); }
  void bind(int index, int value) { bind_int(index, value); }
  void bind(int index, std::string_view text) { bind_text(index, text); }
  void bind(int index, const std::string& text) { bind_text(index, text); }
  void bind(int index, const char* text) { bind_text(index, text); }
  void bind(int index, std::nullopt_t) { bind_null(index); }
  template <class T>
  void bind(int index, const std::optional<T>& value) {
    if (value) {
      bind(index, *value);
    } else {
      bind_null(index);
    }
  }
  virtual void bind_blob(int index, std::span<const std::uint8_t> bytes) = 0;

  // Runs (on the first call) and advances: true when a row is ready, false
  // when done.
  virtual bool step() = 0;
  // Runs to the end, ignoring rows (INSERT, UPDATE, DDL, pragmas).
  void run() {
    while (step()) {
    }
  }
  // A write whose rows and changes() nobody reads, inside a write
  // transaction. SQLite runs it at once (run()). PostgreSQL's writer queues
  // it, with its bound values, to go with the next statement whose answer
  // is read, in one pipeline (pg_pipeline.hpp): a failure of it is then
  // thrown by that statement, and the whole transaction is lost, as for a
  // deferred SAVEPOINT. So only a write that cannot fail but with the
  // transaction (no constraint it may break) is run this way.
  virtual void run_later() { run(); }

  virtual bool is_null(int column) const = 0;
  // Integers; a PostgreSQL boolean reads as 0 or 1.
  virtual std::int64_t get_int(int column) const = 0;
  std::optional<std::int64_t> get_optional_int(int column) const {
    if (is_null(column)) return std::nullopt;
    return get_int(column);
  }
  virtual std::string get_text(int column) const = 0;
  std::optional<std::string> get_optional_text(int column) const {
    if (is_null(column)) return std::nullopt;
    return get_text(column);
  }
  virtual std::vector<std::uint8_t> get_blob(int column) const = 0;

  // Ready to run again with no parameters bound. Never throws.
  virtual void reset() noexcept = 0;

 protected:
  virtual void bind_int(int index, std::int64_t value) = 0;
  virtual void bind_text(int index, std::string_view text) = 0;
  virtual void bind_null(int index) = 0;
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

// Readers of a row's first column, for Connection::rows() and first_row().
inline std::int64_t read_int(const Statement& row) {
  return row.get_int(0);
}
inline std::string read_text(const Statement& row) {
  return row.get_text(0);
}

// An empty text bound as NULL (a column where NULL means none).
inline std::optional<std::string_view> null_if_empty(std::string_view text) {
  if (text.empty()) return std::nullopt;
  return text;
}

// Binds `values` to ?1, ?2, ... in their order.
template <class... Values>
void bind_all(Statement& statement, const Values&... values) {
  int index = 0;
  (statement.bind(++index, values), ...);
}

// SQLite extended result codes (and the PostgreSQL errors mapped to them).
bool is_unique_violation(int code);
bool is_primary_key_violation(int code);
bool is_foreign_key_violation(int code);
// A write transaction that lost a race with another one (PostgreSQL's
// serialization failure or deadlock): running it again may succeed.
bool is_retryable(int code);

}  // namespace tilecrush::storage::detail
