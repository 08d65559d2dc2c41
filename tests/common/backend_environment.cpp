// The PostgreSQL run (TILECRUSH_TEST_BACKEND=postgres) without a database:
// every test skips (or, when the test command requires PostgreSQL, the run
// fails) before any test starts. Linked into every suite that runs twice.
#include <gtest/gtest.h>

#include <cstdlib>

#include "test_database.hpp"

namespace tilecrush::testing {
namespace {

class BackendEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!postgres_run() || !postgres_url().empty()) return;
    if (std::getenv("TILECRUSH_TEST_PG_REQUIRED") != nullptr) {
      FAIL() << "TILECRUSH_TEST_BACKEND=postgres needs TILECRUSH_TEST_PG_URL";
    }
    GTEST_SKIP() << "no PostgreSQL: set TILECRUSH_TEST_PG_URL (scripts/pg_scratch.sh)";
  }
};

const auto* const kRegistered = ::testing::AddGlobalTestEnvironment(new BackendEnvironment);

}  // namespace
}  // namespace tilecrush::testing
