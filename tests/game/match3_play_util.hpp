// Helpers of the match-3 play tests: a swap move, events as text, and a
// client-side board changed only through events.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "match3_board.hpp"
#include "match3_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game::match3_test {

inline Move swap(int ax, int ay, int bx, int by) {
  return Move{MoveKind::swap, {ax, ay}, {bx, by}};
}

// The events as text, to compare two move results exactly.
inline std::string describe(const EventList& events) {
  std::ostringstream o;
  for (const Event& e : events) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, SwapEvent>) o << "swap ";
          if constexpr (std::is_same_v<T, RemoveEvent>) {
            o << "remove" << v.wave;
            for (const Point p : v.cells) o << ' ' << p.x << ',' << p.y;
          }
          if constexpr (std::is_same_v<T, ScoreEvent>) o << "score " << v.delta << ' ' << v.total;
          if constexpr (std::is_same_v<T, FallEvent>) {
            o << "fall";
            for (const auto& m : v.moves) o << ' ' << m[0] << ',' << m[1] << ',' << m[2];
          }
          if constexpr (std::is_same_v<T, SpawnEvent>) {
            o << "spawn" << v.wave;
            for (const auto& c : v.cells) o << ' ' << c[0] << ',' << c[1] << ',' << c[2];
          }
          if constexpr (std::is_same_v<T, GameOverEvent>) o << "over " << to_string(v.reason);
          o << ';';
        },
        e);
  }
  return o.str();
}

// Swapping (1, 0) and (1, 1) clears rows 0 and 1; row 2 then has no swap.
inline const Board kLastSwap = board_of({"121", "212", "121"});

}  // namespace tilecrush::game::match3_test
