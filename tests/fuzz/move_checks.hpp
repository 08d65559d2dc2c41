// Rules facts fuzz_engine checks a request against, computed independently
// of the engine: which setups exist, which group a click takes, and the
// order and scoring of one accepted move's events in each mode (protocol.md,
// "Events"; rules.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "fuzz_check.hpp"
#include "tilecrush/game/events.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::fuzz {

inline bool mode_has(game::Mode mode, game::MoveKind kind) {
  switch (mode) {
    case game::Mode::same:
      return kind == game::MoveKind::click;
    case game::Mode::match3:
      return kind == game::MoveKind::swap;
    case game::Mode::hidden:
      return kind != game::MoveKind::click && kind != game::MoveKind::swap;
  }
  return false;
}

// What create_game must accept (rules.md presets and custom limits).
inline bool valid_setup(const game::GameSetup& s) {
  using game::Mode;
  const game::CustomLimits lim = game::custom_limits(s.mode);
  if (s.seed.empty()) return false;
  if (s.rules_version < 1 || s.rules_version > 2) return false;
  // A board key: rules version 2, a preset, no custom board, no practice
  // option (docs/rules.md, "Rules version 2").
  if (s.board_key &&
      (s.rules_version != 2 || s.preset.empty() || s.board || !s.refill || s.compress)) {
    return false;
  }
  if (s.mode != Mode::match3 && (!s.refill || s.moves)) return false;
  if (s.mode != Mode::hidden && s.compress) return false;
  if (!s.preset.empty()) return game::find_preset(s.mode, s.preset) != nullptr && !s.board;
  if (s.moves && (*s.moves < game::kMinMoveBudget || *s.moves > game::kMaxMoveBudget)) return false;
  const auto side_ok = [&](int v) { return v >= lim.min_side && v <= lim.max_side; };
  if (s.board) {
    return side_ok(s.board->width()) && side_ok(s.board->height()) && !s.board->empty() &&
           s.board->max_color() <= lim.max_cell;
  }
  return side_ok(s.width) && side_ok(s.height) && s.colors >= lim.min_colors &&
         s.colors <= lim.max_colors;
}

// The group at p (orthogonally connected, same colour); empty on a hole or
// outside the board.
inline std::vector<game::Point> group_at(const game::Board& b, game::Point p) {
  using game::Point;
  std::vector<Point> group;
  if (!b.contains(p.x, p.y) || b.at(p.x, p.y) == 0) return group;
  const std::uint8_t colour = b.at(p.x, p.y);
  std::vector<bool> seen(b.cells().size(), false);
  seen[static_cast<std::size_t>(p.y * b.width() + p.x)] = true;
  group.push_back(p);
  for (std::size_t i = 0; i < group.size(); ++i) {
    const Point c = group[i];
    for (const Point q :
         {Point{c.x - 1, c.y}, Point{c.x + 1, c.y}, Point{c.x, c.y - 1}, Point{c.x, c.y + 1}}) {
      if (!b.contains(q.x, q.y) || b.at(q.x, q.y) != colour) continue;
      const auto k = static_cast<std::size_t>(q.y * b.width() + q.x);
      if (seen[k]) continue;
      seen[k] = true;
      group.push_back(q);
    }
  }
  return group;
}

inline std::set<std::pair<int, int>> as_set(const std::vector<game::Point>& cells) {
  std::set<std::pair<int, int>> out;
  for (const game::Point p : cells) out.insert({p.x, p.y});
  return out;
}

// `before` is the true board before the move.
inline void check_move_events(game::Mode mode, const game::Move& m, const game::Board& before,
                              const game::EventList& events) {
  using namespace game;
  FUZZ_CHECK(!events.empty(), "an accepted move has events");
  const auto removed = [&](std::size_t i) -> const RemoveEvent& {
    FUZZ_CHECK(i < events.size() && std::holds_alternative<RemoveEvent>(events[i]),
               "a remove event");
    return std::get<RemoveEvent>(events[i]);
  };
  const auto score_delta = [&](std::size_t i) {
    FUZZ_CHECK(i < events.size() && std::holds_alternative<ScoreEvent>(events[i]),
               "a score event right after each remove");
    return std::get<ScoreEvent>(events[i]).delta;
  };
  switch (mode) {
    case Mode::same: {
      const auto n = static_cast<std::int64_t>(removed(0).cells.size());
      FUZZ_CHECK(as_set(removed(0).cells) == as_set(group_at(before, m.a)),
                 "a click removes the clicked group");
      FUZZ_CHECK(score_delta(1) == (n - 2) * (n - 2), "a group of n scores (n - 2)^2");
      break;
    }
    case Mode::match3: {
      FUZZ_CHECK(std::holds_alternative<SwapEvent>(events[0]), "a swap's first event is swap");
      const auto& s = std::get<SwapEvent>(events[0]);
      FUZZ_CHECK((s.a == m.a && s.b == m.b) || (s.a == m.b && s.b == m.a),
                 "the swap event names the move");
      int wave = 0;
      for (std::size_t i = 1; i < events.size(); ++i) {
        if (const auto* r = std::get_if<RemoveEvent>(&events[i])) {
          FUZZ_CHECK(r->wave == ++wave, "waves count up from 1");
          const auto n = static_cast<std::int64_t>(r->cells.size());
          FUZZ_CHECK(score_delta(i + 1) == 10 * n * wave, "a wave scores 10 * n * wave");
        } else if (const auto* sp = std::get_if<SpawnEvent>(&events[i])) {
          FUZZ_CHECK(sp->wave == wave, "a spawn belongs to the current wave");
        }
      }
      FUZZ_CHECK(wave >= 1, "a valid swap removes at least one run");
      break;
    }
    case Mode::hidden: {
      const int colour = before.at(m.a.x, m.a.y);
      if (m.kind == MoveKind::peek) {
        FUZZ_CHECK(events.size() == 2 && std::holds_alternative<PeekEvent>(events[0]),
                   "a peek gives peek and score");
        const auto& p = std::get<PeekEvent>(events[0]);
        FUZZ_CHECK(p.x == m.a.x && p.y == m.a.y && p.color == colour, "peek shows that cell");
        FUZZ_CHECK(score_delta(1) == -1, "a peek costs one point");
      } else if (m.kind == MoveKind::unselect) {
        FUZZ_CHECK(events.size() == 1 && std::holds_alternative<UnselectEvent>(events[0]),
                   "an unselect gives one unselect event");
      } else {
        FUZZ_CHECK(std::holds_alternative<SelectEvent>(events[0]), "a select starts with select");
        const auto& s = std::get<SelectEvent>(events[0]);
        FUZZ_CHECK(s.x == m.a.x && s.y == m.a.y && s.color == colour, "select shows that cell");
        if (events.size() > 1 && std::holds_alternative<RemoveEvent>(events[1])) {
          const auto n = static_cast<std::int64_t>(removed(1).cells.size());
          FUZZ_CHECK(as_set(removed(1).cells) == as_set(group_at(before, m.a)),
                     "a completed selection is the whole group");
          FUZZ_CHECK(score_delta(2) == 10 * n, "a hidden group scores 10 per cell");
        }
      }
      for (const Event& e : events) {
        FUZZ_CHECK(!std::holds_alternative<SpawnEvent>(e) && !std::holds_alternative<SwapEvent>(e),
                   "hidden: only peek and select carry colours");
      }
      break;
    }
  }
}

}  // namespace tilecrush::fuzz
