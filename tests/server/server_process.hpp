// Runs the real tilecrush_server binary as a child process on 127.0.0.1,
// port 0, for tests that kill it (SIGKILL) or stop it (SIGTERM).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tilecrush::testing {

class ServerProcess {
 public:
  ServerProcess(std::string binary, std::string db, std::vector<std::string> extra = {})
      : binary_(std::move(binary)), db_(std::move(db)), extra_(std::move(extra)) {}
  ~ServerProcess() {
    if (pid_ > 0) kill_now();
  }

  // Starts the server and waits for its "listening" line.
  void start() {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<std::string> args = {
          binary_, "--bind",   "127.0.0.1", "--port",    "0", "--db",
          db_,     "--static", "",          "--threads", "2", "--max-connections-per-address",
          "4096",  "--rate",   "100000"};
      args.insert(args.end(), extra_.begin(), extra_.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary_.c_str(), argv.data());
      _exit(127);
    }
    close(out[1]);
    out_ = fdopen(out[0], "r");
    char line[512];
    while (std::fgets(line, sizeof line, out_) != nullptr) {
      const std::string text(line);
      const auto colon = text.rfind(':');
      if (text.rfind("tilecrush listening on", 0) == 0 && colon != std::string::npos) {
        port_ = static_cast<unsigned short>(std::stoi(text.substr(colon + 1)));
        return;
      }
    }
    throw std::runtime_error("server did not start");
  }

  unsigned short port() const { return port_; }
  pid_t pid() const { return pid_; }

  void kill_now() {
    ::kill(pid_, SIGKILL);
    reap();
  }

  // SIGTERM and wait; the exit status (0 for a clean stop).
  int terminate() {
    ::kill(pid_, SIGTERM);
    return reap();
  }

  // Everything the server printed after the listening line.
  std::string rest_of_output() {
    std::string all;
    char line[512];
    while (out_ && std::fgets(line, sizeof line, out_) != nullptr) all += line;
    return all;
  }

 private:
  int reap() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (out_) {
      rest_ = rest_of_output();
      std::fclose(out_);
      out_ = nullptr;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  std::string binary_;
  std::string db_;
  std::vector<std::string> extra_;
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  unsigned short port_ = 0;
  std::string rest_;
};

}  // namespace tilecrush::testing
