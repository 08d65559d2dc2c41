// tilecrush_server: flags and environment, then serve until SIGTERM/SIGINT.
#include <malloc.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "ops/clock.hpp"
#include "ops/config.hpp"
#include "play/ids.hpp"
#include "server.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace {

// --add-organiser NAME: the operator issues an organiser token. It is
// printed once; the database keeps only its hash.
int add_organiser(const tilecrush::server::Config& config) {
  using namespace tilecrush;
  try {
    const std::filesystem::path path(config.db);
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    storage::Database db(storage::Options{config.db});
    const std::string token = server::random_token();
    storage::WriteResult result;
    db.create_organiser({config.add_organiser, storage::hash_token(token), server::now_ms()},
                        [&result](const storage::WriteResult& r) { result = r; });
    db.flush();
    db.close();
    if (!result.ok()) {
      std::cerr << "tilecrush: cannot add organiser " << config.add_organiser << ": "
                << result.message << "\n";
      return 1;
    }
    std::cout << "organiser " << config.add_organiser << " token " << token << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "tilecrush: cannot open the database: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tilecrush::server;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const ConfigResult parsed =
      parse_config(args, [](const char* name) -> const char* { return std::getenv(name); });
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

  if (!parsed.config->add_organiser.empty()) return add_organiser(*parsed.config);

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
