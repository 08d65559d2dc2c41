#include <algorithm>
#include <utility>

#include "codec.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// A counted game: a new entry with attempts 1, or attempts + 1 on the
// existing one (kImproveEntry then decides whether the result replaces it).
// Returns attempts: 1 means the board gained an entry.
constexpr std::string_view kCountAttempt = R"sql(
INSERT INTO leaderboard (scope, mode, preset, seed, player_id, score, tiebreak, move_count,
                         duration_ms, attempts, game_id, finished_at)
VALUES (?11, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, ?10)
ON CONFLICT (scope, mode, preset, seed, player_id) DO UPDATE SET attempts = attempts + 1
RETURNING attempts
)sql";

constexpr std::string_view kCountEntry = R"sql(
INSERT INTO leaderboard_boards (scope, mode, preset, seed, entries) VALUES (?11, ?1, ?2, ?3, 1)
ON CONFLICT (scope, mode, preset, seed) DO UPDATE SET entries = entries + 1
)sql";

// The rules' order: higher score, then lower tiebreak, then earlier finish.
// An equal result leaves the entry alone.
constexpr std::string_view kImproveEntry = R"sql(
UPDATE leaderboard
SET score = ?5, tiebreak = ?6, move_count = ?7, duration_ms = ?8, game_id = ?9, finished_at = ?10
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND player_id = ?4
  AND (score < ?5 OR (score = ?5 AND (tiebreak > ?6 OR (tiebreak = ?6 AND finished_at > ?10))))
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

constexpr std::string_view kCountBoard =
    "SELECT entries FROM leaderboard_boards WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND "
    "seed = ?3";

// The page's keys come from index leaderboard_order alone, in its own order
// (no sort), so the rows skipped by OFFSET cost one index entry each; only
// the page's rows are then looked up in leaderboard and players by primary
// key. The join may return them in any order: read_page() sorts them.
constexpr std::string_view kSelectPage = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM (SELECT player_id FROM leaderboard
      WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
      ORDER BY score DESC, tiebreak ASC, finished_at ASC, player_id ASC
      LIMIT ?4 OFFSET ?5) AS page
CROSS JOIN leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3
     AND l.player_id = page.player_id
CROSS JOIN players AS p ON p.id = l.player_id
)sql";

constexpr std::string_view kSelectEntryOf = R"sql(
SELECT l.score, l.tiebreak, l.finished_at, l.player_id
FROM players AS p CROSS JOIN leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3 AND l.player_id = p.id
WHERE p.name = ?4
)sql";

// Entries ahead of (?4 score, ?5 tiebreak, ?6 finished_at, ?7 player_id).
// `score >= ?4` bounds the index range to the entries that can be ahead.
constexpr std::string_view kCountAhead = R"sql(
SELECT count(*) FROM leaderboard
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND score >= ?4
  AND (score > ?4 OR (score = ?4 AND (tiebreak < ?5 OR (tiebreak = ?5 AND
       (finished_at < ?6 OR (finished_at = ?6 AND player_id < ?7))))))
)sql";

constexpr std::string_view kSelectBests = R"sql(
SELECT mode, preset, seed, score, game_id, achieved_at
FROM player_bests WHERE player_id = ?1 ORDER BY mode, preset
)sql";

// Every leaderboard statement names the board as ?1 mode, ?2 preset, ?3 seed
// and ?11 scope.
void bind_board(Statement& s, const BoardKey& board) {
  s.bind(1, mode_text(board.mode));
  s.bind(2, board.preset);
  s.bind(3, board.seed);
  s.bind(11, board.scope);
}

std::int64_t tiebreak_of(const CountedGame& g) {
  return g.board.mode == game::Mode::hidden ? g.duration_ms : g.move_count;
}

std::int64_t count_board(Connection& c, const BoardKey& board) {
  auto q = c.query(kCountBoard);
  bind_board(*q, board);
  return q->step() ? q->get_int(0) : 0;
}

// Reads a page inside the caller's read transaction.
LeaderboardPage read_page(Connection& c, const BoardKey& board, std::int64_t limit,
                          std::int64_t offset) {
  LeaderboardPage page;
  page.total = count_board(c, board);
  limit = std::max<std::int64_t>(limit, 0);
  offset = std::max<std::int64_t>(offset, 0);
  auto q = c.query(kSelectPage);
  bind_board(*q, board);
  q->bind(4, limit);
  q->bind(5, offset);
  std::vector<std::pair<std::int64_t, LeaderboardEntry>> rows;  // (tiebreak, entry)
  while (q->step()) {
    LeaderboardEntry e;
    e.player_id = q->get_int(0);
    e.player = q->get_text(1);
    e.score = q->get_int(2);
    e.move_count = q->get_int(3);
    e.duration_ms = q->get_int(4);
    e.attempts = q->get_int(5);
    e.game_id = q->get_text(6);
    e.finished_at = q->get_int(7);
    rows.emplace_back(q->get_int(8), std::move(e));
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    const LeaderboardEntry& x = a.second;
    const LeaderboardEntry& y = b.second;
    if (x.score != y.score) return x.score > y.score;
    if (a.first != b.first) return a.first < b.first;
    if (x.finished_at != y.finished_at) return x.finished_at < y.finished_at;
    return x.player_id < y.player_id;
  });
  std::int64_t rank = offset;
  page.entries.reserve(rows.size());
  for (auto& row : rows) {
    row.second.rank = ++rank;
    page.entries.push_back(std::move(row.second));
  }
  return page;
}

std::string explain(Connection& c, std::string_view sql) {
  auto statement = c.prepare("EXPLAIN QUERY PLAN " + std::string(sql));
  std::string plan;
  while (statement->step()) {
    if (!plan.empty()) plan += '\n';
    plan += statement->get_text(3);  // columns: id, parent, notused, detail
  }
  return plan;
}

}  // namespace

void record_counted_game(Connection& c, const CountedGame& g) {
  bool new_entry = false;
  for (const std::string_view sql : {kCountAttempt, kImproveEntry}) {
    auto q = c.query(sql);
    bind_board(*q, g.board);
    q->bind(4, g.player_id);
    q->bind(5, g.score);
    q->bind(6, tiebreak_of(g));
    q->bind(7, g.move_count);
    q->bind(8, g.duration_ms);
    q->bind(9, g.game_id);
    q->bind(10, g.finished_at);
    if (sql == kCountAttempt && q->step()) new_entry = q->get_int(0) == 1;
    q->run();
  }
  if (new_entry) {
    auto q = c.query(kCountEntry);
    bind_board(*q, g.board);
    q->run();
  }
  auto q = c.query(kUpsertBest);
  q->bind(1, g.player_id);
  q->bind(2, mode_text(g.board.mode));
  q->bind(3, g.board.preset);
  q->bind(4, g.board.seed);
  q->bind(5, g.score);
  q->bind(6, g.game_id);
  q->bind(7, g.finished_at);
  q->run();
}

LeaderboardPage select_leaderboard(Connection& c, const BoardKey& board, std::int64_t limit,
                                   std::int64_t offset) {
  ReadTransaction snapshot(c);
  return read_page(c, board, limit, offset);
}

std::optional<LeaderboardPage> select_leaderboard_around(Connection& c, const BoardKey& board,
                                                         std::string_view player_name,
                                                         std::int64_t radius) {
  ReadTransaction snapshot(c);
  std::int64_t rank = 0;
  {
    auto entry = c.query(kSelectEntryOf);
    bind_board(*entry, board);
    entry->bind(4, player_name);
    if (!entry->step()) return std::nullopt;
    auto ahead = c.query(kCountAhead);
    bind_board(*ahead, board);
    for (int i = 0; i < 4; ++i) ahead->bind(4 + i, entry->get_int(i));
    rank = ahead->step() ? ahead->get_int(0) + 1 : 1;
  }
  radius = std::max<std::int64_t>(radius, 0);
  const std::int64_t first = std::max<std::int64_t>(1, rank - radius);
  return read_page(c, board, rank + radius - first + 1, first - 1);
}

std::vector<PlayerBest> select_player_bests(Connection& c, PlayerId player) {
  auto q = c.query(kSelectBests);
  q->bind(1, player);
  std::vector<PlayerBest> bests;
  while (q->step()) {
    PlayerBest b;
    b.mode = parse_mode_text(q->get_text(0));
    b.preset = q->get_text(1);
    b.seed = q->get_text(2);
    b.score = q->get_int(3);
    b.game_id = q->get_text(4);
    b.achieved_at = q->get_int(5);
    bests.push_back(std::move(b));
  }
  return bests;
}

std::string explain_leaderboard(Connection& c) {
  return explain(c, kSelectPage);
}

std::string explain_leaderboard_rank(Connection& c) {
  return explain(c, kCountAhead);
}

}  // namespace tilecrush::storage::detail
