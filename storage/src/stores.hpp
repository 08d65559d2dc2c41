// The SQL behind every Database operation, one function per operation.
//
// Write functions run on the writer connection inside the operation's
// savepoint: they return a refusal as a WriteResult (the savepoint is then
// rolled back) and throw StorageError for faults. Read functions run on a
// reader connection.
//
// Thread safety: none; each call uses one connection on its owning thread.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codec.hpp"
#include "connection.hpp"
#include "rank_cache.hpp"
#include "sql_join.hpp"
#include "tilecrush/storage/archive.hpp"
#include "tilecrush/storage/error.hpp"
#include "tilecrush/storage/history.hpp"
#include "tilecrush/storage/records.hpp"
#include "tilecrush/storage/season.hpp"

namespace tilecrush::storage::detail {

// Where a player's name is ?1 ignoring ASCII case, by dialect; either way
// the read uses the unique index on the name. SQLite: `name = ?1` compares
// with the column's NOCASE collation. PostgreSQL: ASCII case folding is
// lower() under the "C" collation, the expression of the unique index
// players_name.
inline constexpr std::string_view kWhereNameIsSqlite = R"sql(
WHERE name = ?1
)sql";
inline constexpr std::string_view kWhereNameIsPg = R"sql(
WHERE lower(name COLLATE "C") = lower(?1::text COLLATE "C")
)sql";

// A RETURNING row nobody reads.
struct IgnoreRow {
  void operator()(const Statement&) const {}
};

// Runs the insert `q` (its parameters bound), handing each row it returns
// to `row`: nullopt when it stored its row; else the refusal of a row
// whose key exists (conflict, with the message exists() makes) or that
// names a row that does not exist (not_found, missing()). Other faults
// throw.
template <class Exists, class Missing, class Row = IgnoreRow>
std::optional<WriteResult> run_insert(Statement& q, Exists exists, Missing missing, Row row = {}) {
  try {
    while (q.step()) row(q);
  } catch (const StorageError& e) {
    if (is_primary_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::conflict, exists());
    }
    if (is_foreign_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::not_found, missing());
    }
    throw;
  }
  return std::nullopt;
}

// players (player_store.cpp)
// A row of (name, token_hash, created_at) by `sql` (?1, ?2, ?3): ok with
// its id, name_taken on a unique violation, invalid for an empty name.
// Players and organisers alike.
WriteResult insert_account(Connection& c, std::string_view sql, const NewAccount& account);
WriteResult insert_player(Connection& c, const NewAccount& account);
void count_played_game(Connection& c, PlayerId player);
std::optional<PlayerRecord> select_player_by_name(Connection& c, std::string_view name);
std::optional<PlayerRecord> select_player_by_id(Connection& c, PlayerId id);

// recovery codes and device tokens (recovery_store.cpp)
// not_found: no such player.
WriteResult update_recovery_hash(Connection& c, PlayerId player, const std::string& code_hash);
// Database::recover_player's whole check; never a refusal (a wrong code's
// failure must commit), so it always runs to its end or throws.
RecoveryResult try_recovery(Connection& c, const RecoveryAttempt& attempt);
std::vector<std::string> select_device_tokens(Connection& c, PlayerId player);
bool select_has_recovery(Connection& c, PlayerId player);

// games (game_store.cpp)
WriteResult insert_game(Connection& c, const GameRecord& game);
// a playing game's move list (game_moves_store.cpp)
WriteResult insert_move(Connection& c, const std::string& game_id, std::int64_t seq,
                        const game::Move& move, std::int64_t score, std::int64_t move_count,
                        std::optional<std::int64_t> first_move_at, std::int64_t at_ms);
// insert_move with the move and its time offset encoded (codec.hpp).
WriteResult insert_encoded_move(Connection& c, const std::string& game_id, std::int64_t seq,
                                const std::string& move, const std::string& time,
                                std::int64_t score, std::int64_t move_count,
                                std::optional<std::int64_t> first_move_at);
// insert_encoded_move's statement (an UPDATE without a RETURNING clause,
// so one may be appended), and the binding of its parameters.
std::string_view append_move_sql();
void bind_append_move(Statement& q, const std::string& game_id, std::int64_t seq,
                      const std::string& move, const std::string& time, std::int64_t score,
                      std::int64_t move_count, std::optional<std::int64_t> first_move_at);
// Why move `seq` of a game was not appended (an append that changed
// nothing): not_found for an unknown game, conflict for one over or whose
// list does not hold `seq` moves.
WriteResult refused_move(Connection& c, const std::string& game_id, std::int64_t seq);
WriteResult delete_last_move(Connection& c, const std::string& game_id, std::int64_t seq,
                             std::int64_t score, std::int64_t move_count);
// a game's end (game_finish_store.cpp)
WriteResult finish_game(Connection& c, const GameResult& result);
// A game's last move (encoded: move, its time offset; number `seq`)
// appended, then its end as finish_game with moves_stored; the move's
// statement also reads what the end reads (one statement fewer). The first
// refusal is the result; the caller's savepoint then takes the move back.
WriteResult finish_game_with_move(Connection& c, const std::string& move, const std::string& time,
                                  std::int64_t seq, std::optional<std::int64_t> first_move_at,
                                  const GameResult& result);
// The lock keys finish_game takes for each of `game_ids` (its board's and
// player's), read from the games' rows (on PostgreSQL in one statement):
// none for an unknown or unranked game.
void finish_games_lock_keys(Connection& c, std::span<const std::string_view> game_ids,
                            std::vector<std::int32_t>& keys);

// Lock keys (Connection::lock_keys) of what one write transaction must
// change alone: a board's entries and revision; a player's streaks and
// entries; the season standings; a name's recovery tries.
std::int32_t board_lock(const BoardKey& board);
std::int32_t player_lock(PlayerId player);
std::int32_t season_lock();
std::int32_t recovery_lock(std::string_view name);
// games (game_store.cpp)
std::optional<GameRecord> select_game(Connection& c, std::string_view game_id);
std::vector<std::string> select_unfinished_games(Connection& c, std::optional<PlayerId> player);
std::vector<RunningAttempt> select_running_attempts(Connection& c, PlayerId player,
                                                    std::int64_t now, std::int64_t limit,
                                                    std::int64_t scan);

// leaderboards and bests (leaderboard_store.cpp)
struct CountedGame {
  BoardKey board;
  PlayerId player_id = 0;
  std::string game_id;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::int64_t duration_ms = 0;
  std::int64_t finished_at = 0;
};
// Binds a board as every leaderboard statement names it: ?1 mode, ?2
// preset, ?3 seed, ?11 scope.
void bind_board(Statement& s, const BoardKey& board);
// A competition from columns 0-15 of a row in the order of
// competition_store.cpp's selects (id ... commitment); the archive adds its
// own columns after them.
CompetitionRecord read_competition_row(const Statement& s);
// Revisions of changes kept in leaderboard_changes per board: a rank index
// further behind than this reloads the board's keys instead.
inline constexpr std::int64_t kChangeWindow = 50'000;
// Leaderboard entry (best of, attempts + 1), the board's revision, the
// change of place, and the player's best.
void record_counted_game(Connection& c, const CountedGame& game);
// Takes the player's entry off the board (its revision and change too):
// the entry's game id, nullopt when there is no entry.
std::optional<std::string> remove_entry(Connection& c, const BoardKey& board, PlayerId player);
std::vector<PlayerBest> select_player_bests(Connection& c, PlayerId player);

// daily streaks (streak_store.cpp)
// Counts `day` for the player's streak in `mode`: nothing when it counts
// already; else its run (1 + the previous day's), the runs of the days
// right after it, and the player's best.
void record_streak_day(Connection& c, PlayerId player, game::Mode mode, std::int64_t day);
// Takes `day` back from the player's streak in `mode` after a
// disqualification, unless another of that day's dailies of the mode still
// counts it: the run after it starts over, and the best is the longest run
// left.
void uncount_streak_day(Connection& c, PlayerId player, game::Mode mode, std::int64_t day);
std::vector<StreakRecord> select_player_streaks(Connection& c, PlayerId player);

// seasons (season_store.cpp)
// Counts a daily's points into its week's and month's standings, once:
// ok (changing nothing) when it was counted already; not_found: no such
// competition; invalid: not a daily.
WriteResult record_season_points(Connection& c, const std::string& competition_id);
// Counts a counted daily's points again from its leaderboard as it is now
// (after a disqualification); nothing when it was never counted.
void recount_season_points(Connection& c, const CompetitionRecord& comp);
SeasonPage select_season_page(Connection& c, const SeasonKey& key, std::int64_t limit,
                              std::int64_t offset);
std::optional<SeasonPage> select_season_around(Connection& c, const SeasonKey& key,
                                               std::string_view player_name, std::int64_t radius);
BoardRevision select_season_revision(Connection& c, const SeasonKey& key);
std::vector<SeasonPeriodRecord> select_season_periods(Connection& c, game::Mode mode,
                                                      std::int64_t limit);

// leaderboard pages (leaderboard_pages.cpp); `cache` null: the plain scan.
LeaderboardPage select_leaderboard(Connection& c, RankCache* cache, const BoardKey& board,
                                   std::int64_t limit, std::int64_t offset);
std::optional<LeaderboardPage> select_leaderboard_around(Connection& c, RankCache* cache,
                                                         const BoardKey& board,
                                                         std::string_view player_name,
                                                         std::int64_t radius);
BoardRevision select_board_revision(Connection& c, const BoardKey& board);
// One line per plan row of `sql` (leaderboard statements: ?1-?3, ?11 a
// board, ?4-?7 numbers), as the backend plans it (query_plan.cpp).
std::string query_plan(Connection& c, std::string_view sql);
std::string explain_leaderboard(Connection& c);
std::string explain_leaderboard_rank(Connection& c);

// Entries of the board ranking above `key` (leaderboard_pages.cpp), in the
// caller's read transaction, which sees the board at `state`: O(log n)
// through the rank cache, else a count over the index range ahead of it.
std::int64_t count_ranked_before(Connection& c, RankCache* cache, const BoardKey& board,
                                 const BoardRevision& state, const RankKey& key);

// a player's history and calendar (history_store.cpp)
HistoryPage select_history(Connection& c, RankCache* cache, const HistoryQuery& query);
// Finished games per UTC day with finished_at in [from, to), by day.
std::vector<HistoryDay> select_calendar(Connection& c, PlayerId player, HistoryView view,
                                        std::int64_t now, std::int64_t from, std::int64_t to);

// boards, competitions, organisers, entry flags (competition_store.cpp)
WriteResult insert_board(Connection& c, const BoardRecord& board);
std::optional<BoardRecord> select_board(Connection& c, const BoardKey& key);
WriteResult insert_competition(Connection& c, const CompetitionRecord& comp,
                               const BoardRecord& board);
std::optional<CompetitionRecord> select_competition(Connection& c, std::string_view id);
std::vector<CompetitionRecord> select_competitions(Connection& c, CompetitionState state,
                                                   std::int64_t now, std::int64_t limit);
OrganiserCompetitions select_competitions_of(Connection& c, std::optional<OrganiserId> organiser,
                                             std::int64_t limit, std::int64_t offset);
WriteResult mark_competition_closed(Connection& c, const std::string& id);
std::vector<std::string> select_playing_in(Connection& c, std::string_view competition_id);
std::int64_t select_attempts_started(Connection& c, std::string_view competition_id,
                                     PlayerId player);
std::vector<std::pair<PlayerId, std::int64_t>> select_attempts_started_in(
    Connection& c, std::string_view competition_id);
WriteResult insert_organiser(Connection& c, const NewAccount& account);
std::optional<OrganiserRecord> select_organiser_by_token_hash(Connection& c,
                                                              std::string_view token_hash);
WriteResult insert_flag(Connection& c, const EntryFlag& flag);
// disqualify_entry's lock keys: the competition's board, the player, the
// seasons.
void disqualify_lock_keys(Connection& c, const std::string& competition_id, PlayerId player,
                          std::vector<std::int32_t>& keys);
WriteResult disqualify_entry(Connection& c, const std::string& competition_id, PlayerId player,
                             const std::string& reason, std::int64_t at);
std::vector<EntryFlag> select_flags(Connection& c, std::string_view competition_id);

// the archive of closed competitions (archive_store.cpp)
ArchivePage select_archive(Connection& c, const ArchiveQuery& query);
std::string explain_archive(Connection& c, const ArchiveQuery& query);

// finished rooms (room_store.cpp)
WriteResult insert_room(Connection& c, const RoomRecord& room);
std::optional<RoomRecord> select_room(Connection& c, std::string_view code);

// open rooms (open_room_store.cpp): SQL shared with PostgreSQL.
WriteResult upsert_open_room(Connection& c, const OpenRoomRecord& room);
WriteResult remove_open_room(Connection& c, const std::string& code);
// insert_room(result), then the open room of result.code removed.
WriteResult finish_open_room(Connection& c, const RoomRecord& result);
std::vector<OpenRoomRecord> select_open_rooms(Connection& c);
std::optional<OpenRoomRecord> select_open_room(Connection& c, std::string_view code);

}  // namespace tilecrush::storage::detail
