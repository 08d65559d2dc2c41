// The games whose later writes the writer refuses unrun, because an earlier
// write of theirs was refused as a conflict (write_op.hpp, `game`): those
// were made on a copy the refusal showed stale. A game leaves the set when
// it is read afresh (Database::reload_game). Entries older than a minute
// are dropped once the set grows past a few hundred: a stale copy's writes
// are queued within moments of the refusal (its game leaves the server's
// registry in the refusal's callback), so an old entry guards nothing.
//
// Thread safety: none; the writer thread's.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::storage::detail {

class RefusedGames {
 public:
  using Clock = std::chrono::steady_clock;

  // The set as the current try of a batch sees it: its own changes over the
  // set as the last counted try left it.
  bool contains(std::string_view game) const {
    if (!pending_.empty()) {
      if (const auto it = pending_.find(game); it != pending_.end()) return it->second.has_value();
    }
    return !games_.empty() && games_.find(game) != games_.end();
  }
  void add(std::string_view game, Clock::time_point now) {
    pending_.insert_or_assign(std::string(game), now);
  }
  void erase(std::string_view game) { pending_.insert_or_assign(std::string(game), std::nullopt); }
  // The try counted: its changes stay. A try run again after a lost race
  // discards them instead (nothing is copied per batch: changes are rare).
  void commit() {
    for (auto& [game, since] : pending_) {
      if (since) {
        if (games_.size() >= kPruneAt) {
          std::erase_if(games_, [&](const auto& entry) { return *since - entry.second > kKeep; });
        }
        games_.insert_or_assign(game, *since);
      } else if (const auto it = games_.find(game); it != games_.end()) {
        games_.erase(it);
      }
    }
    pending_.clear();
  }
  void discard() { pending_.clear(); }
  std::size_t size() const { return games_.size(); }

 private:
  static constexpr std::size_t kPruneAt = 256;
  static constexpr Clock::duration kKeep = std::chrono::minutes(1);
  std::map<std::string, Clock::time_point, std::less<>> games_;
  // This try's changes: a time for a game refused, nullopt for one cleared.
  std::map<std::string, std::optional<Clock::time_point>, std::less<>> pending_;
};

}  // namespace tilecrush::storage::detail
