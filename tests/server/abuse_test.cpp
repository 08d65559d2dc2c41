// Abuse limits not covered elsewhere: the connection caps and oversize HTTP
// requests.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "test_server.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {
namespace {

TEST(Abuse, ConnectionsPerAddressAreCapped) {
  server::Config config = TestServer::default_config();
  config.max_connections_per_address = 3;
  TestServer ts(config);
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < 3; ++i) clients.push_back(std::make_unique<WsClient>(ts.port()));
  EXPECT_THROW(WsClient extra(ts.port(), std::chrono::seconds(2)), std::exception);
  EXPECT_NE(ts.server().metrics().render().find("tilecrush_connections_refused_total 1"),
            std::string::npos);
  // A place frees up when a connection ends.
  clients.pop_back();
  std::unique_ptr<WsClient> again;
  for (int attempt = 0; attempt < 50 && !again; ++attempt) {
    try {
      again = std::make_unique<WsClient>(ts.port(), std::chrono::seconds(2));
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ASSERT_TRUE(again);
  EXPECT_EQ(again->hello("capped")["type"], "welcome");
}

TEST(Abuse, OversizeHttpHeadersAreRefused) {
  TestServer ts;
  const std::string target = "/api/health?pad=" + std::string(16000, 'a');
  const HttpResult r = http_get(ts.port(), target);
  EXPECT_EQ(r.status, 413u);
  EXPECT_EQ(http_get(ts.port(), "/api/health").status, 200u);
}

}  // namespace
}  // namespace tilecrush::testing
