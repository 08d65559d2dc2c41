// The body of GET /api/archive (protocol.md, "Archive"): a page of closed
// public competitions, latest close first, each the Competition of
// /api/competitions with its field size and winner, and the opaque cursor
// of the page after.
//
// Thread safety: free functions over values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/protocol/competition_bodies.hpp"

namespace tilecrush::protocol {

struct ArchiveItem {
  CompetitionView competition{};
  std::int64_t entries = 0;                    // ranked entries on its board
  std::optional<std::string> winner{};         // the first place's name
  std::optional<std::int64_t> winner_score{};  // and score; nullopt without entries
};

// Where a page starts: strictly before this (closes_at in ms, id).
struct ArchiveCursor {
  std::int64_t closes_at = 0;
  std::string id{};
};

// The cursor as the `before` parameter carries it: "<closes_at>.<id>".
// Opaque to clients; parse_archive_cursor() reads it back.
std::string archive_cursor_text(const ArchiveCursor& cursor);
// nullopt unless `text` is 1-15 decimal digits, '.', then an id of 1-64
// characters from [A-Za-z0-9_-].
std::optional<ArchiveCursor> parse_archive_cursor(std::string_view text);

// {competitions: [Competition + {entries, winner: {player, score} | null}],
// next: cursor | null}.
nlohmann::json archive_body(const std::vector<ArchiveItem>& items,
                            const std::optional<ArchiveCursor>& next);

}  // namespace tilecrush::protocol
