// A game's end: its row closed, and a ranked game counted (its board's
// entry, the player's best, streak and played count).
#include <span>
#include <string_view>

#include "codec.hpp"
#include "pg_array_text.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kSelectForFinish =
    R"sql(
SELECT g.player_id, g.mode, g.preset, g.seed, g.ranked, g.state,
       CASE WHEN g.rules_version = 1 THEN 'v1' ELSE coalesce(g.competition_id, '') END,
       EXISTS (SELECT 1 FROM entry_flags AS f
               WHERE f.competition_id = g.competition_id AND f.player_id = g.player_id
                 AND f.flag = 'disqualified'),
       (SELECT c.opens_at / 86400000 FROM competitions AS c
        WHERE c.id = g.competition_id AND c.daily = 1),
       coalesce(length(g.move_list), 0)
FROM games AS g WHERE g.id = ?1
)sql";

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

WriteResult finish_game(Connection& c, const GameResult& result) {
  if (result.over_reason == game::OverReason::none) {
    return write_error(WriteStatus::invalid, "a finished game needs a reason");
  }
  CountedGame counted;
  bool ranked = false;
  bool disqualified = false;
  std::optional<std::int64_t> daily_day;  // the UTC day of a daily board
  // A ranked game's finish reads its board's entry and the player's flags
  // and streak, then writes them: under the board's and the player's locks
  // (normally taken with the batch's; otherwise the row is read again after
  // them, since what it says of flags and state may have changed).
  bool over = false;
  std::int64_t stored_moves = 0;
  const auto read_row = [&]() -> bool {
    auto q = c.query(kSelectForFinish);
    q->bind(1, result.game_id);
    if (!q->step()) return false;
    over = parse_game_state(q->get_text(5)) == GameState::over;
    ranked = q->get_int(4) != 0;
    counted.player_id = q->get_int(0);
    counted.board.mode = parse_mode_text(q->get_text(1));
    counted.board.preset = q->get_text(2);
    counted.board.seed = q->get_text(3);
    counted.board.scope = q->get_text(6);
    disqualified = q->get_int(7) != 0;
    daily_day = q->get_optional_int(8);
    // Five characters a move (move_list, storage/README.md).
    stored_moves = q->get_int(9) / 5;
    return true;
  };
  if (!read_row()) return write_error(WriteStatus::not_found, "unknown game " + result.game_id);
  if (!over && ranked && c.lock_keys({board_lock(counted.board), player_lock(counted.player_id)})) {
    read_row();
  }
  if (over) {
    return write_error(WriteStatus::conflict, "game " + result.game_id + " is already over");
  }
  if (result.moves_stored && stored_moves != result.move_count) {
    return write_error(WriteStatus::conflict,
                       "game " + result.game_id + " holds " + std::to_string(stored_moves) +
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
    q->run();
    if (c.changes() == 0) {
      return write_error(WriteStatus::conflict, "game " + result.game_id + " is already over");
    }
  }
  // A disqualified entry stays out of its competition's ranking.
  if (ranked && !disqualified) {
    counted.game_id = result.game_id;
    counted.score = result.score;
    counted.move_count = result.move_count;
    counted.duration_ms = result.duration_ms;
    counted.finished_at = result.finished_at;
    record_counted_game(c, counted);
    count_played_game(c, counted.player_id);
    if (daily_day) record_streak_day(c, counted.player_id, counted.board.mode, *daily_day);
  }
  return write_ok();
}

}  // namespace tilecrush::storage::detail
