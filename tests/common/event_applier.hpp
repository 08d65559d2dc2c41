// A test-side client: applies protocol.md's events, in order, to its own copy
// of the board as the player sees it (row-major, top row first, -1 hidden),
// the way a real client would. It knows nothing of the engine's internals, so
// comparing its board with Game::visible_board() checks that the events
// describe every change. Written apart from the engine, deliberately: it is
// the oracle of the engine's events, in the game tests (property_test.cpp)
// and in the fuzz_engine target (tests/fuzz), and must never share the
// engine's code.
//
// Each event is also checked for sense (a swap of cells that are not
// neighbours, a fall from an empty cell, a spawn on a filled one, a score
// total that does not add up, an event after game_over, and given the
// game's mode an event that mode never sends: protocol.md's table of
// events): apply() returns a description of the first problem, or an empty
// string.
//
// Thread safety: a plain value.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tilecrush/game/events.hpp"

namespace tilecrush::game::test {

class EventApplier {
 public:
  EventApplier(int width, int height, std::vector<int> cells, std::int64_t score,
               std::optional<Mode> mode = std::nullopt)
      : width_(width), height_(height), cells_(std::move(cells)), score_(score), mode_(mode) {}

  const std::vector<int>& cells() const { return cells_; }
  std::int64_t score() const { return score_; }
  bool saw_game_over() const { return game_over_; }
  int at(int x, int y) const { return cells_[index(x, y)]; }

  std::string apply_all(const EventList& events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
      std::string error = apply(events[i]);
      if (!error.empty()) return "event " + std::to_string(i) + ": " + error;
    }
    return {};
  }

  std::string apply(const Event& event) {
    if (game_over_) return "an event after game_over";
    if (mode_ && !sent_in(event, *mode_)) {
      return "event " + std::to_string(event.index()) + " in mode " +
             std::string(to_string(*mode_));
    }
    return std::visit([this](const auto& e) { return on(e); }, event);
  }

 private:
  // protocol.md: Same Game clicks give remove, score, fall, shift; match-3
  // swaps swap, remove, score, fall, spawn; hidden mode peeks, selects,
  // unselects and removes (fall, and shift with compress); any game_over.
  static bool sent_in(const Event& event, Mode mode) {
    const bool common =
        std::holds_alternative<RemoveEvent>(event) || std::holds_alternative<ScoreEvent>(event) ||
        std::holds_alternative<FallEvent>(event) || std::holds_alternative<GameOverEvent>(event);
    switch (mode) {
      case Mode::same:
        return common || std::holds_alternative<ShiftEvent>(event);
      case Mode::match3:
        return common || std::holds_alternative<SwapEvent>(event) ||
               std::holds_alternative<SpawnEvent>(event);
      case Mode::hidden:
        return common || std::holds_alternative<ShiftEvent>(event) ||
               std::holds_alternative<PeekEvent>(event) ||
               std::holds_alternative<SelectEvent>(event) ||
               std::holds_alternative<UnselectEvent>(event);
    }
    return false;
  }

  std::size_t index(int x, int y) const { return static_cast<std::size_t>(y * width_ + x); }
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  static std::string at_text(int x, int y) {
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
  }

  std::string on(const SwapEvent& e) {
    if (!inside(e.a.x, e.a.y) || !inside(e.b.x, e.b.y)) return "swap outside the board";
    if (std::abs(e.a.x - e.b.x) + std::abs(e.a.y - e.b.y) != 1) return "swap of cells apart";
    if (cells_[index(e.a.x, e.a.y)] == 0 || cells_[index(e.b.x, e.b.y)] == 0) {
      return "swap of an empty cell";
    }
    std::swap(cells_[index(e.a.x, e.a.y)], cells_[index(e.b.x, e.b.y)]);
    return {};
  }

  std::string on(const RemoveEvent& e) {
    if (e.cells.empty()) return "remove without cells";
    std::set<std::pair<int, int>> seen;
    for (const Point p : e.cells) {
      if (!inside(p.x, p.y)) return "remove outside the board at " + at_text(p.x, p.y);
      if (!seen.insert({p.x, p.y}).second) return "remove lists " + at_text(p.x, p.y) + " twice";
      if (cells_[index(p.x, p.y)] == 0) return "remove of the empty cell " + at_text(p.x, p.y);
      cells_[index(p.x, p.y)] = 0;
    }
    return {};
  }

  std::string on(const ScoreEvent& e) {
    if (e.total != score_ + e.delta) {
      return "score total " + std::to_string(e.total) + " != " + std::to_string(score_) + " + " +
             std::to_string(e.delta);
    }
    score_ = e.total;
    return {};
  }

  // All moves at once: read every source, empty every source, write every target.
  std::string on(const FallEvent& e) {
    if (e.moves.empty()) return "fall without moves";
    std::set<std::pair<int, int>> sources, targets;
    std::vector<int> values;
    for (const auto& [x, from_y, to_y] : e.moves) {
      if (!inside(x, from_y) || !inside(x, to_y)) return "fall outside the board";
      if (to_y <= from_y) return "fall that does not go down at column " + std::to_string(x);
      if (!sources.insert({x, from_y}).second) return "fall from a cell twice";
      if (!targets.insert({x, to_y}).second) return "fall onto a cell twice";
      if (cells_[index(x, from_y)] == 0) return "fall of the empty cell " + at_text(x, from_y);
      values.push_back(cells_[index(x, from_y)]);
    }
    for (const auto& [x, to_y] : targets) {
      if (cells_[index(x, to_y)] != 0 && !sources.count({x, to_y})) {
        return "fall onto the filled cell " + at_text(x, to_y);
      }
    }
    for (const auto& m : e.moves) cells_[index(m[0], m[1])] = 0;
    for (std::size_t i = 0; i < e.moves.size(); ++i) {
      cells_[index(e.moves[i][0], e.moves[i][2])] = values[i];
    }
    return {};
  }

  // All columns at once; a column that was a source and is no target empties.
  std::string on(const ShiftEvent& e) {
    if (e.moves.empty()) return "shift without moves";
    std::set<int> sources, targets;
    std::vector<std::vector<int>> columns;
    for (const auto& [from_x, to_x] : e.moves) {
      if (!inside(from_x, 0) || !inside(to_x, 0)) return "shift outside the board";
      if (to_x >= from_x) return "shift that does not go left";
      if (!sources.insert(from_x).second) return "shift from a column twice";
      if (!targets.insert(to_x).second) return "shift onto a column twice";
      std::vector<int> column;
      for (int y = 0; y < height_; ++y) column.push_back(cells_[index(from_x, y)]);
      columns.push_back(std::move(column));
    }
    for (const int to_x : targets) {
      if (sources.count(to_x)) continue;
      for (int y = 0; y < height_; ++y) {
        if (cells_[index(to_x, y)] != 0)
          return "shift onto the filled column " + std::to_string(to_x);
      }
    }
    for (const int from_x : sources) {
      for (int y = 0; y < height_; ++y) cells_[index(from_x, y)] = 0;
    }
    for (std::size_t i = 0; i < e.moves.size(); ++i) {
      for (int y = 0; y < height_; ++y)
        cells_[index(e.moves[i][1], y)] = columns[i][static_cast<std::size_t>(y)];
    }
    return {};
  }

  std::string on(const SpawnEvent& e) {
    if (e.cells.empty()) return "spawn without cells";
    if (e.wave < 1) return "spawn of wave " + std::to_string(e.wave);
    for (const auto& [x, y, color] : e.cells) {
      if (!inside(x, y)) return "spawn outside the board";
      if (cells_[index(x, y)] != 0) return "spawn on the filled cell " + at_text(x, y);
      if (color < 1) return "spawn of colour " + std::to_string(color);
      cells_[index(x, y)] = color;
    }
    return {};
  }

  // A peek's colour lives only in the answer: the board view keeps the cell hidden.
  std::string on(const PeekEvent& e) {
    if (!inside(e.x, e.y)) return "peek outside the board";
    if (cells_[index(e.x, e.y)] == 0) return "peek of an empty cell";
    if (e.color < 1) return "peek without a colour";
    return {};
  }

  std::string on(const SelectEvent& e) {
    if (!inside(e.x, e.y)) return "select outside the board";
    if (cells_[index(e.x, e.y)] == 0) return "select of an empty cell";
    if (cells_[index(e.x, e.y)] != -1) return "select of a cell already shown";
    if (e.color < 1) return "select without a colour";
    cells_[index(e.x, e.y)] = e.color;
    return {};
  }

  std::string on(const UnselectEvent& e) {
    if (!inside(e.x, e.y)) return "unselect outside the board";
    if (cells_[index(e.x, e.y)] == 0) return "unselect of an empty cell";
    if (cells_[index(e.x, e.y)] < 1) return "unselect of a cell not selected";
    cells_[index(e.x, e.y)] = -1;
    return {};
  }

  std::string on(const GameOverEvent& e) {
    if (e.reason == OverReason::none) return "game_over without a reason";
    if (e.final_score != score_ + e.bonus) {
      return "final_score " + std::to_string(e.final_score) + " != " + std::to_string(score_) +
             " + bonus " + std::to_string(e.bonus);
    }
    score_ = e.final_score;
    game_over_ = true;
    return {};
  }

  int width_;
  int height_;
  std::vector<int> cells_;
  std::int64_t score_;
  std::optional<Mode> mode_;
  bool game_over_ = false;
};

}  // namespace tilecrush::game::test
