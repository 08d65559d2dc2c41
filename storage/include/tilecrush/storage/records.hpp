// The values storage reads and writes: players, games with their moves,
// leaderboard entries, player bests, room results, open rooms, board keys,
// competitions, organisers, and write outcomes.
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
  std::string name;        // as first registered; unique ignoring ASCII case
  std::string token_hash;  // hash_token(token), never the token itself
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

// One board with its own leaderboard. The seed is only a label: boards of
// one label in different scopes are different boards.
struct BoardKey {
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  // "" casual boards of the current rules (a key per label), kScopeV1 the
  // boards of rules version 1 games (no key), else a competition's id.
  std::string scope;
};

inline constexpr std::string_view kScopeV1 = "v1";

// A board's secret key (rules version 2) and when it may be revealed.
struct BoardRecord {
  std::string scope;  // "" casual, else the competition's id
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  game::BoardSecret key{};
  std::string commitment;  // game::commitment(key)
  std::int64_t created_at = 0;
  // The key may be published from then on; nullopt: never (casual boards).
  std::optional<std::int64_t> closes_at;
};

using OrganiserId = std::int64_t;

struct OrganiserRecord {
  OrganiserId id = 0;
  std::string name;        // unique ignoring ASCII case
  std::string token_hash;  // hash_token(token)
  std::int64_t created_at = 0;
};

// A competition: one board (mode, preset, seed label, key) open from
// opens_at to closes_at. The built-in dailies are competitions too.
struct CompetitionRecord {
  std::string id;
  std::string name;
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  std::int64_t opens_at = 0;
  std::int64_t closes_at = 0;
  std::optional<int> attempts;  // nullopt: unlimited
  bool first_counts = false;    // else the best attempt counts
  bool unlisted = false;
  bool daily = false;
  std::optional<OrganiserId> organiser_id;  // nullopt: the operator's (dailies)
  std::string organiser_name;               // filled by reads
  std::int64_t created_at = 0;
  // Set once the closing work is done: games still running ended, every
  // entry replayed again.
  bool closed = false;
  std::string commitment;  // filled by reads, from the board
};

// Listings: public competitions by where `now` falls in their window, and
// (to_close) every competition past its close whose closing work is not done.
enum class CompetitionState : std::uint8_t { upcoming, open, closed, to_close };

// One page of an organiser's own competitions (every state, unlisted ones
// included), newest first, and how many they have in all.
struct OrganiserCompetitions {
  std::int64_t total = 0;
  std::vector<CompetitionRecord> competitions;
};

// A mark on a competition entry: "disqualified" (by its organiser or the
// operator, out of the ranking) or "replay_failed" (found at the close).
struct EntryFlag {
  std::string competition_id;
  PlayerId player_id = 0;
  std::string player;  // filled by reads
  std::string flag;
  std::string game_id;
  std::string reason;
  std::int64_t at = 0;
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
  // The board's revision the page was read at (see BoardRevision).
  std::int64_t revision = 0;
  std::vector<LeaderboardEntry> entries;
};

// A board's number of entries and its revision: 0 for a board without
// entries, then + 1 with every change to any of its entries (a new entry, a
// better result, one more attempt, an entry removed), committed in order. Two
// reads of a board at the same revision read the same entries.
struct BoardRevision {
  std::int64_t entries = 0;
  std::int64_t revision = 0;
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

// A room still open (lobby or playing), kept so that a restarted server gets
// it back: Database::save_open_room() stores its whole state under its code,
// open_rooms() reads it back. Spectators are not kept (a spectator whose
// connection drops is removed anyway), nor who is connected.
enum class OpenRoomPhase : std::uint8_t { lobby, playing };

struct OpenRoomPlayer {
  PlayerId player_id = 0;
  std::string player;                  // filled by reads; save_open_room() ignores it
  std::optional<std::string> game_id;  // nullopt until the room has started
  // Out of the race for good (left, or away too long during play).
  bool left = false;
  // The room's figures for the player when written. They are what the room
  // counts for a player who left (whose game may go on as a solo game); for
  // the others the game's own row is newer and is the one to read.
  std::int64_t score = 0;
  std::int64_t move_count = 0;
};

struct OpenRoomRecord {
  std::string code;  // the key: one open room per code
  game::Mode mode = game::Mode::same;
  std::string preset;  // rooms are always on a preset
  std::string seed;
  PlayerId creator_player_id = 0;  // whose open rooms it counts among
  PlayerId host_player_id = 0;     // the host now (passes on in the lobby)
  OpenRoomPhase phase = OpenRoomPhase::lobby;
  std::int64_t created_at = 0;
  // The room's last activity as of the write (start, a member's change).
  std::int64_t last_activity = 0;
  // The ownership epoch between server nodes: a node that takes a room over
  // writes a higher one, and a write of a lower epoch than the stored one is
  // refused (conflict), so a node that lost a room cannot overwrite it.
  std::int64_t epoch = 0;
  // The node that owns the room (its --node-id; "" on a single node).
  std::string owner;
  std::vector<OpenRoomPlayer> players;  // in joining order
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
  // Tries of a batch run again from its start after losing a race with
  // another node's writer (PostgreSQL's deadlock or serialization failure).
  std::uint64_t batches_retried = 0;
};

// How leaderboard reads went, since the Database opened.
struct RankCacheMetrics {
  std::uint64_t indexed_reads = 0;    // pages and around-me served through a rank index
  std::uint64_t plain_reads = 0;      // by the ordered scan: no cache, an empty or too large board
  std::uint64_t loads = 0;            // a board's places loaded whole
  std::uint64_t changes_applied = 0;  // changes of place followed from the log
  // An index found disagreeing with the rows, dropped, and the read done by
  // the scan: never expected; a test asserts none.
  std::uint64_t mismatches = 0;
  // Held now: boards with a slot (at most 4096) and their keys (at most
  // Options::rank_cache_keys).
  std::uint64_t boards = 0;
  std::uint64_t keys = 0;
};

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

std::string_view to_string(WriteStatus status);

}  // namespace tilecrush::storage
