// The values storage reads and writes: players, games with their moves,
// leaderboard entries, player bests, room results, and write outcomes.
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
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/types.hpp"

namespace tilecrush::storage {

using PlayerId = std::int64_t;

struct PlayerRecord {
  PlayerId id = 0;
  std::string name;          // as first registered; unique ignoring ASCII case
  std::string token_hash;    // hash_token(token), never the token itself
  std::int64_t created_at = 0;
  std::int64_t games_played = 0;  // counted (ranked, finished) games
};

enum class GameState : std::uint8_t { playing, over };

struct GameRecord {
  std::string id;  // chosen by the server
  PlayerId player_id = 0;
  // Filled by load_game() from the players table; create_game() ignores it.
  std::string player_name;
  // Everything needed to deal the board again: mode, preset (empty for
  // custom parameters), seed, custom sizes, budget, board and options.
  game::GameSetup setup;
  int rules_version = game::kRulesVersion;
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
};

// How a game ended; the argument of Database::finish_game().
struct GameResult {
  std::string game_id;
  std::int64_t score = 0;  // final, clear bonus included
  std::int64_t move_count = 0;
  game::OverReason over_reason = game::OverReason::resigned;
  std::int64_t finished_at = 0;
  std::int64_t duration_ms = 0;
};

// One board with its own leaderboard.
struct BoardKey {
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
};

struct LeaderboardEntry {
  std::int64_t rank = 0;  // 1-based position in the board's full order
  PlayerId player_id = 0;
  std::string player;  // name
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t duration_ms = 0;
  std::int64_t attempts = 0;  // counted games on this board, best or not
  std::string game_id;        // the game that set this entry
  std::int64_t finished_at = 0;
};

// Order: score descending, then fewer moves (same, match3) or shorter
// duration (hidden), then the earlier finish, then the lower player id.
struct LeaderboardPage {
  std::int64_t total = 0;  // entries on the whole board
  std::vector<LeaderboardEntry> entries;
};

// A player's best score on one (mode, preset) over all its seeds.
struct PlayerBest {
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  std::int64_t score = 0;
  std::string game_id;
  std::int64_t achieved_at = 0;  // finished_at of that game
};

struct RoomStanding {
  std::int64_t rank = 0;
  PlayerId player_id = 0;
  std::string player;  // filled by find_room(); save_room_result() ignores it
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::optional<std::string> game_id;
};

struct RoomRecord {
  std::int64_t id = 0;  // assigned by save_room_result()
  std::string code;     // codes may be reused by later rooms
  game::Mode mode = game::Mode::same;
  std::string preset;  // empty for custom parameters
  std::string seed;
  std::optional<PlayerId> host_player_id;
  std::int64_t created_at = 0;
  std::int64_t finished_at = 0;
  std::vector<RoomStanding> standings;  // find_room(): by rank
};

enum class WriteStatus : std::uint8_t {
  ok,
  name_taken,  // create_player: the name exists, ignoring ASCII case
  not_found,   // unknown game or player
  conflict,    // duplicate game id or move seq, a move on a finished game, ...
  invalid,     // the request itself is malformed (empty name, ranked custom game)
  closed,      // the database was closed (or opened read-only)
  failed,      // a database fault; `message` says which
};

struct WriteResult {
  WriteStatus status = WriteStatus::ok;
  // create_player: the new player's id; save_room_result: the room's id.
  std::int64_t id = 0;
  std::string message;  // empty when ok

  bool ok() const { return status == WriteStatus::ok; }
};

// Called once per queued write, on the writer thread, after the batch that
// holds it has committed (or failed to). Must be cheap and must not throw, nor
// call Database::flush() or close(); post anything longer elsewhere.
using WriteCallback = std::function<void(const WriteResult&)>;

// The writer's counters, for Prometheus. Latencies cover a batch's whole
// write transaction (BEGIN IMMEDIATE to the end of COMMIT).
struct WriterMetrics {
  std::uint64_t queue_depth = 0;  // queued, not yet taken into a batch
  std::uint64_t batches_committed = 0;
  std::uint64_t ops_committed = 0;  // succeeded and committed
  std::uint64_t ops_failed = 0;     // refused, or lost with a failed batch
  std::uint64_t last_batch_size = 0;
  std::uint64_t max_batch_size = 0;
  std::uint64_t last_commit_latency_ns = 0;
  std::uint64_t total_commit_latency_ns = 0;
  std::uint64_t checkpoints = 0;  // run by the checkpoint thread
};

std::string_view to_string(WriteStatus status);

}  // namespace tilecrush::storage
