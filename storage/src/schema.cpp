#include "schema.hpp"

#include <string>
#include <string_view>

#include "migrations.hpp"
#include "migrator.hpp"

namespace tilecrush::storage::detail {
namespace {

// SQLite keeps the version in the file's header (PRAGMA user_version) and
// serialises migrators with its one write lock; each step commits alone.
class SqliteSchema final : public SchemaKeeper {
 public:
  std::span<const std::string_view> steps() const override { return sqlite_migrations(); }
  int first_version() const override { return 1; }
  Grouping grouping() const override { return Grouping::transaction_per_step; }

  int version(Connection& c) const override {
    return static_cast<int>(c.scalar_int("PRAGMA user_version"));
  }
  int begin_locked(Connection& c) const override {
    c.execute("BEGIN IMMEDIATE");
    return version(c);
  }
  void record(Connection& c, int version) const override {
    // PRAGMA takes no parameters; the value is this build's constant.
    c.execute("PRAGMA user_version = " + std::to_string(version));
  }
};

const SchemaKeeper& keeper_of(Connection& connection) {
  static const SqliteSchema sqlite;
  return connection.postgres() ? postgres_schema() : sqlite;
}

}  // namespace

int schema_version(Connection& connection) {
  return keeper_of(connection).version(connection);
}

void migrate(Connection& connection, int target) {
  Migrator(connection, keeper_of(connection)).run(target);
}

}  // namespace tilecrush::storage::detail
