// The values of players: who they are, their bests, their daily streaks,
// and recovering a name with its recovery code.
//
// Every time is in milliseconds since the Unix epoch (UTC), given by the
// caller: storage never reads the clock for data it keeps.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "tilecrush/game/types.hpp"

namespace tilecrush::storage {

using PlayerId = std::int64_t;

// A new account, a player's or an organiser's (Database::create_player,
// create_organiser): the name, unique ignoring ASCII case among its kind,
// the hash of its token, and when it was made.
struct NewAccount {
  std::string name;
  std::string token_hash;  // hash_token(token), never the token itself
  std::int64_t created_at = 0;
};

struct PlayerRecord {
  PlayerId id = 0;
  std::string name;        // as first registered; unique ignoring ASCII case
  std::string token_hash;  // hash_token(token), never the token itself
  std::int64_t created_at = 0;
  std::int64_t games_played = 0;  // counted (ranked, finished) games
};

// A player's best score on one (mode, preset) over all its seeds.
struct PlayerBest {
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  std::int64_t score = 0;
  std::string game_id;
  std::int64_t achieved_at = 0;  // finished_at of that game
  // Filled by reads, from that game: the competition whose board it is on
  // (nullopt: a casual or rules-version-1 board), whether that competition
  // is unlisted, and its closing time.
  std::optional<std::string> competition;
  bool unlisted = false;
  std::optional<std::int64_t> closes_at;
};

// A player's daily streak in one mode (rules.md, "Streaks"): days are UTC
// day numbers (days since 1970-01-01), the day of a daily board.
struct StreakRecord {
  game::Mode mode = game::Mode::same;
  std::int64_t best = 0;      // the longest run of consecutive counted days
  std::int64_t last_day = 0;  // the latest counted day
  std::int64_t last_run = 0;  // the run of consecutive days ending there
};

// The current streak on day `today`: the run ending today or yesterday
// (today's daily may still be played), else 0.
inline std::int64_t current_streak(const StreakRecord& s, std::int64_t today) {
  return s.last_day >= today - 1 ? s.last_run : 0;
}

// A recovery with a recovery code (Database::recover_player): which player,
// which code, and the token hash the new device gets.
struct RecoveryAttempt {
  std::string name;               // matched ignoring ASCII case
  std::string code_hash;          // hash_token(canonical code)
  std::string device_token_hash;  // hash_token(the new device's token)
  std::int64_t at = 0;            // now, milliseconds since the epoch
  // At most `max_failures` failed tries per player within `window_ms`
  // (a sliding window); beyond, every try is refused unchecked.
  std::int64_t window_ms = 15 * 60 * 1000;
  std::int64_t max_failures = 5;
  // Device tokens kept per player (recovered devices); the oldest go first.
  std::int64_t max_device_tokens = 8;
};

enum class RecoveryOutcome : std::uint8_t {
  recovered,   // the code is right: the device token is stored
  wrong_code,  // an unknown name, no code, or another code (a failure is counted)
  locked,      // too many failures in the window: refused without checking
  failed,      // a database fault, or the database is closed
};

struct RecoveryResult {
  RecoveryOutcome outcome = RecoveryOutcome::failed;
  PlayerId player_id = 0;  // recovered: the player's id and stored name
  std::string name;
  std::string message;  // failed: why
};

// Called like a WriteCallback: on the writer thread, once committed.
using RecoveryCallback = std::function<void(const RecoveryResult&)>;

}  // namespace tilecrush::storage
