// A throw-away cluster for the tests: scripts/cluster.sh start in a fresh
// temporary folder (PostgreSQL, nodes n1..nN of the server binary, nginx
// in front), its ports read back from DIR/cluster.env, and the script's
// kill-node / restart-node / stop.
//
// Thread safety: a LocalCluster belongs to one test thread.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "test_server.hpp"

namespace tilecrush::testing {

class LocalCluster {
 public:
  enum class Started { yes, missing_tools, failed };

  LocalCluster() = default;
  ~LocalCluster() { stop(); }
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;

  // Runs scripts/cluster.sh start; exit status 3 means nginx or
  // PostgreSQL 15 is not installed.
  Started start(int nodes) {
    dir_ = make_temp_dir("tilecrush-cluster-");
    const int status = script("start", "--nodes " + std::to_string(nodes) + " --binary " +
                                           quote(TILECRUSH_SERVER_BINARY));
    if (status == 3) {
      std::filesystem::remove_all(dir_);
      dir_.clear();
      return Started::missing_tools;
    }
    if (status != 0) return Started::failed;
    read_env();
    return Started::yes;
  }

  void stop() {
    if (dir_.empty()) return;
    script("stop", "");
    dir_.clear();
  }

  // SIGKILL, as a crash would.
  void kill_node(const std::string& node) {
    if (script("kill-node", node) != 0) throw std::runtime_error("kill-node " + node + " failed");
    read_env();
  }
  // Starts the node again on its port (SIGTERM first if it runs).
  void restart_node(const std::string& node) {
    if (script("restart-node", node) != 0) {
      throw std::runtime_error("restart-node " + node + " failed");
    }
    read_env();
  }

  // PostgreSQL restarted (fast shutdown: every session is cut off); the
  // nodes keep running.
  void restart_postgres() {
    if (script("restart-pg", "") != 0) throw std::runtime_error("restart-pg failed");
  }

  unsigned short nginx_port() const { return port_of("NGINX_PORT"); }
  unsigned short node_port(const std::string& node) const {
    return port_of("NODE_" + node + "_PORT");
  }
  std::string value(const std::string& key) const {
    const auto it = env_.find(key);
    return it == env_.end() ? "" : it->second;
  }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  static std::string quote(const std::string& text) {
    std::string out = "'";
    for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return out + "'";
  }

  int script(const std::string& command, const std::string& args) {
    const std::string line = "bash " + quote(TILECRUSH_SOURCE_DIR "/scripts/cluster.sh") + " " +
                             command + " " + quote(dir_.string()) + " " + args;
    const int status = std::system(line.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  }

  // KEY=VALUE lines; values the script quoted for the shell are not read.
  void read_env() {
    env_.clear();
    std::ifstream in(dir_ / "cluster.env");
    std::string line;
    while (std::getline(in, line)) {
      const auto eq = line.find('=');
      if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
      std::string v = line.substr(eq + 1);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      env_[line.substr(0, eq)] = v;
    }
  }

  unsigned short port_of(const std::string& key) const {
    const std::string v = value(key);
    if (v.empty()) throw std::runtime_error("cluster.env has no " + key);
    return static_cast<unsigned short>(std::stoi(v));
  }

  std::filesystem::path dir_;
  std::map<std::string, std::string> env_;
};

}  // namespace tilecrush::testing
