// tilecrush's persistent store: one SQLite file in WAL mode (the default),
// or a PostgreSQL database shared by several nodes. Both backends keep the
// same guarantees, described below for SQLite; where PostgreSQL differs it
// says so.
//
// Writes never block the caller. Each write is queued for a single writer
// thread, which commits everything queued when it starts a transaction (up to
// Options::max_batch operations) with one COMMIT: group commit. Every write
// runs inside its own savepoint, so a refused one (a name taken, an unknown
// game) is rolled back alone and reported through its callback while the rest
// of its batch commits. Writes from one thread are applied in the order they
// were queued.
//
// Reads are synchronous and run on a small pool of read-only connections; WAL
// lets them run while the writer commits. A read sees everything committed
// before it started, which includes every write whose callback has run, but
// not writes still queued: call flush() first when that matters.
//
// Checkpoints (copying the WAL back into the database file, with fsyncs) run
// on a thread of their own, never in the writer's way.
//
// Durability: synchronous=NORMAL (default) survives a crash of the process,
// the last commits may be lost on a power cut; synchronous=FULL also survives
// that, at the cost of an fsync per batch.
//
// Thread safety: every method may be called from any thread at the same time,
// except close() and the destructor, which must not race with each other.
// Reads throw StorageError only for database faults (and after close()).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/storage/archive.hpp"
#include "tilecrush/storage/error.hpp"
#include "tilecrush/storage/history.hpp"
#include "tilecrush/storage/options.hpp"
#include "tilecrush/storage/records.hpp"
#include "tilecrush/storage/season.hpp"

namespace tilecrush::storage {

class Database {
 public:
  // Opens (or creates) the database, applies pending migrations, starts the
  // writer thread. Throws StorageError when that fails.
  explicit Database(Options options);
  // close().
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Commits everything queued (callbacks included), stops the writer thread,
  // waits for running reads, checkpoints the WAL into the main file and
  // closes every connection. Later writes get WriteStatus::closed at once (on
  // the calling thread); later reads throw StorageError. Idempotent.
  void close();

  // ---- Writes: queued, never blocking; `done` may be empty. ----

  // ok with `id`, or name_taken (names are unique ignoring ASCII case).
  void create_player(NewAccount account, WriteCallback done = {});
  // Stores a new game, state playing, with the record's setup, score,
  // move_count, first_move_at, room_code and moves (the end fields are
  // ignored: use finish_game). conflict: the id exists; not_found: no such
  // player; invalid: ranked without a preset, or an empty id.
  void create_game(GameRecord game, WriteCallback done = {});
  // Records move `seq` (0-based: the move count before it) and the game's new
  // score and move count. `first_move_at` is kept only if none is set yet.
  // `at_ms` is the move's offset from the game's start (created_at), kept
  // in the same row update (GameRecord::move_times; clamped to 0..~795
  // days); a game stored before offsets existed keeps none.
  // not_found: no such game; conflict: the game is over or seq exists.
  void append_move(std::string game_id, std::int64_t seq, game::Move move, std::int64_t score,
                   std::int64_t move_count, std::optional<std::int64_t> first_move_at,
                   std::int64_t at_ms, WriteCallback done = {});
  // Removes move `seq`, which must be the game's last (and its time offset),
  // and sets the score and move count after the undo. not_found: no such last move; conflict: over.
  void undo_move(std::string game_id, std::int64_t seq, std::int64_t score, std::int64_t move_count,
                 WriteCallback done = {});
  // Ends a playing game. For a ranked game, in the same transaction: the
  // board's leaderboard entry keeps the better of old and new (higher score,
  // then lower tiebreak, then earlier finish) and its attempts += 1; the
  // player's best on (mode, preset) is replaced only by a higher score; the
  // player's games_played += 1; on a daily board, the daily's day counts for
  // the player's streak in its mode (player_streaks). Practice games, and
  // games of a player disqualified there, touch none of these.
  // not_found: no such game; conflict: already over, or (moves_stored)
  // the stored moves are not move_count; invalid: reason none.
  void finish_game(GameResult result, WriteCallback done = {});
  // A move that ends its game, stored with the end in one operation (one
  // savepoint of one transaction): both are stored or neither is. The move
  // is number result.move_count - 1, stored as append_move stores it (score
  // and move count from `result`); the end as finish_game stores it, with
  // moves_stored whatever `result` says. What either would refuse refuses
  // both: not_found (no such game); conflict (the game is over, or its list
  // does not hold move_count - 1 moves); invalid (reason none); failed (the
  // move cannot be stored).
  void append_final_move(game::Move move, std::optional<std::int64_t> first_move_at,
                         std::int64_t at_ms, GameResult result, WriteCallback done = {});
  // A game's later writes after a conflict. Once append_move, undo_move,
  // finish_game or append_final_move of a game is refused as conflict (the
  // stored game is not the one the caller holds: another node moved it on,
  // or it ended), every write of that game queued after it on this Database
  // is refused as conflict too, unrun: they were made on the copy the
  // refusal showed stale, and run alone one could land on the other copy's
  // list whose length happens to match, forking the game. reload_game(id),
  // called before the game is read to be held again, ends that: writes
  // queued after it run as usual.
  void reload_game(std::string game_id);
  // Stores a finished room and its standings; ok with the room's `id`.
  void save_room_result(RoomRecord room, WriteCallback done = {});

  // ---- Boards with keys and competitions (rules version 2). ----
  //
  // create_game() of a game whose setup has a board_key needs that board's
  // row (invalid otherwise): it stores a reference, and load_game() returns
  // the key. A competition game (GameRecord::competition with an
  // attempt_rule) counts its attempt in the same transaction: ok with `id`
  // the attempt number (0: uncounted practice past the daily's limit), or
  // conflict "no attempts left". Exactly one of two simultaneous last
  // attempts wins, because the writer applies them one after the other.

  // A new board; conflict when (scope, mode, preset, seed) exists (read it
  // back: the stored key is the board's), invalid when the commitment is not
  // SHA-256 of the key.
  void create_board(BoardRecord board, WriteCallback done = {});
  // A new competition with its board (scope = its id, same mode, preset,
  // seed and closes_at): conflict when the id exists.
  void create_competition(CompetitionRecord competition, BoardRecord board,
                          WriteCallback done = {});
  // Its closing work is done; not_found for an unknown id.
  void mark_competition_closed(std::string id, WriteCallback done = {});
  // ok with `id`; name_taken (names are unique ignoring ASCII case).
  void create_organiser(NewAccount account, WriteCallback done = {});
  // Adds (or replaces) a flag on an entry.
  void flag_entry(EntryFlag flag, WriteCallback done = {});
  // Takes the player's entry out of the competition's ranking and flags it
  // "disqualified"; later games of the player there never rank again.
  // not_found: no such competition, or the player has no entry.
  void disqualify(std::string competition_id, PlayerId player, std::string reason, std::int64_t at,
                  WriteCallback done = {});

  // ---- Seasons (docs/rules.md, "Seasons"). ----
  //
  // Counts a closed daily's points into its week's and its month's
  // standings of its mode, once: a second call (a restart, or another node
  // closing the same daily) changes nothing and reports ok. A fixed number
  // of statements whatever the field; the standings' places are renumbered
  // in the same operation (O(players in the period)), so reads never
  // aggregate. Call it once the daily has closed (its leaderboard final):
  // an open board's results must never show. not_found: no such
  // competition; invalid: not a daily. disqualify() of a counted daily's
  // entry counts that daily's points again in its own operation.
  void record_season_points(std::string competition_id, WriteCallback done = {});

  // ---- Open rooms: what a restarted server needs to get its rooms back. ----
  //
  // Writes of one room reach the database in the order they were queued, as
  // every write does; a caller that keeps a room's writes in order (queues
  // them under the room's lock) therefore always leaves its latest state.

  // Stores the room's whole state under its code, in one operation: the
  // room's row is inserted or replaced (epoch included) and its players
  // replaced by `room.players`, in that order. invalid: an empty code, or a
  // player listed twice; not_found: an unknown player or game; conflict:
  // the stored room has a higher epoch (another node took it over).
  void save_open_room(OpenRoomRecord room, WriteCallback done = {});
  // Forgets the open room with this code and its players (ok also when
  // there is none): a room that closed or was forgotten.
  void remove_open_room(std::string code, WriteCallback done = {});
  // A room that finished: save_room_result(result) and
  // remove_open_room(result.code) in one operation; ok with the result's id.
  void finish_open_room(RoomRecord result, WriteCallback done = {});

  // ---- Recovery codes and device tokens (docs/protocol.md, "Recovery"). ----
  //
  // A player signs in with the token its name was created with
  // (PlayerRecord::token_hash) or with any of its device tokens, each added
  // by a recovery. Only hashes are stored (hash_token), never a code or a
  // token.

  // Replaces the player's recovery code by this hash: the old code stops
  // working once this commits. Failed tries already counted stay counted.
  // not_found: no such player.
  void set_recovery_code(PlayerId player, std::string code_hash, WriteCallback done = {});
  // Checks a recovery code and, when it is right, adds the device token, in
  // one operation of the writer (so that of simultaneous tries, on this node
  // or any other, no more than max_failures fail within the window). The
  // stored hash is compared in constant time. recovered also forgets the
  // player's failed tries; wrong_code records one (an unknown name records
  // nothing); locked changes nothing. `done` runs on the writer thread once
  // the outcome is committed (failed when it could not be).
  void recover_player(RecoveryAttempt attempt, RecoveryCallback done);

  // Blocks until every write queued before the call has committed and its
  // callback has run. Returns at once when called on the writer thread.
  void flush();

  WriterMetrics metrics() const;
  RankCacheMetrics rank_cache_metrics() const;
  Settings settings() const;

  // ---- Reads: synchronous. ----

  // Names compare ignoring ASCII case ("alice" finds "Alice"; "É" is not "é").
  std::optional<PlayerRecord> find_player_by_name(std::string_view name);
  std::optional<PlayerRecord> find_player_by_id(PlayerId id);
  // The full record, moves in order, whatever its state.
  std::optional<GameRecord> load_game(std::string_view game_id);
  // Ids of games still playing, oldest first; all players when nullopt.
  std::vector<std::string> unfinished_games(std::optional<PlayerId> player = std::nullopt);
  // The player's counted competition attempts (attempt >= 1) still playing
  // on a competition open at `now` (closes_at > now), latest created first
  // (then by id), at most `limit`. Only the player's `scan` latest games
  // (by created_at, through the index games_by_player) are looked at, so the
  // read costs O(scan) whatever the player's history: an attempt older than
  // that many later games of the player is not listed.
  std::vector<RunningAttempt> running_attempts(PlayerId player, std::int64_t now,
                                               std::int64_t limit, std::int64_t scan);

  // Entries offset+1 .. offset+limit of the board (limit and offset below 0
  // count as 0), the board's total and revision, all as of one snapshot: an
  // entry changed by a write whose callback has run is in its new place.
  LeaderboardPage leaderboard(const BoardKey& board, std::int64_t limit, std::int64_t offset);
  // The entries ranked within `radius` of the named player's, and the total;
  // nullopt when the player is unknown or not on this board.
  std::optional<LeaderboardPage> leaderboard_around(const BoardKey& board,
                                                    std::string_view player_name,
                                                    std::int64_t radius);
  // One best per (mode, preset) the player has finished a ranked game on,
  // sorted by mode then preset.
  std::vector<PlayerBest> player_bests(PlayerId player);
  // The player's daily streaks, one per mode with a counted day, by mode.
  // Each counted game costs its finish a constant number of statements;
  // only a day counted after the day following it (a game ended late by its
  // close, on a server that was down at midnight) also renumbers the run of
  // days after it.
  std::vector<StreakRecord> player_streaks(PlayerId player);
  // ---- A player's history (history.hpp; docs/protocol.md, "History"). ----
  //
  // The player's finished games, newest finish first (equal times: larger
  // id first), from query.before on: at most query.limit games of those the
  // view shows, and the cursor of the next page. At most query.scan of the
  // player's finished games are looked at (keyset ranges of index
  // games_finished_by_player, limit + 1 rows at a time), so a page costs
  // O(scan) rows whatever the history, and O(limit) when it shows every
  // game it looks at; plus for each game its board's rank (O(log n)
  // through the rank cache). Games arriving meanwhile do not move a
  // cursor's later pages.
  HistoryPage player_history(const HistoryQuery& query);
  // The number of the player's finished games the view shows per UTC day,
  // for games finished in [from, to) (milliseconds), by day; days without
  // games are left out. Costs O(games finished in the range).
  std::vector<HistoryDay> player_calendar(PlayerId player, HistoryView view, std::int64_t now,
                                          std::int64_t from, std::int64_t to);
  // The board's entries and revision (one primary-key read): whether a
  // page read earlier at some revision may have changed.
  BoardRevision leaderboard_revision(const BoardKey& board);
  // Places offset+1 .. offset+limit of a season's standings (limit and
  // offset below 0 count as 0), with their total and revision, as of one
  // snapshot; empty (total 0, revision 0) for standings nobody is in.
  SeasonPage season_standings(const SeasonKey& season, std::int64_t limit, std::int64_t offset);
  // The places within `radius` of the named player's; nullopt when the
  // player is unknown or not in these standings.
  std::optional<SeasonPage> season_around(const SeasonKey& season, std::string_view player_name,
                                          std::int64_t radius);
  // The standings' player count and revision (one primary-key read).
  BoardRevision season_revision(const SeasonKey& season);
  // The periods with standings (one player or more) for `mode`, latest first (a week before the
  // month starting the same day), at most `limit`.
  std::vector<SeasonPeriodRecord> season_periods(game::Mode mode, std::int64_t limit);
  // The latest finished room saved under this code.
  std::optional<RoomRecord> find_room(std::string_view code);

  std::optional<BoardRecord> find_board(const BoardKey& key);
  std::optional<CompetitionRecord> find_competition(std::string_view id);
  // Public competitions by state at `now` (upcoming: soonest opening first;
  // open: soonest close first; closed: latest close first), or to_close:
  // all past their close with the closing work not done.
  std::vector<CompetitionRecord> competitions(CompetitionState state, std::int64_t now,
                                              std::int64_t limit);
  // The competitions an organiser created, or (nullopt) the operator's
  // own (no organiser, dailies left out), whatever their state and listed
  // or not: entries offset+1 .. offset+limit, newest creation first (equal
  // times by id), and the total. limit and offset below 0 count as 0.
  OrganiserCompetitions competitions_of(std::optional<OrganiserId> organiser, std::int64_t limit,
                                        std::int64_t offset);
  // The archive: public (listed) competitions closed at query.now (closes_at
  // <= now; dailies included, unlisted ones never), latest close first (equal
  // closes by id, descending), strictly before query.before, of query.mode
  // and query.kind when given; at most query.limit, with `next` the cursor of
  // the page after (nullopt on the last). Each carries its board's key, its
  // field size (leaderboard_boards) and its winner (the board's first
  // place): a page costs O(limit) indexed reads whatever the archive's
  // size (partial indexes competitions_archive*).
  ArchivePage archive(const ArchiveQuery& query);
  // EXPLAIN of the archive's page query for these filters, one line per plan
  // row: proof that it walks an index in order (no sort).
  std::string archive_query_plan(const ArchiveQuery& query);
  // Ids of the competition's games still playing.
  std::vector<std::string> playing_games_in(std::string_view competition_id);
  // Attempts the player has started (counted) in the competition.
  std::int64_t attempts_started(std::string_view competition_id, PlayerId player);
  // The hashes of the player's device tokens (not its first token), oldest
  // first; empty for an unknown player.
  std::vector<std::string> device_token_hashes(PlayerId player);
  // Whether the player has a recovery code (its hash is never read out).
  bool has_recovery_code(PlayerId player);
  // The same for every player who has started one there, as (player, attempts
  // started) pairs ordered by player id: one read for a whole results export.
  std::vector<std::pair<PlayerId, std::int64_t>> attempts_started_in(
      std::string_view competition_id);
  std::optional<OrganiserRecord> find_organiser_by_token_hash(std::string_view token_hash);
  std::vector<EntryFlag> entry_flags(std::string_view competition_id);

  // EXPLAIN QUERY PLAN of the exact SQL behind leaderboard(), one line per
  // plan row: proof that the order comes from the index, not a sort.
  std::string leaderboard_query_plan();
  // The same for the rank query of leaderboard_around().
  std::string leaderboard_rank_query_plan();
  // PostgreSQL: EXPLAIN of the statement that stores a batch's moves, as
  // the writer's session keeps it once planned generically: proof that
  // each game is found by its primary key. Empty on SQLite.
  std::string move_batch_query_plan();

  // ---- Room ownership between nodes (several on one PostgreSQL). ----
  //
  // A node serves a room only while it holds the room's claim: a
  // PostgreSQL advisory lock on a session of the Database's own, so the
  // claims of a node that dies (or loses that session) are free again at
  // once for another node. On SQLite (one node) every claim succeeds.

  // True when the room is now this Database's (or already was); false when
  // another node holds it or the database cannot be reached.
  bool claim_room(std::string_view code);
  void release_room(std::string_view code);
  // Checks the claims' session (a round trip); when it was lost, every
  // claim is gone and room_claims_generation() moves on: whoever serves
  // rooms on those claims must give them all up.
  void check_room_claims();
  std::uint64_t room_claims_generation() const;

  // Every open room (save_open_room), oldest first, players in joining order
  // with their names.
  std::vector<OpenRoomRecord> open_rooms();
  // The open room with this code (matched exactly), if any.
  std::optional<OpenRoomRecord> find_open_room(std::string_view code);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tilecrush::storage
