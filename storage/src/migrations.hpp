// The schema's migration steps as SQL text, one per version, for each
// backend: migrator.hpp's loop applies them, with the version kept as
// schema.cpp (SQLite) and pg_schema.cpp (PostgreSQL) say.
//
// Thread safety: constants.
#pragma once

#include <span>
#include <string_view>

namespace tilecrush::storage::detail {

// PostgreSQL support starts at this version: its first step creates the
// whole schema of that version at once.
inline constexpr int kPgFirstVersion = 6;

// Step i brings a SQLite file from version i to i + 1 (i from 0).
std::span<const std::string_view> sqlite_migrations();
// Step i brings a PostgreSQL database to version kPgFirstVersion + i.
std::span<const std::string_view> postgres_migrations();

}  // namespace tilecrush::storage::detail
