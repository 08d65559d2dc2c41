// Where a test's database lives: a SQLite file in the test's folder, or,
// in the PostgreSQL run (TILECRUSH_TEST_BACKEND=postgres), a fresh schema
// of the database named by TILECRUSH_TEST_PG_URL (scripts/pg_scratch.sh
// starts one), reached through a URL whose search_path names it. The
// schema is dropped with the ScratchDatabase.
//
// Thread safety: a ScratchDatabase belongs to one test.
#pragma once

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tilecrush::testing {

inline bool postgres_run() {
  const char* backend = std::getenv("TILECRUSH_TEST_BACKEND");
  return backend != nullptr && std::string_view(backend) == "postgres";
}

inline std::string postgres_url() {
  const char* url = std::getenv("TILECRUSH_TEST_PG_URL");
  return url != nullptr ? url : "";
}

// Runs one statement on the test database; throws when it fails.
inline void postgres_execute(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  const bool connected = PQstatus(conn) == CONNECTION_OK;
  if (connected)
    PQsetNoticeProcessor(
        conn, [](void*, const char*) {}, nullptr);
  PGresult* result = connected ? PQexec(conn, sql.c_str()) : nullptr;
  const bool ok = result != nullptr && PQresultStatus(result) == PGRES_COMMAND_OK;
  const std::string message = PQerrorMessage(conn);
  PQclear(result);
  PQfinish(conn);
  if (!ok) throw std::runtime_error("PostgreSQL: " + message);
}

class ScratchDatabase {
 public:
  // `file` names the SQLite file in `dir`; on PostgreSQL it only labels
  // the schema.
  ScratchDatabase(const std::filesystem::path& dir, const std::string& file) {
    if (!postgres_run()) {
      location_ = (dir / file).string();
      return;
    }
    static std::atomic<int> counter{0};
    schema_ = "t" + std::to_string(getpid()) + "_" + std::to_string(++counter);
    for (char ch : file) {
      const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
      schema_ += plain ? ch : '_';
    }
    const std::string url = postgres_url();
    postgres_execute(url, "CREATE SCHEMA " + schema_);
    location_ = url + (url.find('?') == std::string::npos ? "?" : "&") +
                "options=-csearch_path%3D" + schema_;
  }
  ~ScratchDatabase() {
    if (schema_.empty()) return;
    try {
      postgres_execute(postgres_url(), "DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    } catch (const std::exception&) {
    }
  }
  ScratchDatabase(const ScratchDatabase&) = delete;
  ScratchDatabase& operator=(const ScratchDatabase&) = delete;

  // A file path or a postgresql:// URL: what --db and Options::path take.
  const std::string& location() const { return location_; }

 private:
  std::string location_;
  std::string schema_;
};

}  // namespace tilecrush::testing
