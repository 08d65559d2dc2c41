// The values of games: a stored game with its moves, how it ended, and a
// player's competition games still running.
//
// Every time is in milliseconds since the Unix epoch (UTC), given by the
// caller: storage never reads the clock for data it keeps.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/player_records.hpp"

namespace tilecrush::storage {

enum class GameState : std::uint8_t { playing, over };

struct GameRecord {
  std::string id;  // chosen by the server
  PlayerId player_id = 0;
  // Filled by load_game() from the players table; create_game() ignores it.
  std::string player_name;
  // Everything needed to deal the board again: mode, preset (empty for
  // custom parameters), seed, custom sizes, budget, board and options.
  // setup.rules_version is the game's rules version.
  game::GameSetup setup;
  // Ranked games need a preset; they feed leaderboards, bests, games_played.
  bool ranked = false;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  GameState state = GameState::playing;
  game::OverReason over_reason = game::OverReason::none;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> first_move_at;  // hidden mode's timer start
  std::optional<std::int64_t> finished_at;
  std::optional<std::int64_t> duration_ms;
  std::optional<std::string> room_code;
  // load_game(): the move list in order, undone moves removed. create_game()
  // stores these as moves 0..n-1 (normally empty).
  std::vector<game::Move> moves;
  // Each move's time offset from created_at in ms, parallel to `moves`;
  // empty when unknown (a game stored before offsets existed). create_game()
  // stores them when there is one per move (empty with no moves: a game
  // whose offsets are known and none yet); with moves and no offsets, the
  // game's offsets are unknown for good.
  std::vector<std::int64_t> move_times;
  // The competition whose board this game is on (nullopt: a casual board or
  // practice). setup.board_key is stored as a reference to the board's row
  // in `boards` (scope = competition or "", mode, preset, seed), which must
  // exist; load_game() fills it back in.
  std::optional<std::string> competition;
  // Which counted attempt of its player on that competition this game is
  // (1, 2, ...), 0 when not counted (practice beyond the daily's limit).
  // create_game() assigns it (see AttemptRule); load_game() reads it.
  std::int64_t attempt = 0;
  // create_game() only: for a competition game, how attempts are counted.
  struct AttemptRule {
    std::optional<int> limit;  // attempts allowed; nullopt: unlimited
    // Past the limit: an unranked game on the same board (the daily) instead
    // of a refusal (conflict) (organisers' competitions).
    bool practice_beyond_limit = false;
    // Only the first attempt is ranked ("first counts").
    bool first_counts = false;
  };
  std::optional<AttemptRule> attempt_rule;
};

// Whether attempt n (0: not counted) of a competition with this rule feeds
// its leaderboard. create_game() stores ranked && attempt_ranked(...).
inline bool attempt_ranked(const GameRecord::AttemptRule& rule, std::int64_t attempt) {
  return attempt > 0 && (!rule.first_counts || attempt == 1);
}

// A player's game still playing on a competition board that is still open
// (Database::running_attempts): what a client needs to show and resume it.
struct RunningAttempt {
  std::string game_id;
  std::string competition;
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::int64_t attempt = 0;  // its counted attempt number (>= 1)
  bool ranked = false;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t created_at = 0;
  std::int64_t closes_at = 0;  // the competition's
};

// How a game ended; the argument of Database::finish_game().
struct GameResult {
  std::string game_id;
  std::int64_t score = 0;  // final, clear bonus included
  std::int64_t move_count = 0;
  game::OverReason over_reason = game::OverReason::resigned;
  std::int64_t finished_at = 0;
  std::int64_t duration_ms = 0;
  // The game's stored moves must be exactly move_count (else conflict):
  // the end of a game is queued with its last move, and when that move's
  // write fails (its batch lost its session) while the end's, in a later
  // batch, succeeds, the game would be stored over with a score its moves
  // do not reach. The server always sets it; tools that store results
  // without moves do not.
  bool moves_stored = false;
};

}  // namespace tilecrush::storage
