// tilecrush_server: flags and environment, then serve until SIGTERM/SIGINT.
#include <malloc.h>

#include <csignal>
#include <cstdlib>
#include <iostream>

#include "config.hpp"
#include "server.hpp"

int main(int argc, char** argv) {
  using namespace tilecrush::server;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const ConfigResult parsed = parse_config(args, [](const char* name) -> const char* {
    return std::getenv(name);
  });
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message;
    return parsed.exit_code;
  }
  // glibc otherwise hands freed heap tops back to the kernel (madvise) on
  // every trim, and each of those is a TLB shootdown across all cores: under
  // load that cost more than everything else together. Keep up to 256 MiB.
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
  mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
  // Signals are taken synchronously by this thread only; the network
  // threads started below inherit the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::unique_ptr<Server> server;
  try {
    server = std::make_unique<Server>(*parsed.config);
  } catch (const std::exception& e) {
    std::cerr << "tilecrush: cannot start: " << e.what() << "\n";
    return 1;
  }
  server->start();
  std::cout << "tilecrush listening on http://" << parsed.config->bind << ":" << server->port()
            << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  std::cout << "tilecrush: signal " << received << ", shutting down" << std::endl;
  server->stop();
  std::cout << "tilecrush: stopped cleanly" << std::endl;
  return 0;
}
