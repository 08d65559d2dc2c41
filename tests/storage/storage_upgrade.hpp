// A database as an older build left it, for the upgrade tests: migrated
// only up to an older schema version, with rows that build wrote.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "pg_connection.hpp"
#include "schema.hpp"
#include "sqlite_connection.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {

// Migrates the database at `location` (a TempDir file: on the run's
// backend) to `version`, checks it stands there, then runs `sql` on it.
// Use as ASSERT_TRUE(at_older_version(...)); a failing `sql` throws.
inline ::testing::AssertionResult at_older_version(const std::string& location, int version,
                                                   const std::string& sql) {
  std::unique_ptr<detail::Connection> c;
  if (postgres_run()) {
    c = std::make_unique<detail::PgConnection>(location, detail::PgRole::writer);
  } else {
    c = std::make_unique<detail::SqliteConnection>(location, detail::OpenMode::read_write,
                                                   std::chrono::milliseconds(1000));
  }
  detail::migrate(*c, version);
  const int got = detail::schema_version(*c);
  if (got != version) {
    return ::testing::AssertionFailure() << "schema version " << got << ", not " << version;
  }
  c->execute(sql);
  return ::testing::AssertionSuccess();
}

}  // namespace tilecrush::storage::testing
