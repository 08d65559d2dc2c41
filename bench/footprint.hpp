// The closing line of a bench tool's run: the database file's size, the
// process's peak RSS, and the machine's load average (which says whether
// other work shared the cores meanwhile).
//
// Thread safety: a free function; call it once the run's work has ended.
#pragma once

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace tilecrush::bench {

// Prints "db file: X MiB; peak RSS: Y MiB; load average (1 min): Z" (no db
// file part when `db_file` is empty, as for a PostgreSQL URL).
inline void print_footprint(const std::string& db_file) {
  std::string file;
  if (!db_file.empty()) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(db_file, ec);
    char text[64];
    std::snprintf(text, sizeof text, "db file: %.1f MiB; ",
                  ec ? 0.0 : static_cast<double>(bytes) / (1024.0 * 1024.0));
    file = text;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) load[0] = -1;
  std::printf("%speak RSS: %.1f MiB; load average (1 min): %.2f\n", file.c_str(),
              static_cast<double>(usage.ru_maxrss) / 1024.0, load[0]);
}

}  // namespace tilecrush::bench
