// The PostgreSQL run without a database: every test skips (or, when the
// test command requires PostgreSQL, the run fails) before any test starts.
#include <gtest/gtest.h>

#include <cstdlib>

#include "test_support.hpp"

namespace tilecrush::storage::testing {
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
}  // namespace tilecrush::storage::testing
