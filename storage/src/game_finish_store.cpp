// A game's end: its row closed, and a ranked game counted (its board's
// entry, the player's best, streak and played count).
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "codec.hpp"
#include "pg_array_text.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// What a game's end reads of its row (FinishRow), as a select list and as
// a RETURNING list: the table is named, not aliased, since SQLite's
// RETURNING cannot name an alias. (Strings built once: the connections
// cache their statements by text.)
constexpr std::string_view kFinishColumns = R"sql(
games.player_id, games.mode, games.preset, games.seed, games.ranked, games.state,
CASE WHEN games.rules_version = 1 THEN 'v1' ELSE coalesce(games.competition_id, '') END,
EXISTS (SELECT 1 FROM entry_flags AS f
        WHERE f.competition_id = games.competition_id AND f.player_id = games.player_id
          AND f.flag = 'disqualified'),
(SELECT c.opens_at / 86400000 FROM competitions AS c
 WHERE c.id = games.competition_id AND c.daily = 1),
coalesce(length(games.move_list), 0)
)sql";

const std::string kSelectForFinish =
    "SELECT " + std::string(kFinishColumns) + "FROM games WHERE games.id = ?1";

// A game's last move appended (insert_encoded_move's statement) and its
// row read in the same statement: the end that follows needs no second
// round trip. No row: the move was refused.
const std::string& append_final_move_sql() {
  static const std::string sql =
      std::string(append_move_sql()) + "RETURNING" + std::string(kFinishColumns);
  return sql;
}

// A game's row as its end reads it.
struct FinishRow {
  bool over = false;
  bool ranked = false;
  bool disqualified = false;
  CountedGame counted;
  std::optional<std::int64_t> daily_day;  // the UTC day of a daily board
  std::int64_t stored_moves = 0;
};

FinishRow read_finish_row(const Statement& q) {
  FinishRow row;
  row.over = parse_game_state(q.get_text(5)) == GameState::over;
  row.ranked = q.get_int(4) != 0;
  row.counted.player_id = q.get_int(0);
  row.counted.board.mode = parse_mode_text(q.get_text(1));
  row.counted.board.preset = q.get_text(2);
  row.counted.board.seed = q.get_text(3);
  row.counted.board.scope = q.get_text(6);
  row.disqualified = q.get_int(7) != 0;
  row.daily_day = q.get_optional_int(8);
  // Five characters a move (move_list, storage/README.md).
  row.stored_moves = q.get_int(9) / kMoveChars;
  return row;
}

std::optional<FinishRow> select_finish_row(Connection& c, const std::string& game_id) {
  auto q = c.query(kSelectForFinish);
  q->bind(1, game_id);
  if (!q->step()) return std::nullopt;
  return read_finish_row(*q);
}

// Only a playing game ends: of two nodes finishing one game, the second
// waits for the first's row lock, then finds it over and changes nothing.
// `<> 'over'`, not `= 'playing'`: by its primary key, never through the
// partial index games_playing (move_batch.cpp says why).
constexpr std::string_view kFinishGame = R"sql(
UPDATE games SET state = 'over', score = ?2, move_count = ?3, over_reason = ?4,
                 finished_at = ?5, duration_ms = ?6
WHERE id = ?1 AND state <> 'over'
)sql";

// The board and player of every ranked game among the array ?1, in one
// statement (PostgreSQL: the writer looks up a batch's ends at once, one
// round trip instead of one each).
constexpr std::string_view kSelectRankedOfGames = R"sql(
SELECT g.player_id, g.mode, g.preset, g.seed,
       CASE WHEN g.rules_version = 1 THEN 'v1' ELSE coalesce(g.competition_id, '') END
FROM games AS g WHERE g.id = ANY(?1::text[]) AND g.ranked <> 0
)sql";

}  // namespace

void finish_games_lock_keys(Connection& c, std::span<const std::string_view> game_ids,
                            std::vector<std::int32_t>& keys) {
  if (game_ids.empty()) return;
  if (!c.postgres()) {
    for (const std::string_view id : game_ids) {
      auto q = c.query(kSelectForFinish);
      q->bind(1, id);
      if (!q->step() || q->get_int(4) == 0) continue;
      keys.push_back(board_lock(BoardKey{parse_mode_text(q->get_text(1)), q->get_text(2),
                                         q->get_text(3), q->get_text(6)}));
      keys.push_back(player_lock(q->get_int(0)));
    }
    return;
  }
  PgArrayText ids;
  for (const std::string_view id : game_ids) ids.add(id);
  auto q = c.query(kSelectRankedOfGames);
  q->bind(1, ids.done());
  while (q->step()) {
    keys.push_back(board_lock(
        BoardKey{parse_mode_text(q->get_text(1)), q->get_text(2), q->get_text(3), q->get_text(4)}));
    keys.push_back(player_lock(q->get_int(0)));
  }
}

namespace {

// The end of a game whose row (read in this transaction) is `row`.
// `row_written`: this transaction wrote the row (the last move), so it holds
// the row's lock and the row is playing until it commits.
WriteResult finish_read_game(Connection& c, const GameResult& result, FinishRow row,
                             bool row_written) {
  // A ranked game's finish reads its board's entry and the player's flags
  // and streak, then writes them: under the board's and the player's locks
  // (normally taken with the batch's; otherwise the row is read again after
  // them, since what it says of flags and state may have changed).
  if (!row.over && row.ranked &&
      c.lock_keys({board_lock(row.counted.board), player_lock(row.counted.player_id)})) {
    auto again = select_finish_row(c, result.game_id);
    if (!again) return write_error(WriteStatus::not_found, "unknown game " + result.game_id);
    row = std::move(*again);
  }
  if (row.over) {
    return write_error(WriteStatus::conflict, "game " + result.game_id + " is already over");
  }
  if (result.moves_stored && row.stored_moves != result.move_count) {
    return write_error(WriteStatus::conflict,
                       "game " + result.game_id + " holds " + std::to_string(row.stored_moves) +
                           " moves, its end counts " + std::to_string(result.move_count));
  }
  {
    auto q = c.query(kFinishGame);
    q->bind(1, result.game_id);
    q->bind(2, result.score);
    q->bind(3, result.move_count);
    q->bind(4, over_reason_text(result.over_reason));
    q->bind(5, result.finished_at);
    q->bind(6, result.duration_ms);
    if (row_written) {
      // Under the row's lock, found playing: it changes the row, so nothing
      // reads its answer (on PostgreSQL it goes with the next statement
      // read, one round trip fewer; Statement::run_later()).
      q->run_later();
    } else {
      q->run();
      if (c.changes() == 0) {
        return write_error(WriteStatus::conflict, "game " + result.game_id + " is already over");
      }
    }
  }
  // A disqualified entry stays out of its competition's ranking.
  if (row.ranked && !row.disqualified) {
    CountedGame& counted = row.counted;
    counted.game_id = result.game_id;
    counted.score = result.score;
    counted.move_count = result.move_count;
    counted.duration_ms = result.duration_ms;
    counted.finished_at = result.finished_at;
    record_counted_game(c, counted);
    count_played_game(c, counted.player_id);
    if (row.daily_day) record_streak_day(c, counted.player_id, counted.board.mode, *row.daily_day);
  }
  return write_ok();
}

bool has_reason(const GameResult& result) {
  return result.over_reason != game::OverReason::none;
}

}  // namespace

WriteResult finish_game(Connection& c, const GameResult& result) {
  if (!has_reason(result))
    return write_error(WriteStatus::invalid, "a finished game needs a reason");
  auto row = select_finish_row(c, result.game_id);
  if (!row) return write_error(WriteStatus::not_found, "unknown game " + result.game_id);
  return finish_read_game(c, result, std::move(*row), false);
}

WriteResult finish_game_with_move(Connection& c, const std::string& move, const std::string& time,
                                  std::int64_t seq, std::optional<std::int64_t> first_move_at,
                                  const GameResult& result) {
  if (!has_reason(result))
    return write_error(WriteStatus::invalid, "a finished game needs a reason");
  if (seq < 0) return write_error(WriteStatus::invalid, "negative move number");
  std::optional<FinishRow> row;
  {
    auto q = c.query(append_final_move_sql());
    bind_append_move(*q, result.game_id, seq, move, time, result.score, result.move_count,
                     first_move_at);
    if (q->step()) row = read_finish_row(*q);
  }
  if (!row) return refused_move(c, result.game_id, seq);
  GameResult end = result;
  end.moves_stored = true;
  return finish_read_game(c, end, std::move(*row), true);
}

}  // namespace tilecrush::storage::detail
