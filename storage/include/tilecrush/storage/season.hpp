// Seasons (docs/rules.md, "Seasons"; season_store.cpp): each mode's
// standings over a week or a month of dailies.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::storage {

// The standings of one mode over one period: a week "2026-W48" or a month
// "2026-11" (game/season_period.hpp's names).
struct SeasonKey {
  std::string period;
  game::Mode mode = game::Mode::same;
};

struct SeasonEntry {
  std::int64_t rank = 0;  // 1-based place in the standings
  PlayerId player_id = 0;
  std::string player;       // name
  std::int64_t points = 0;  // over the period's counted dailies of the mode
  std::int64_t boards = 0;  // dailies that gave the player points
};

// A page of standings: entries by rank, the standings' number of players
// and revision (the same meaning as a board's: BoardRevision).
struct SeasonPage {
  std::int64_t total = 0;
  std::int64_t revision = 0;
  std::vector<SeasonEntry> entries;
};

// A period with standings for a mode.
struct SeasonPeriodRecord {
  std::string period;
  bool week = true;  // else a month
  std::int64_t entries = 0;
  std::int64_t revision = 0;
};

}  // namespace tilecrush::storage
