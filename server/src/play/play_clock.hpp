// When a game was created, first moved and finished, and the two spans the
// rules measure from them (rules.md: a game's duration runs from its
// creation, in hidden mode from its first move, to its end).
//
// Thread safety: a plain value (LiveGame guards it with its mutex).
#pragma once

#include <cstdint>
#include <optional>

#include "tilecrush/game/types.hpp"

namespace tilecrush::server {

struct PlayClock {
  std::int64_t created_at = 0;
  // Set by hidden mode's first move (its timer starts there).
  std::optional<std::int64_t> first_move_at;
  std::optional<std::int64_t> finished_at;

  // Hidden mode's timer: from the first move to the end (or to `now`).
  std::int64_t elapsed_ms(std::int64_t now) const {
    if (!first_move_at) return 0;
    const std::int64_t end = finished_at.value_or(now);
    return end > *first_move_at ? end - *first_move_at : 0;
  }
  // The game's duration if it ends at `end`.
  std::int64_t duration_ms(game::Mode mode, std::int64_t end) const {
    if (mode == game::Mode::hidden) {
      return first_move_at && end > *first_move_at ? end - *first_move_at : 0;
    }
    return end > created_at ? end - created_at : 0;
  }
};

}  // namespace tilecrush::server
