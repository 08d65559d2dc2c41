// When each player of a room group sent each of its moves and its resign:
// what a pushed room_progress or room_events is matched against to time a
// broadcast (room_load_group.hpp).
//
// Thread safety: none; used on its group's strand only.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <vector>

namespace tilecrush::bench {

class SentMoves {
 public:
  using Clock = std::chrono::steady_clock;

  // Forgets the last room: `players` slots, nothing sent.
  void reset(int players) {
    moves_.assign(static_cast<std::size_t>(players), {});
    resigns_.assign(static_cast<std::size_t>(players), std::nullopt);
  }
  // Slot `slot` sends the move that makes its move count `move_count`.
  void move(int slot, long move_count, Clock::time_point at) {
    auto& sent = moves_[static_cast<std::size_t>(slot)];
    const auto count = static_cast<std::size_t>(move_count);
    if (sent.size() <= count) sent.resize(count + 1);
    sent[count] = at;
  }
  void resign(int slot, Clock::time_point at) { resigns_[static_cast<std::size_t>(slot)] = at; }
  bool resigned(int slot) const { return resigns_[static_cast<std::size_t>(slot)].has_value(); }

  // When the move (or the resign) behind a push was sent, if this tool sent it.
  std::optional<Clock::time_point> sent_at(int slot, long move_count, bool resigned) const {
    const auto s = static_cast<std::size_t>(slot);
    if (resigned) return resigns_[s];
    const auto& sent = moves_[s];
    if (move_count <= 0 || static_cast<std::size_t>(move_count) >= sent.size()) return std::nullopt;
    return sent[static_cast<std::size_t>(move_count)];
  }

 private:
  std::vector<std::vector<Clock::time_point>> moves_;  // by slot, then move count
  std::vector<std::optional<Clock::time_point>> resigns_;
};

}  // namespace tilecrush::bench
