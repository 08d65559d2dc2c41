#include "move_batch.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

#include "codec.hpp"
#include "pg_array_text.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// Every game's moves of the batch in one statement: the arrays are its
// rows (id, list length expected, moves, offsets, score, move count, first
// move time). A game updates only where its list holds the expected
// number of moves, as insert_move's statement; RETURNING names the games
// it changed.
//
// "Still playing" is written `state <> 'over'` (the same rows: the column's
// CHECK allows only the two) because from `state = 'playing'` PostgreSQL
// may read the games through the partial index games_playing: where its
// statistics say few games are playing (a young table, or one analyzed at
// a quiet hour), the plan it keeps hashes every playing game, dead row
// versions included, for each batch: 83 µs of PostgreSQL time a move in
// bench/pg_compare.sh's closed loop, against 18 by primary key. From
// `<> 'over'` the partial index cannot be proven to apply, so it is never
// a choice (MoveBatch.EachGameIsFoundByItsPrimaryKeyWhateverTheStatistics).
constexpr std::string_view kAppendMoves = R"sql(
UPDATE games AS g
SET move_list = g.move_list || m.list, score = m.score, move_count = m.move_count,
    first_move_at = coalesce(g.first_move_at, m.first_move_at),
    move_times = g.move_times || m.times
FROM unnest(?1::text[], ?2::int8[], ?3::text[], ?4::text[], ?5::int8[], ?6::int8[],
            ?7::int8[]) AS m(id, expected, list, times, score, move_count, first_move_at)
WHERE g.id = m.id AND g.state <> 'over' AND length(g.move_list) = m.expected
RETURNING g.id
)sql";

WriteResult append_one(Connection& c, const MoveAppend& m) {
  return insert_encoded_move(c, m.game_id, m.seq, m.move, m.time, m.score, m.move_count,
                             m.first_move_at);
}

}  // namespace

WriteResult store_move(Connection& c, const MoveAppend& move) {
  return append_one(c, move);
}

std::vector<WriteResult> append_moves(Connection& c, std::span<const MoveAppend* const> moves) {
  std::vector<WriteResult> results(moves.size());
  // A game's moves after one refused as a conflict were made on it: refused
  // unrun (write_op.hpp, `game`).
  std::set<std::string_view> refused;
  const auto append_alone = [&](std::size_t i) {
    const std::string_view game = moves[i]->game_id;
    if (refused.contains(game)) {
      results[i] = write_error(WriteStatus::conflict,
                               "game " + moves[i]->game_id + ": an earlier move of it was refused");
      return;
    }
    results[i] = append_one(c, *moves[i]);
    if (results[i].status == WriteStatus::conflict) refused.insert(game);
  };
  if (!c.postgres() || moves.size() < 2) {
    for (std::size_t i = 0; i < moves.size(); ++i) append_alone(i);
    return results;
  }
  // Each game's moves in order; its first run of consecutive numbers goes
  // into the statement, anything after it one by one afterwards.
  std::map<std::string_view, std::vector<std::size_t>> by_game;  // ordered: rows locked by id
  for (std::size_t i = 0; i < moves.size(); ++i) by_game[moves[i]->game_id].push_back(i);
  std::vector<std::size_t> combined_end(moves.size(), 0);  // per first index: its run's length
  PgArrayText ids, expected, lists, times, scores, counts, firsts;
  std::size_t rows = 0;
  for (const auto& [id, indexes] : by_game) {
    const MoveAppend& first = *moves[indexes.front()];
    if (first.seq < 0) continue;
    std::size_t run = 1;
    while (run < indexes.size() && moves[indexes[run]]->seq == first.seq + std::int64_t(run)) {
      ++run;
    }
    std::string list;
    std::string offsets;
    std::optional<std::int64_t> first_move_at;
    for (std::size_t k = 0; k < run; ++k) {
      const MoveAppend& m = *moves[indexes[k]];
      list += m.move;
      offsets += m.time;
      if (!first_move_at) first_move_at = m.first_move_at;
    }
    const MoveAppend& last = *moves[indexes[run - 1]];
    ids.add(id);
    expected.add(first.seq * kMoveChars);
    lists.add(list);
    times.add(offsets);
    scores.add(last.score);
    counts.add(last.move_count);
    firsts.add(first_move_at);
    combined_end[indexes.front()] = run;
    ++rows;
  }
  std::unordered_set<std::string> changed;
  if (rows > 0) {
    auto q = c.query(kAppendMoves);
    q->bind(1, ids.done());
    q->bind(2, expected.done());
    q->bind(3, lists.done());
    q->bind(4, times.done());
    q->bind(5, scores.done());
    q->bind(6, counts.done());
    q->bind(7, firsts.done());
    while (q->step()) changed.insert(q->get_text(0));
  }
  // The stored runs are acknowledged; every other move runs alone, in the
  // batch's order (a game's moves after its stored run come after it).
  std::vector<bool> stored(moves.size(), false);
  for (const auto& [id, indexes] : by_game) {
    const std::size_t run = combined_end[indexes.front()];
    if (run == 0 || !changed.contains(std::string(id))) continue;
    for (std::size_t k = 0; k < run; ++k) stored[indexes[k]] = true;
  }
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (stored[i]) {
      results[i] = write_ok();
    } else {
      append_alone(i);
    }
  }
  return results;
}

WriteResult append_final_move(Connection& c, const MoveAppend& move, const GameResult& result) {
  return finish_game_with_move(c, move.move, move.time, move.seq, move.first_move_at, result);
}

std::string explain_move_batch(Connection& c) {
  if (!c.postgres()) return {};
  // PREPARE and plan_cache_mode are SQL of this session: both are undone
  // however the EXPLAIN ends, so the reader goes back to its pool as it was.
  std::string sql(kAppendMoves);
  std::replace(sql.begin(), sql.end(), '?', '$');
  c.execute("PREPARE tc_explain_moves AS " + sql);
  struct Undo {
    Connection& c;
    ~Undo() {
      try {
        c.execute("RESET plan_cache_mode");
        c.execute("DEALLOCATE tc_explain_moves");
      } catch (const std::exception&) {  // the session is gone: nothing to undo
      }
    }
  } undo{c};
  c.execute("SET plan_cache_mode = force_generic_plan");
  auto statement = c.prepare(
      "EXPLAIN EXECUTE tc_explain_moves('{}', '{}', '{}', '{}', '{}', "
      "'{}', '{}')");
  std::string plan;
  while (statement->step()) {
    if (!plan.empty()) plan += '\n';
    plan += statement->get_text(0);
  }
  return plan;
}

}  // namespace tilecrush::storage::detail
