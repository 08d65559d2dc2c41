// The static web client, the non-API routes (/ws without upgrade, other
// methods) and /metrics. Path traversal is tried against a temporary copy
// of a site with a secret file beside it and symlinks pointing out.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "itest_util.hpp"
#include "test_server.hpp"

namespace tilecrush::testing {
namespace {

namespace fs = std::filesystem;
namespace http = beast::http;

constexpr const char* kSecret = "TOP-SECRET-OUTSIDE-THE-SITE";

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class StaticFilesTest : public ::testing::Test {
 protected:
  static server::Config config_with_site(const fs::path& site) {
    server::Config c = TestServer::default_config();
    c.static_dir = site.string();
    return c;
  }

  StaticFilesTest()
      : base_(make_temp_dir("tilecrush-static-")),
        site_(make_site(base_)),
        ts_(config_with_site(site_)) {}
  ~StaticFilesTest() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }

  static fs::path make_site(const fs::path& base) {
    const fs::path site = base / "site";
    write_file(site / "index.html", "<!doctype html><title>tilecrush</title>");
    write_file(site / "app.js", "console.log('tilecrush');");
    write_file(site / "style.css", "body{}");
    write_file(site / "sub" / "index.html", "<p>sub</p>");
    write_file(site / ".hidden", "dotfile");
    write_file(base / "secret.txt", kSecret);
    write_file(base / "outside" / "secret.txt", kSecret);
    fs::create_symlink(base / "secret.txt", site / "link.txt");
    fs::create_symlink(base / "outside", site / "linkdir");
    fs::create_symlink("../secret.txt", site / "relative-link.txt");
    return site;
  }

  fs::path base_;
  fs::path site_;
  TestServer ts_;
};

TEST_F(StaticFilesTest, ServesTheSiteWithContentTypes) {
  const HttpResult root = http_get(ts_.port(), "/");
  ASSERT_EQ(root.status, 200u);
  EXPECT_EQ(root.content_type.rfind("text/html", 0), 0u) << root.content_type;
  EXPECT_EQ(root.body, "<!doctype html><title>tilecrush</title>");
  EXPECT_EQ(http_get(ts_.port(), "/index.html").body, root.body);
  EXPECT_EQ(http_get(ts_.port(), "/?lang=fr").body, root.body);
  const HttpResult js = http_get(ts_.port(), "/app.js");
  ASSERT_EQ(js.status, 200u);
  EXPECT_EQ(js.content_type.rfind("text/javascript", 0), 0u) << js.content_type;
  EXPECT_EQ(js.body, "console.log('tilecrush');");
  EXPECT_EQ(http_get(ts_.port(), "/style.css").content_type.rfind("text/css", 0), 0u);
  EXPECT_EQ(http_get(ts_.port(), "/sub/").body, "<p>sub</p>");
  EXPECT_EQ(http_get(ts_.port(), "/missing.js").status, 404u);
  const HttpResult head = http_get(ts_.port(), "/app.js", http::verb::head);
  EXPECT_EQ(head.status, 200u);
  EXPECT_TRUE(head.body.empty());
}

TEST_F(StaticFilesTest, AnUnknownPageAddressIsTheClientsPageWith404) {
  // The client then says "No such page" (web-client/js/pages/not_found.js).
  for (const std::string target : {"/nope", "/nope/xyz", "/sub/gone/", "/nope?view=x"}) {
    const HttpResult r = http_get(ts_.port(), target);
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(r.content_type.rfind("text/html", 0), 0u) << target << " " << r.content_type;
    EXPECT_EQ(r.body, "<!doctype html><title>tilecrush</title>") << target;
  }
  EXPECT_EQ(http_get(ts_.port(), "/nope", http::verb::head).status, 404u);
  // A missing file stays a plain 404.
  for (const std::string target : {"/missing.js", "/favicon.ico", "/sub/gone.css"}) {
    const HttpResult r = http_get(ts_.port(), target);
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(r.body, "not found\n") << target;
  }
}

TEST_F(StaticFilesTest, NeverServesAFileOutsideTheSite) {
  const std::vector<std::string> attempts = {
      "/../secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/secret.txt",
      "/%2E%2E%2Fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/sub/../../secret.txt",
      "/sub/%2e%2e/%2e%2e/secret.txt",
      "/./../secret.txt",
      "/.%2e/secret.txt",
      "/index.html%00",
      "/index.html%00.js",
      "/%00",
      "/app.js%00.html",
      "/..%5csecret.txt",
      "/%5c..%5csecret.txt",
      "/sub%5c..%5c..%5csecret.txt",
      "/link.txt",
      "/relative-link.txt",
      "/linkdir/secret.txt",
      "/linkdir/",
      "/.hidden",
      "/%2ehidden",
      "//secret.txt",
      "/%2F..%2Fsecret.txt",
      "/%2fetc%2fpasswd",
      "/%",
      "/%zz",
      "/%2",
  };
  for (const std::string& target : attempts) {
    const HttpResult r = http_get(ts_.port(), target);
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(r.body.find(kSecret), std::string::npos) << target;
    EXPECT_EQ(r.body.find("dotfile"), std::string::npos) << target;
  }
  // A raw backslash may also be refused as a malformed request.
  for (const std::string target : {"/..\\secret.txt", "/sub\\..\\..\\secret.txt"}) {
    const HttpResult r = http_get(ts_.port(), target);
    EXPECT_TRUE(r.status == 404u || r.status == 400u) << target << " " << r.status;
    EXPECT_EQ(r.body.find(kSecret), std::string::npos) << target;
  }
}

TEST_F(StaticFilesTest, WsWithoutUpgradeIs426AndOtherMethods405) {
  EXPECT_EQ(http_get(ts_.port(), "/ws").status, 426u);
  for (const std::string target : {"/", "/app.js", "/api/health", "/ws", "/metrics"}) {
    EXPECT_EQ(http_get(ts_.port(), target, http::verb::post).status, 405u) << target;
    EXPECT_EQ(http_get(ts_.port(), target, http::verb::delete_).status, 405u) << target;
  }
}

// The value of an unlabelled sample in Prometheus text.
std::optional<double> sample(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
  }
  return std::nullopt;
}

TEST_F(StaticFilesTest, MetricsArePrometheusText) {
  {
    WsClient c(ts_.port());
    c.hello("metered");
    const json view = start_game(c, {{"mode", "same"}, {"preset", "easy"}, {"seed", "m"}});
    auto local = make_local(preset_setup(game::Mode::same, "easy", "m"));
    game::Hint hint;
    ASSERT_TRUE(local->hint(hint).ok());
    play_move(c, view["game_id"], *local, hint.move);
  }
  const HttpResult m = http_get(ts_.port(), "/metrics");
  ASSERT_EQ(m.status, 200u);
  EXPECT_EQ(m.content_type.rfind("text/plain", 0), 0u) << m.content_type;
  EXPECT_GE(sample(m.body, "tilecrush_moves_total").value_or(-1), 1.0) << m.body;
  EXPECT_GE(sample(m.body, "tilecrush_db_queue_depth").value_or(-1), 0.0) << m.body;
  EXPECT_GE(sample(m.body, "tilecrush_db_checkpoints_total").value_or(-1), 0.0) << m.body;
  EXPECT_GE(sample(m.body, "tilecrush_db_batches_lingered_total").value_or(-1), 0.0) << m.body;
  EXPECT_EQ(sample(m.body, "tilecrush_rank_index_mismatches_total").value_or(-1), 0.0) << m.body;
  EXPECT_GE(sample(m.body, "tilecrush_leaderboard_indexed_reads_total").value_or(-1), 0.0);
  EXPECT_NE(m.body.find("# TYPE tilecrush_moves_total counter"), std::string::npos);
  EXPECT_NE(m.body.find("# TYPE tilecrush_db_queue_depth gauge"), std::string::npos);
  // Every line is a comment or `name{labels} value`.
  const std::regex line_re(R"(^(#.*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eE]+(Inf)?)$)");
  std::istringstream in(m.body);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) {
      EXPECT_TRUE(std::regex_match(line, line_re)) << line;
    }
  }
}

}  // namespace
}  // namespace tilecrush::testing
