// A test-side client board: starts from a GameView and applies the JSON
// events of `events` replies or `room_events` pushes in order, the way a
// real client (or spectator) would, knowing nothing of the engine. Its
// hash() is protocol.md's state_hash over what it holds.
//
// Thread safety: a plain value.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tilecrush/game/hash.hpp"

namespace tilecrush::testing {

class JsonBoard {
 public:
  JsonBoard() = default;
  explicit JsonBoard(const nlohmann::json& view)
      : width_(view["width"].get<int>()),
        height_(view["height"].get<int>()),
        score_(view["score"].get<std::int64_t>()),
        move_count_(view["move_count"].get<std::int64_t>()) {
    for (const auto& row : view["board"]) {
      for (const auto& cell : row) cells_.push_back(cell.get<int>());
    }
  }

  // A message with `events` and `move_count`.
  void apply(const nlohmann::json& message) {
    for (const auto& e : message["events"]) apply_event(e);
    move_count_ = message["move_count"].get<std::int64_t>();
  }

  std::string hash() const { return game::hash_hex(game::state_hash(cells_, move_count_, score_)); }
  std::int64_t score() const { return score_; }
  std::int64_t move_count() const { return move_count_; }
  const std::vector<int>& cells() const { return cells_; }

 private:
  int& at(int x, int y) { return cells_[static_cast<std::size_t>(y * width_ + x)]; }

  void apply_event(const nlohmann::json& e) {
    const std::string kind = e["kind"];
    if (kind == "swap") {
      std::swap(at(e["a"][0], e["a"][1]), at(e["b"][0], e["b"][1]));
    } else if (kind == "remove") {
      for (const auto& c : e["cells"]) at(c[0], c[1]) = 0;
    } else if (kind == "score") {
      score_ = e["total"].get<std::int64_t>();
    } else if (kind == "fall") {
      // All at once: read every source, empty them, then write the targets.
      std::vector<int> values;
      for (const auto& m : e["moves"]) values.push_back(at(m[0], m[1]));
      for (const auto& m : e["moves"]) at(m[0], m[1]) = 0;
      std::size_t i = 0;
      for (const auto& m : e["moves"]) at(m[0], m[2]) = values[i++];
    } else if (kind == "shift") {
      const std::vector<int> before = cells_;
      for (const auto& m : e["moves"]) {
        for (int y = 0; y < height_; ++y) at(m[0], y) = 0;
      }
      for (const auto& m : e["moves"]) {
        const int from = m[0];
        for (int y = 0; y < height_; ++y) {
          at(m[1], y) = before[static_cast<std::size_t>(y * width_ + from)];
        }
      }
    } else if (kind == "spawn") {
      for (const auto& c : e["cells"]) at(c[0], c[1]) = c[2];
    } else if (kind == "select") {
      at(e["x"], e["y"]) = e["color"];
    } else if (kind == "unselect") {
      at(e["x"], e["y"]) = -1;
    } else if (kind == "game_over") {
      score_ = e["final_score"].get<std::int64_t>();
    }
    // peek: only its own answer carries the colour; the board stays hidden.
  }

  int width_ = 0;
  int height_ = 0;
  std::vector<int> cells_;
  std::int64_t score_ = 0;
  std::int64_t move_count_ = 0;
};

}  // namespace tilecrush::testing
