#include "migrator.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "tilecrush/storage/error.hpp"
#include "tilecrush/storage/options.hpp"

namespace tilecrush::storage::detail {
namespace {

// Both backends, before and during a migration: a build never writes over
// a schema it does not know.
void refuse_newer(int version) {
  if (version > kSchemaVersion) {
    throw StorageError("database schema version " + std::to_string(version) +
                       " is newer than this build's " + std::to_string(kSchemaVersion));
  }
}

}  // namespace

void Migrator::run(int target) {
  target = std::min(target, kSchemaVersion);
  if (keeper_.grouping() == SchemaKeeper::Grouping::one_transaction) {
    advance(target);
    return;
  }
  // Read first without the lock: a schema already up to date takes none.
  int version = keeper_.version(connection_);
  refuse_newer(version);
  while (version < target) {
    version = advance(std::min(target, std::max(version + 1, keeper_.first_version())));
  }
}

int Migrator::advance(int upto) {
  const int first = keeper_.first_version();
  int current = 0;
  try {
    // Re-read under the lock: another process may have migrated meanwhile.
    current = keeper_.begin_locked(connection_);
    refuse_newer(current);
    for (int next = std::max(current + 1, first); next <= upto; ++next) {
      connection_.execute(keeper_.steps()[static_cast<std::size_t>(next - first)]);
    }
    if (upto > current) keeper_.record(connection_, upto);
    connection_.execute("COMMIT");
  } catch (...) {
    connection_.abandon_transaction();
    throw;
  }
  return std::max(current, upto);
}

}  // namespace tilecrush::storage::detail
