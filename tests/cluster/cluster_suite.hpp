// The fixture of the cluster tests: one cluster (two nodes, nginx,
// PostgreSQL; scripts/cluster.sh) started before the first test of a suite
// and stopped after its last, shared by the suite's tests.
//
// Without nginx or PostgreSQL 15 the tests skip, unless
// TILECRUSH_TEST_PG_REQUIRED is set (scripts/test.sh sets it): then they
// fail. A cluster that did not start fails every test.
//
// `Suite` is the test suite's own class (class ClusterTest : public
// ClusterSuite<ClusterTest>), so that each suite has a cluster of its own.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "local_cluster.hpp"

namespace tilecrush::testing {

template <typename Suite>
class ClusterSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = std::make_unique<LocalCluster>();
    started_ = cluster_->start(2);
  }
  static void TearDownTestSuite() { cluster_.reset(); }

  void SetUp() override {
    if (started_ == LocalCluster::Started::missing_tools) {
      if (std::getenv("TILECRUSH_TEST_PG_REQUIRED") != nullptr) {
        FAIL() << "scripts/cluster.sh needs nginx and postgresql-15, and the test command "
                  "requires them (TILECRUSH_TEST_PG_REQUIRED)";
      }
      GTEST_SKIP() << "nginx or postgresql-15 is not installed (scripts/setup.sh --test)";
    }
    ASSERT_EQ(started_, LocalCluster::Started::yes) << "scripts/cluster.sh start failed";
  }

  static inline std::unique_ptr<LocalCluster> cluster_;
  static inline LocalCluster::Started started_ = LocalCluster::Started::failed;
};

}  // namespace tilecrush::testing
