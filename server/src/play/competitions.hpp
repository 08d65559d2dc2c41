// Competitions (docs/rules.md, "Competitions"): the built-in dailies and the
// organisers' own, each one board with a secret key whose commitment is
// public before it opens and whose key is revealed once it closes.
//
// Every method may read or write storage and wait for a commit: call them
// from the API's or the game service's thread pools, never from a network
// thread.
//
// Thread safety: thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "play/board_keys.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

// How many attempts a player has on a daily board, per mode (nullopt:
// unlimited); past them, games on the board are unranked practice.
struct DailyRules {
  // Indexed by game::Mode: same, match3, hidden.
  std::array<std::optional<int>, 3> attempts{std::nullopt, 1, 1};
};

class Competitions {
 public:
  using NowFn = std::function<std::int64_t()>;

  Competitions(storage::Database& db, BoardKeys& keys, NowFn now, DailyRules rules);

  // "daily-2026-11-24-match3-classic".
  static std::string daily_id(std::string_view date, game::Mode mode, std::string_view preset);
  // Midnight UTC starting the day of `ms`.
  static std::int64_t day_start(std::int64_t ms);

  // Creates the dailies of the day of `now` and of the next day where they
  // are missing, so that tomorrow's commitments are public today. false:
  // storage failed.
  bool ensure_dailies(std::int64_t now);
  // The dailies of one UTC date (empty when none were created for it).
  std::vector<storage::CompetitionRecord> dailies_of(std::string_view date);

  std::optional<storage::CompetitionRecord> find(std::string_view id);
  // The key of a competition's board (nullopt: storage failed).
  std::optional<game::BoardSecret> key_of(const storage::CompetitionRecord& competition);

  // A new organiser competition (id, seed and key drawn here, unless the
  // record carries a seed); waits until it is stored. nullopt: storage
  // refused it (`error` says why).
  std::optional<storage::CompetitionRecord> create(storage::CompetitionRecord competition,
                                                   std::string* error);

  // How a competition's attempts are counted: organisers' competitions
  // refuse attempts past their limit; the dailies make them practice.
  static storage::GameRecord::AttemptRule attempt_rule(const storage::CompetitionRecord& c);

  // "upcoming", "open" or "closed" at `now`.
  static std::string_view state_at(const storage::CompetitionRecord& c, std::int64_t now);

 private:
  bool create_daily(std::string_view date, std::int64_t opens_at, game::Mode mode,
                    std::string_view preset);

  storage::Database& db_;
  BoardKeys& keys_;
  NowFn now_;
  DailyRules rules_;
  std::mutex mutex_;
  // The last day whose dailies (and the next day's) are known to exist.
  std::int64_t ensured_day_ = -1;
};

// Waits for one queued write's result (the callback runs on the writer
// thread): for pool threads only.
storage::WriteResult wait_for_write(const std::function<void(storage::WriteCallback)>& queue_write);

}  // namespace tilecrush::server
