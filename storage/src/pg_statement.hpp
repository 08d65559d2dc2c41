// The PostgreSQL implementation of Statement, on libpq.
//
// Every statement is prepared on the server (PQprepare) once per session
// and run with PQexecPrepared: values travel as parameters, never in the
// SQL text. The shared SQL numbers its parameters ?1, ?2, ...; a statement
// rewrites them to $1, $2, ... densely (a statement that names ?11 but not
// ?5 gets $5 for ?11), and bind() of a number the text never names is
// ignored, so the same binding code serves both dialects. A statement
// whose session was replaced (pg_session.hpp) is prepared again before
// it runs.
//
// Thread safety: none (see Statement); it belongs to its session's
// PgConnection.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pg_session.hpp"
#include "statement.hpp"

struct pg_result;

namespace tilecrush::storage::detail {

class PgStatement final : public Statement {
 public:
  // `sql` in the shared dialect (?N parameters). `cached`: kept for the
  // session; else deallocated when the statement ends.
  PgStatement(PgSession& session, std::string_view sql, bool cached);
  ~PgStatement() override;

  void bind_blob(int index, std::span<const std::uint8_t> bytes) override;
  bool step() override;
  bool is_null(int column) const override;
  std::int64_t get_int(int column) const override;
  std::string get_text(int column) const override;
  std::vector<std::uint8_t> get_blob(int column) const override;
  void reset() noexcept override;
  // Queued in the writer's pipeline inside a transaction; else run().
  void run_later() override;

  // Its name and text on the server, as its session's pipeline sends it.
  PgPrepared& prepared() { return prepared_; }

 protected:
  void bind_int(int index, std::int64_t value) override;
  void bind_text(int index, std::string_view text) override;
  void bind_null(int index) override;

 private:
  // The parameter slot (0-based) of SQL parameter ?index, or -1.
  int slot(int index) const;
  void execute();

  PgSession& session_;
  PgPrepared prepared_;  // its sql rewritten to $N
  bool cached_;
  std::vector<int> slot_of_;  // by ?N
  std::vector<std::string> values_;
  std::vector<char> is_null_;
  std::vector<int> formats_;  // 0 text, 1 binary
  pg_result* result_ = nullptr;
  int row_ = -1;
  bool ran_ = false;
};

}  // namespace tilecrush::storage::detail
