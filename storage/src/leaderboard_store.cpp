#include <array>
#include <optional>
#include <utility>

#include "codec.hpp"
#include "rank_index.hpp"
#include "row_columns.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// Every leaderboard statement names the board as ?1 mode, ?2 preset, ?3 seed
// and ?11 scope, and the player as ?4.

// The entry's place in the order; the primary key.
constexpr std::string_view kSelectEntryKey = R"sql(
SELECT score, tiebreak, finished_at, game_id FROM leaderboard
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND player_id = ?4
)sql";

constexpr std::string_view kInsertEntry = R"sql(
INSERT INTO leaderboard (scope, mode, preset, seed, player_id, score, tiebreak, move_count,
                         duration_ms, attempts, game_id, finished_at)
VALUES (?11, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, ?10)
)sql";

// A better result replaces the entry; attempts count every game.
constexpr std::string_view kReplaceEntry = R"sql(
UPDATE leaderboard
SET score = ?5, tiebreak = ?6, move_count = ?7, duration_ms = ?8, game_id = ?9, finished_at = ?10,
    attempts = attempts + 1
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND player_id = ?4
)sql";

constexpr std::string_view kCountAttempt = R"sql(
UPDATE leaderboard SET attempts = attempts + 1
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND player_id = ?4
)sql";

constexpr std::string_view kDeleteEntry = R"sql(
DELETE FROM leaderboard
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND player_id = ?4
)sql";

// Every change to a board's entries (a new one, a better result, one more
// attempt, one removed) takes the next revision, under the board's lock
// (board_lock()), so revisions are committed in order. ?4: the change in the number of entries.
constexpr std::string_view kBumpBoard = R"sql(
INSERT INTO leaderboard_boards (scope, mode, preset, seed, entries, revision)
VALUES (?11, ?1, ?2, ?3, ?4, 1)
ON CONFLICT (scope, mode, preset, seed)
DO UPDATE SET entries = leaderboard_boards.entries + ?4,
              revision = leaderboard_boards.revision + 1
)sql";

// A change of an entry's place, for rank caches to follow (rank_cache.hpp).
// Its primary key is the index readers scan from their revision on. Its
// revision is the one the bump above took: it runs after the bump in the
// same transaction, under the board's lock, and reads the board's row.
constexpr std::string_view kLogChange = R"sql(
INSERT INTO leaderboard_changes (scope, mode, preset, seed, revision, player_id,
                                 old_score, old_tiebreak, old_finished_at,
                                 new_score, new_tiebreak, new_finished_at)
VALUES (?11, ?1, ?2, ?3,
        (SELECT revision FROM leaderboard_boards
         WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3),
        ?4, ?6, ?7, ?8, ?9, ?10, ?12)
)sql";

// Keeps the last ?5 (kChangeWindow) revisions of changes, counted from the
// bump's as above: a seek on the primary key.
constexpr std::string_view kPruneChanges = R"sql(
DELETE FROM leaderboard_changes
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
  AND revision <= (SELECT revision FROM leaderboard_boards
                   WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3) - ?5
)sql";

// Only a strictly higher score replaces a best: a tie keeps the earlier one.
constexpr std::string_view kUpsertBest = R"sql(
INSERT INTO player_bests (player_id, mode, preset, seed, score, game_id, achieved_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
ON CONFLICT (player_id, mode, preset) DO UPDATE
SET seed = excluded.seed, score = excluded.score, game_id = excluded.game_id,
    achieved_at = excluded.achieved_at
WHERE excluded.score > player_bests.score
)sql";

// With the competition of the best's game, if any: whether it is unlisted
// and when it closes (what /api/players/{name} may show of it).
constexpr std::string_view kSelectBests = R"sql(
SELECT b.mode, b.preset, b.seed, b.score, b.game_id, b.achieved_at,
       c.id, c.unlisted, c.closes_at
FROM player_bests AS b
LEFT JOIN games AS g ON g.id = b.game_id
LEFT JOIN competitions AS c ON c.id = g.competition_id
WHERE b.player_id = ?1 ORDER BY b.mode, b.preset
)sql";

std::int64_t tiebreak_of(const CountedGame& g) {
  return g.board.mode == game::Mode::hidden ? g.duration_ms : g.move_count;
}

void bind_entry(Statement& s, const BoardKey& board, PlayerId player) {
  bind_board(s, board);
  s.bind(4, player);
}

// A place as three parameters (all NULL for none).
void bind_key(Statement& s, std::array<int, 3> at, const std::optional<RankKey>& key) {
  s.bind(at[0], key ? std::optional(key->score) : std::nullopt);
  s.bind(at[1], key ? std::optional(key->tiebreak) : std::nullopt);
  s.bind(at[2], key ? std::optional(key->finished_at) : std::nullopt);
}

// The board's next revision, and the change of place when there is one.
// Nothing here is read back: the log and the prune read the revision in
// SQL, so on PostgreSQL all three go with the next statement read (no
// round trip of their own; none can fail but with the transaction, which
// a failure of any loses: Statement::run_later()).
void record_change(Connection& c, const BoardKey& board, PlayerId player,
                   const std::optional<RankKey>& before, const std::optional<RankKey>& after) {
  {
    auto q = c.query(kBumpBoard);
    bind_board(*q, board);
    q->bind(4, std::int64_t{before ? 0 : 1} - std::int64_t{after ? 0 : 1});
    q->run_later();
  }
  if (before == after) return;
  {
    auto q = c.query(kLogChange);
    bind_entry(*q, board, player);
    bind_key(*q, {6, 7, 8}, before);
    bind_key(*q, {9, 10, 12}, after);  // ?11 is the scope
    q->run_later();
  }
  auto q = c.query(kPruneChanges);
  bind_board(*q, board);
  q->bind(5, kChangeWindow);
  q->run_later();
}

std::optional<RankKey> entry_key(Connection& c, const BoardKey& board, PlayerId player,
                                 std::string* game_id = nullptr) {
  auto q = c.query(kSelectEntryKey);
  bind_entry(*q, board, player);
  if (!q->step()) return std::nullopt;
  if (game_id) *game_id = q->get_text(3);
  return RankKey{q->get_int(0), q->get_int(1), q->get_int(2), player};
}

// Columns of kSelectBests: a game of no competition has NULL for c.id and
// c.unlisted, read as nullopt and false.
constexpr auto read_best =
    read_columns<&PlayerBest::mode, &PlayerBest::preset, &PlayerBest::seed, &PlayerBest::score,
                 &PlayerBest::game_id, &PlayerBest::achieved_at, &PlayerBest::competition,
                 &PlayerBest::unlisted, &PlayerBest::closes_at>;

}  // namespace

std::int32_t board_lock(const BoardKey& board) {
  // The unit separator never occurs in a scope, preset or seed.
  std::string name = "board\x1f";
  name += board.scope;
  name += '\x1f';
  name += mode_text(board.mode);
  name += '\x1f';
  name += board.preset;
  name += '\x1f';
  name += board.seed;
  return lock_key(name);
}

std::int32_t player_lock(PlayerId player) {
  return lock_key("player\x1f" + std::to_string(player));
}

std::int32_t season_lock() {
  return lock_key("seasons");
}

std::int32_t recovery_lock(std::string_view name) {
  // Names are unique ignoring ASCII case.
  std::string folded = "recover\x1f";
  for (const char ch : name) folded += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch + 32) : ch;
  return lock_key(folded);
}

void bind_board(Statement& s, const BoardKey& board) {
  s.bind(1, mode_text(board.mode));
  s.bind(2, board.preset);
  s.bind(3, board.seed);
  s.bind(11, board.scope);
}

void record_counted_game(Connection& c, const CountedGame& g) {
  // The entry is read, then written, then the revision taken: the board's
  // lock makes that one step among every node's writers (taken already by
  // the caller in every path: this costs nothing then). The writes whose
  // answers nothing reads, none of which can break a constraint under that
  // lock, go with the next statement read (run_later(): on PostgreSQL one
  // round trip instead of one each).
  c.lock_keys({board_lock(g.board), player_lock(g.player_id)});
  const std::optional<RankKey> before = entry_key(c, g.board, g.player_id);
  const RankKey result{g.score, tiebreak_of(g), g.finished_at, g.player_id};
  // An equal result leaves the entry alone.
  const bool better = !before || ranks_before(result, *before);
  {
    auto q = c.query(!before ? kInsertEntry : better ? kReplaceEntry : kCountAttempt);
    bind_entry(*q, g.board, g.player_id);
    if (better) {
      q->bind(5, g.score);
      q->bind(6, result.tiebreak);
      q->bind(7, g.move_count);
      q->bind(8, g.duration_ms);
      q->bind(9, g.game_id);
      q->bind(10, g.finished_at);
    }
    q->run_later();
  }
  record_change(c, g.board, g.player_id, before, better ? result : *before);

  c.run_later(kUpsertBest, g.player_id, mode_text(g.board.mode), g.board.preset, g.board.seed,
              g.score, g.game_id, g.finished_at);
}

std::vector<PlayerBest> select_player_bests(Connection& c, PlayerId player) {
  return c.rows(kSelectBests, read_best, player);
}

std::optional<std::string> remove_entry(Connection& c, const BoardKey& board, PlayerId player) {
  c.lock_keys({board_lock(board), player_lock(player)});
  std::string game_id;
  const std::optional<RankKey> before = entry_key(c, board, player, &game_id);
  if (!before) return std::nullopt;
  auto q = c.query(kDeleteEntry);
  bind_entry(*q, board, player);
  q->run();
  record_change(c, board, player, before, std::nullopt);
  return game_id;
}

}  // namespace tilecrush::storage::detail
