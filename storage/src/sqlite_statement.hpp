// The SQLite implementation of Statement: one prepared statement of one
// connection (SqliteConnection prepares and caches them).
//
// Thread safety: none (see Statement).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "statement.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace tilecrush::storage::detail {

class SqliteStatement final : public Statement {
 public:
  SqliteStatement(sqlite3* db, std::string_view sql);
  ~SqliteStatement() override;

  void bind_blob(int index, std::span<const std::uint8_t> bytes) override;
  bool step() override;
  bool is_null(int column) const override;
  std::int64_t get_int(int column) const override;
  std::string get_text(int column) const override;
  std::vector<std::uint8_t> get_blob(int column) const override;
  void reset() noexcept override;

 protected:
  void bind_int(int index, std::int64_t value) override;
  void bind_text(int index, std::string_view text) override;
  void bind_null(int index) override;

 private:
  [[noreturn]] void fail(int code, std::string_view what) const;

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace tilecrush::storage::detail
