// What a client knows: the board as the player sees it (row-major, top row
// first, -1 for a hidden cell) and the score, kept up to date only by
// applying protocol.md's events in order. Written apart from the engine (and
// from the engine tests' applier) so that it checks the events, not the
// engine's own idea of them.
//
// apply() returns nullptr, or why the event makes no sense on this board.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "tilecrush/game/events.hpp"

namespace tilecrush::fuzz {

class ClientBoard {
 public:
  ClientBoard(int width, int height, std::vector<int> cells, std::int64_t score)
      : width_(width), height_(height), cells_(std::move(cells)), score_(score) {}

  const std::vector<int>& cells() const { return cells_; }
  std::int64_t score() const { return score_; }

  const char* apply(const game::Event& event) {
    return std::visit([this](const auto& e) { return on(e); }, event);
  }

 private:
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  int& cell(int x, int y) { return cells_[static_cast<std::size_t>(y * width_ + x)]; }

  const char* on(const game::SwapEvent& e) {
    if (!inside(e.a.x, e.a.y) || !inside(e.b.x, e.b.y)) return "swap: outside the board";
    if (std::abs(e.a.x - e.b.x) + std::abs(e.a.y - e.b.y) != 1) return "swap: not adjacent";
    if (cell(e.a.x, e.a.y) == 0 || cell(e.b.x, e.b.y) == 0) return "swap: an empty cell";
    std::swap(cell(e.a.x, e.a.y), cell(e.b.x, e.b.y));
    return nullptr;
  }

  const char* on(const game::RemoveEvent& e) {
    if (e.cells.empty()) return "remove: no cells";
    for (const game::Point p : e.cells) {
      if (!inside(p.x, p.y)) return "remove: outside the board";
      if (cell(p.x, p.y) == 0) return "remove: an empty cell, or a cell listed twice";
      cell(p.x, p.y) = 0;
    }
    return nullptr;
  }

  const char* on(const game::ScoreEvent& e) {
    if (e.total != score_ + e.delta) return "score: total is not the old total plus delta";
    score_ = e.total;
    return nullptr;
  }

  // Every source is read before any target is written.
  const char* on(const game::FallEvent& e) {
    if (e.moves.empty()) return "fall: no moves";
    std::set<std::pair<int, int>> from, to;
    std::vector<int> values;
    for (const auto& m : e.moves) {
      if (!inside(m[0], m[1]) || !inside(m[0], m[2])) return "fall: outside the board";
      if (m[2] <= m[1]) return "fall: not downwards";
      if (!from.insert({m[0], m[1]}).second || !to.insert({m[0], m[2]}).second) {
        return "fall: a cell used twice";
      }
      if (cell(m[0], m[1]) == 0) return "fall: of an empty cell";
      values.push_back(cell(m[0], m[1]));
    }
    for (const auto& [x, y] : to) {
      if (cell(x, y) != 0 && from.count({x, y}) == 0) return "fall: onto a filled cell";
    }
    for (const auto& m : e.moves) cell(m[0], m[1]) = 0;
    for (std::size_t i = 0; i < e.moves.size(); ++i) cell(e.moves[i][0], e.moves[i][2]) = values[i];
    return nullptr;
  }

  // Whole columns at once; a source column that is no target ends up empty.
  const char* on(const game::ShiftEvent& e) {
    if (e.moves.empty()) return "shift: no moves";
    std::set<int> from, to;
    std::vector<std::vector<int>> columns;
    for (const auto& m : e.moves) {
      if (!inside(m[0], 0) || !inside(m[1], 0)) return "shift: outside the board";
      if (m[1] >= m[0]) return "shift: not leftwards";
      if (!from.insert(m[0]).second || !to.insert(m[1]).second) return "shift: a column used twice";
      std::vector<int> column;
      for (int y = 0; y < height_; ++y) column.push_back(cell(m[0], y));
      columns.push_back(std::move(column));
    }
    for (const int x : to) {
      if (from.count(x) != 0) continue;
      for (int y = 0; y < height_; ++y) {
        if (cell(x, y) != 0) return "shift: onto a column that is not empty";
      }
    }
    for (const int x : from) {
      for (int y = 0; y < height_; ++y) cell(x, y) = 0;
    }
    for (std::size_t i = 0; i < e.moves.size(); ++i) {
      for (int y = 0; y < height_; ++y)
        cell(e.moves[i][1], y) = columns[i][static_cast<std::size_t>(y)];
    }
    return nullptr;
  }

  const char* on(const game::SpawnEvent& e) {
    if (e.cells.empty()) return "spawn: no cells";
    if (e.wave < 1) return "spawn: wave below 1";
    for (const auto& c : e.cells) {
      if (!inside(c[0], c[1])) return "spawn: outside the board";
      if (cell(c[0], c[1]) != 0) return "spawn: onto a filled cell";
      if (c[2] < 1) return "spawn: not a colour";
      cell(c[0], c[1]) = c[2];
    }
    return nullptr;
  }

  // The colour is for the peeking player only: the board keeps the cell hidden.
  const char* on(const game::PeekEvent& e) {
    if (!inside(e.x, e.y)) return "peek: outside the board";
    if (cell(e.x, e.y) == 0) return "peek: an empty cell";
    if (e.color < 1) return "peek: not a colour";
    return nullptr;
  }

  const char* on(const game::SelectEvent& e) {
    if (!inside(e.x, e.y)) return "select: outside the board";
    if (cell(e.x, e.y) != -1) return "select: not a hidden filled cell";
    if (e.color < 1) return "select: not a colour";
    cell(e.x, e.y) = e.color;
    return nullptr;
  }

  const char* on(const game::UnselectEvent& e) {
    if (!inside(e.x, e.y)) return "unselect: outside the board";
    if (cell(e.x, e.y) < 1) return "unselect: not a selected cell";
    cell(e.x, e.y) = -1;
    return nullptr;
  }

  const char* on(const game::GameOverEvent& e) {
    if (e.reason == game::OverReason::none) return "game_over: no reason";
    if (e.final_score != score_ + e.bonus) return "game_over: final_score is not score plus bonus";
    score_ = e.final_score;
    return nullptr;
  }

  int width_;
  int height_;
  std::vector<int> cells_;
  std::int64_t score_;
};

}  // namespace tilecrush::fuzz
