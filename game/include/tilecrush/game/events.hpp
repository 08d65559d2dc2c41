// The diff events a client applies, in order, to its own copy of the board
// (see docs/protocol.md, "Events"). Every accepted state change
// produces them; a refused request produces none.
#pragma once

#include <array>
#include <cstdint>
#include <variant>
#include <vector>

#include "tilecrush/game/types.hpp"

namespace tilecrush::game {

struct SwapEvent {
  Point a, b;
};
// Cells emptied by one Same Game click, one match-3 wave (wave >= 1) or one
// completed hidden group. wave is 0 outside match-3.
struct RemoveEvent {
  std::vector<Point> cells;
  int wave = 0;
};
struct ScoreEvent {
  std::int64_t delta = 0;
  std::int64_t total = 0;
};
// Every cell that moved down: {x, from_y, to_y}. All moves of one event
// happen at once (read every source before writing any target).
struct FallEvent {
  std::vector<std::array<int, 3>> moves;
};
// Every column that moved left: {from_x, to_x}, all at once; a column
// position that is left without a source becomes empty.
struct ShiftEvent {
  std::vector<std::array<int, 2>> moves;
};
// Match-3 refill: {x, y, color} for every cell filled after a wave's fall.
struct SpawnEvent {
  std::vector<std::array<int, 3>> cells;
  int wave = 0;
};
struct PeekEvent {
  int x = 0, y = 0, color = 0;
};
struct SelectEvent {
  int x = 0, y = 0, color = 0;
};
struct UnselectEvent {
  int x = 0, y = 0;
};
struct GameOverEvent {
  OverReason reason = OverReason::none;
  std::int64_t bonus = 0;
  std::int64_t final_score = 0;
};

using Event = std::variant<SwapEvent, RemoveEvent, ScoreEvent, FallEvent, ShiftEvent, SpawnEvent,
                           PeekEvent, SelectEvent, UnselectEvent, GameOverEvent>;
using EventList = std::vector<Event>;

}  // namespace tilecrush::game
