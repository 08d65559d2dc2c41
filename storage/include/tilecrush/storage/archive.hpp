// The archive of closed boards (Database::archive; archive_store.cpp):
// listed competitions, dailies included, past their close.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::storage {

// The archive (Database::archive): closed listed competitions, latest close
// first, paged by the (closes_at, id) of the last one shown.
struct ArchiveCursor {
  std::int64_t closes_at = 0;
  std::string id;
};

enum class ArchiveKind : std::uint8_t { any, daily, organised };

struct ArchiveQuery {
  std::int64_t now = 0;                 // closed: closes_at <= now
  std::int64_t limit = 20;              // below 1 counts as 1
  std::optional<ArchiveCursor> before;  // only those strictly before it
  std::optional<game::Mode> mode;
  ArchiveKind kind = ArchiveKind::any;
};

struct ArchiveWinner {
  std::string player;
  std::int64_t score = 0;
};

struct ArchiveEntry {
  CompetitionRecord competition;
  game::BoardSecret key{};              // the board's key (the competition has closed)
  std::int64_t entries = 0;             // ranked entries on its board
  std::optional<ArchiveWinner> winner;  // its first place; none without entries
};

struct ArchivePage {
  std::vector<ArchiveEntry> competitions;
  std::optional<ArchiveCursor> next;  // nullopt on the last page
};

}  // namespace tilecrush::storage
