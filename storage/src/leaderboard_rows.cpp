#include "leaderboard_rows.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kSelectBoardState = R"sql(
SELECT entries, revision FROM leaderboard_boards
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
)sql";

// The page's keys come from index leaderboard_order alone, in its own order
// (no sort), so the rows skipped by OFFSET cost one index entry each; only
// the page's rows are then looked up in leaderboard and players by primary
// key, joined by page_sql(). The join may return them in any order:
// plain_page() sorts them.
constexpr std::string_view kPageKeys = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM (SELECT player_id FROM leaderboard
      WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3
      ORDER BY score DESC, tiebreak ASC, finished_at ASC, player_id ASC
      LIMIT ?4 OFFSET ?5) AS page
)sql";
constexpr std::string_view kPageEntries = R"sql( leaderboard AS l
  ON l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3
     AND l.player_id = page.player_id
)sql";
constexpr std::string_view kPagePlayers = R"sql( players AS p ON p.id = l.player_id
)sql";

// The page's statement: the keys, then their entries and players joined in
// that order. SQLite: CROSS JOIN, which keeps the tables in the order
// written. PostgreSQL: plain joins (its CROSS JOIN takes no ON, and it
// orders joins itself: leaderboard_order for the page, then primary keys).
std::string joined_page_sql(std::string_view join) {
  std::string sql(kPageKeys);
  sql += join;
  sql += kPageEntries;
  sql += join;
  sql += kPagePlayers;
  return sql;
}

std::string_view page_sql(Connection& c) {
  static const std::string sqlite = joined_page_sql("CROSS JOIN");
  static const std::string postgres = joined_page_sql("JOIN");
  return c.postgres() ? postgres : sqlite;
}

// One entry by primary key, for a page whose keys came from a rank index.
constexpr std::string_view kSelectEntry = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM leaderboard AS l CROSS JOIN players AS p ON p.id = l.player_id
WHERE l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3 AND l.player_id = ?4
)sql";

// PostgreSQL: a whole page's entries in one statement (?4 the players' ids
// as an array literal, "{7,3,12}"), so a page costs one round trip to the
// server rather than one per entry; the rows come in any order.
constexpr std::string_view kSelectEntriesPg = R"sql(
SELECT l.player_id, p.name, l.score, l.move_count, l.duration_ms, l.attempts, l.game_id,
       l.finished_at, l.tiebreak
FROM leaderboard AS l JOIN players AS p ON p.id = l.player_id
WHERE l.scope = ?11 AND l.mode = ?1 AND l.preset = ?2 AND l.seed = ?3
  AND l.player_id = ANY(?4::bigint[])
)sql";

// Entries ahead of (?4 score, ?5 tiebreak, ?6 finished_at, ?7 player_id).
// `score >= ?4` bounds the index range to the entries that can be ahead.
constexpr std::string_view kCountAhead = R"sql(
SELECT count(*) FROM leaderboard
WHERE scope = ?11 AND mode = ?1 AND preset = ?2 AND seed = ?3 AND score >= ?4
  AND (score > ?4 OR (score = ?4 AND (tiebreak < ?5 OR (tiebreak = ?5 AND
       (finished_at < ?6 OR (finished_at = ?6 AND player_id < ?7))))))
)sql";

LeaderboardEntry read_entry(const Statement& q, std::int64_t& tiebreak) {
  LeaderboardEntry e;
  e.player_id = q.get_int(0);
  e.player = q.get_text(1);
  e.score = q.get_int(2);
  e.move_count = q.get_int(3);
  e.duration_ms = q.get_int(4);
  e.attempts = q.get_int(5);
  e.game_id = q.get_text(6);
  e.finished_at = q.get_int(7);
  tiebreak = q.get_int(8);
  return e;
}

RankKey key_of(const LeaderboardEntry& e, std::int64_t tiebreak) {
  return {e.score, tiebreak, e.finished_at, e.player_id};
}

// page_of_keys on PostgreSQL: the rows in one statement, put back in the
// order of `keys` (which holds each player once).
std::optional<LeaderboardPage> page_of_keys_pg(Connection& c, const BoardKey& board,
                                               LeaderboardPage page,
                                               const std::vector<RankKey>& keys,
                                               std::int64_t offset) {
  if (keys.empty()) return page;
  std::string ids = "{";
  for (const RankKey& key : keys) {
    if (ids.size() > 1) ids += ',';
    ids += std::to_string(key.player_id);
  }
  ids += '}';
  auto q = c.query(kSelectEntriesPg);
  bind_board(*q, board);
  q->bind(4, ids);
  std::vector<std::pair<LeaderboardEntry, std::int64_t>> rows;  // entry, tiebreak
  rows.reserve(keys.size());
  while (q->step()) {
    std::int64_t tiebreak = 0;
    LeaderboardEntry e = read_entry(*q, tiebreak);
    rows.emplace_back(std::move(e), tiebreak);
  }
  if (rows.size() != keys.size()) return std::nullopt;
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return ranks_before(key_of(a.first, a.second), key_of(b.first, b.second));
  });
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!(key_of(rows[i].first, rows[i].second) == keys[i])) return std::nullopt;
    rows[i].first.rank = offset + static_cast<std::int64_t>(i) + 1;
    page.entries.push_back(std::move(rows[i].first));
  }
  return page;
}

}  // namespace

BoardRevision read_board_state(Connection& c, const BoardKey& board) {
  auto q = c.query(kSelectBoardState);
  bind_board(*q, board);
  if (!q->step()) return {};
  return {q->get_int(0), q->get_int(1)};
}

LeaderboardPage plain_page(Connection& c, const BoardKey& board, const BoardRevision& state,
                           std::int64_t limit, std::int64_t offset) {
  LeaderboardPage page{.total = state.entries, .revision = state.revision, .entries = {}};
  auto q = c.query(page_sql(c));
  bind_board(*q, board);
  q->bind(4, limit);
  q->bind(5, offset);
  std::vector<std::pair<RankKey, LeaderboardEntry>> rows;
  while (q->step()) {
    std::int64_t tiebreak = 0;
    LeaderboardEntry e = read_entry(*q, tiebreak);
    rows.emplace_back(key_of(e, tiebreak), std::move(e));
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return ranks_before(a.first, b.first); });
  std::int64_t rank = offset;
  page.entries.reserve(rows.size());
  for (auto& row : rows) {
    row.second.rank = ++rank;
    page.entries.push_back(std::move(row.second));
  }
  return page;
}

std::optional<LeaderboardPage> page_of_keys(Connection& c, const BoardKey& board,
                                            const BoardRevision& state,
                                            const std::vector<RankKey>& keys, std::int64_t offset) {
  LeaderboardPage page{.total = state.entries, .revision = state.revision, .entries = {}};
  page.entries.reserve(keys.size());
  if (c.postgres()) return page_of_keys_pg(c, board, std::move(page), keys, offset);
  auto q = c.query(kSelectEntry);
  for (const RankKey& key : keys) {
    q->reset();
    bind_board(*q, board);
    q->bind(4, key.player_id);
    if (!q->step()) return std::nullopt;
    std::int64_t tiebreak = 0;
    LeaderboardEntry e = read_entry(*q, tiebreak);
    if (!(key_of(e, tiebreak) == key)) return std::nullopt;
    e.rank = offset + static_cast<std::int64_t>(page.entries.size()) + 1;
    page.entries.push_back(std::move(e));
  }
  return page;
}

std::int64_t count_ahead_by_scan(Connection& c, const BoardKey& board, const RankKey& key) {
  auto q = c.query(kCountAhead);
  bind_board(*q, board);
  q->bind(4, key.score);
  q->bind(5, key.tiebreak);
  q->bind(6, key.finished_at);
  q->bind(7, key.player_id);
  return q->step() ? q->get_int(0) : 0;
}

std::string explain_leaderboard(Connection& c) {
  return query_plan(c, page_sql(c));
}

std::string explain_leaderboard_rank(Connection& c) {
  return query_plan(c, kCountAhead);
}

}  // namespace tilecrush::storage::detail
