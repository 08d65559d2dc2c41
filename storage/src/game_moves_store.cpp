// A playing game's move list: a move appended, the last one taken back.
#include "codec.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// ?5 is the move's text; ?6 the length of the list before it (seq moves);
// ?7 the move's time offset (codec.hpp), lost in a NULL list (no offsets).
// "Playing" is `state <> 'over'` here and below, so that the game is found
// by its primary key, never through the partial index games_playing
// (move_batch.cpp says why).
constexpr std::string_view kAppendMove = R"sql(
UPDATE games SET move_list = move_list || ?5, score = ?2, move_count = ?3,
                 first_move_at = coalesce(first_move_at, ?4), move_times = move_times || ?7
WHERE id = ?1 AND state <> 'over' AND length(move_list) = ?6
)sql";

// ?4 is the length of the list without its last move (seq moves), ?5 that
// of the offsets (substr keeps a NULL list NULL).
constexpr std::string_view kTakeBackMove = R"sql(
UPDATE games SET move_list = substr(move_list, 1, ?4), score = ?2, move_count = ?3,
                 move_times = substr(move_times, 1, ?5)
WHERE id = ?1 AND state <> 'over' AND length(move_list) = ?4 + 5
)sql";

constexpr std::string_view kSelectListState = R"sql(
SELECT state, length(move_list) FROM games WHERE id = ?1
)sql";

// Why an update of a playing game's move list changed nothing: no such game
// (not_found), the game is over (conflict), or its list does not hold
// `expected` moves (`wrong_length`).
WriteResult refused_update(Connection& c, const std::string& game_id, std::int64_t expected,
                           WriteStatus wrong_length, const std::string& what) {
  auto q = c.query(kSelectListState);
  q->bind(1, game_id);
  if (!q->step()) return write_error(WriteStatus::not_found, "unknown game " + game_id);
  if (parse_game_state(q->get_text(0)) == GameState::over) {
    return write_error(WriteStatus::conflict, "game " + game_id + " is over");
  }
  return write_error(wrong_length, what + ": " + game_id + " has " +
                                       std::to_string(q->get_int(1) / kMoveChars) + " moves, not " +
                                       std::to_string(expected));
}

}  // namespace

WriteResult insert_move(Connection& c, const std::string& game_id, std::int64_t seq,
                        const game::Move& move, std::int64_t score, std::int64_t move_count,
                        std::optional<std::int64_t> first_move_at, std::int64_t at_ms) {
  return insert_encoded_move(c, game_id, seq, encode_move(move), encode_move_time(at_ms), score,
                             move_count, first_move_at);
}

WriteResult insert_encoded_move(Connection& c, const std::string& game_id, std::int64_t seq,
                                const std::string& move, const std::string& time,
                                std::int64_t score, std::int64_t move_count,
                                std::optional<std::int64_t> first_move_at) {
  if (seq < 0) return write_error(WriteStatus::invalid, "negative move number");
  auto q = c.query(kAppendMove);
  bind_append_move(*q, game_id, seq, move, time, score, move_count, first_move_at);
  q->run();
  if (c.changes() == 0) return refused_move(c, game_id, seq);
  return write_ok();
}

std::string_view append_move_sql() {
  return kAppendMove;
}

void bind_append_move(Statement& q, const std::string& game_id, std::int64_t seq,
                      const std::string& move, const std::string& time, std::int64_t score,
                      std::int64_t move_count, std::optional<std::int64_t> first_move_at) {
  q.bind(1, game_id);
  q.bind(2, score);
  q.bind(3, move_count);
  q.bind(4, first_move_at);
  q.bind(5, move);
  q.bind(6, seq * kMoveChars);
  q.bind(7, time);
}

WriteResult refused_move(Connection& c, const std::string& game_id, std::int64_t seq) {
  return refused_update(c, game_id, seq, WriteStatus::conflict,
                        "move " + std::to_string(seq) + " is not the next");
}

WriteResult delete_last_move(Connection& c, const std::string& game_id, std::int64_t seq,
                             std::int64_t score, std::int64_t move_count) {
  if (seq < 0) return write_error(WriteStatus::not_found, "negative move number");
  auto q = c.query(kTakeBackMove);
  q->bind(1, game_id);
  q->bind(2, score);
  q->bind(3, move_count);
  q->bind(4, seq * kMoveChars);
  q->bind(5, seq * kMoveTimeChars);
  q->run();
  if (c.changes() == 0) {
    return refused_update(c, game_id, seq + 1, WriteStatus::not_found,
                          "move " + std::to_string(seq) + " is not the last");
  }
  return write_ok();
}

}  // namespace tilecrush::storage::detail
