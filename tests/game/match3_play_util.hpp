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

// A client's copy of the board, changed only through the events.
struct ClientBoard {
  Board board;
  std::int64_t score = 0;

  void apply(const Event& event) {
    if (const auto* s = std::get_if<SwapEvent>(&event)) {
      const std::uint8_t a = board.at(s->a.x, s->a.y);
      board.set(s->a.x, s->a.y, board.at(s->b.x, s->b.y));
      board.set(s->b.x, s->b.y, a);
    } else if (const auto* r = std::get_if<RemoveEvent>(&event)) {
      for (const Point p : r->cells) board.set(p.x, p.y, 0);
    } else if (const auto* sc = std::get_if<ScoreEvent>(&event)) {
      score += sc->delta;
      EXPECT_EQ(score, sc->total);
    } else if (const auto* f = std::get_if<FallEvent>(&event)) {
      const Board before = board;
      for (const auto& m : f->moves) board.set(m[0], m[1], 0);
      for (const auto& m : f->moves) board.set(m[0], m[2], before.at(m[0], m[1]));
    } else if (const auto* sp = std::get_if<SpawnEvent>(&event)) {
      for (const auto& c : sp->cells) board.set(c[0], c[1], static_cast<std::uint8_t>(c[2]));
    } else if (const auto* o = std::get_if<GameOverEvent>(&event)) {
      score += o->bonus;
      EXPECT_EQ(score, o->final_score);
    } else {
      ADD_FAILURE() << "event of another mode";
    }
  }
};

// Swapping (1, 0) and (1, 1) clears rows 0 and 1; row 2 then has no swap.
inline const Board kLastSwap = board_of({"121", "212", "121"});

}  // namespace tilecrush::game::match3_test
