// A player's finished games, newest finish first, and the days they were
// finished on. Both walk the partial index games_finished_by_player
// (player_id, finished_at, id) WHERE state = 'over' (schema version 10):
// a page is a keyset range of it, so its cost is the rows it looks at
// (HistoryQuery::scan at most), whatever the player's history holds; a
// month of the calendar is one range of it. Each row brings its
// competition, the player's entry on its board and the board's size by
// primary key in the same statement; its rank then comes from the rank
// cache (leaderboard_pages.cpp), without a query once the board is cached.
#include <algorithm>
#include <limits>

#include "codec.hpp"
#include "stores.hpp"

namespace tilecrush::storage::detail {
namespace {

// The board a ranked game is counted on: scope 'v1' for rules version 1,
// else its competition's id, or '' for a casual board.
#define TILECRUSH_GAME_SCOPE \
  "CASE WHEN g.rules_version = 1 THEN 'v1' ELSE coalesce(g.competition_id, '') END"

// ?1 player, (?2 finished_at, ?3 id) the cursor, ?4 the rows looked at.
constexpr std::string_view kSelectHistory =
    R"sql(
SELECT g.id, g.mode, g.preset, g.seed, g.rules_version, g.keyed, g.competition_id, g.ranked,
       g.attempt, g.score, g.move_count, g.duration_ms, g.finished_at,
       c.name, c.daily, c.unlisted, c.closes_at,
       l.game_id, l.score, l.tiebreak, l.finished_at,
       b.entries, b.revision
FROM games AS g
LEFT JOIN competitions AS c ON c.id = g.competition_id
LEFT JOIN leaderboard AS l
  ON g.ranked = 1 AND l.scope = )sql" TILECRUSH_GAME_SCOPE R"sql(
     AND l.mode = g.mode AND l.preset = g.preset AND l.seed = g.seed AND l.player_id = g.player_id
LEFT JOIN leaderboard_boards AS b
  ON l.game_id IS NOT NULL AND b.scope = l.scope AND b.mode = l.mode AND b.preset = l.preset
     AND b.seed = l.seed
WHERE g.player_id = ?1 AND g.state = 'over' AND (g.finished_at, g.id) < (?2, ?3)
ORDER BY g.finished_at DESC, g.id DESC
LIMIT ?4
)sql";

#undef TILECRUSH_GAME_SCOPE

// ?1 player, [?2, ?3) the range of finish times.
constexpr std::string_view kSelectCalendarOwn = R"sql(
SELECT finished_at / 86400000, count(*) FROM games
WHERE player_id = ?1 AND state = 'over' AND finished_at >= ?2 AND finished_at < ?3
GROUP BY finished_at / 86400000 ORDER BY 1
)sql";

// The same, counting only games on listed competitions closed at ?4.
constexpr std::string_view kSelectCalendarClosed = R"sql(
SELECT g.finished_at / 86400000, count(*)
FROM games AS g JOIN competitions AS c ON c.id = g.competition_id
WHERE g.player_id = ?1 AND g.state = 'over' AND g.finished_at >= ?2 AND g.finished_at < ?3
  AND c.unlisted = 0 AND c.closes_at <= ?4
GROUP BY g.finished_at / 86400000 ORDER BY 1
)sql";

bool visible(const HistoryGame& g, HistoryView view, std::int64_t now) {
  if (view == HistoryView::own) return true;
  return g.competition && !g.unlisted && g.closes_at <= now;
}

struct Row {
  HistoryGame game;
  std::optional<std::string> entry_game;  // the player's entry on the board
  RankKey entry_key;
  BoardRevision board;
};

Row read_row(const Statement& s, PlayerId player) {
  Row row;
  HistoryGame& g = row.game;
  g.game_id = s.get_text(0);
  g.mode = parse_mode_text(s.get_text(1));
  g.preset = s.get_optional_text(2).value_or("");
  g.seed = s.get_text(3);
  g.rules_version = static_cast<int>(s.get_int(4));
  g.keyed = s.get_int(5) != 0;
  g.competition = s.get_optional_text(6);
  g.ranked = s.get_int(7) != 0;
  g.attempt = s.get_int(8);
  g.score = s.get_int(9);
  g.move_count = s.get_int(10);
  g.duration_ms = s.get_optional_int(11).value_or(0);
  g.finished_at = s.get_optional_int(12).value_or(0);
  if (g.competition && !s.is_null(13)) {
    g.competition_name = s.get_text(13);
    g.daily = s.get_int(14) != 0;
    g.unlisted = s.get_int(15) != 0;
    g.closes_at = s.get_int(16);
  }
  row.entry_game = s.get_optional_text(17);
  if (row.entry_game) {
    row.entry_key = {s.get_int(18), s.get_int(19), s.get_int(20), player};
    row.board = {s.get_optional_int(21).value_or(0), s.get_optional_int(22).value_or(0)};
  }
  return row;
}

// The rank and field of a ranked game whose player has an entry on its board.
void place(Connection& c, RankCache* cache, PlayerId player, Row& row) {
  HistoryGame& g = row.game;
  if (!row.entry_game || row.board.entries <= 0) return;
  const BoardKey board{g.mode, g.preset, g.seed,
                       g.rules_version == 1 ? std::string(kScopeV1) : g.competition.value_or("")};
  g.is_entry = *row.entry_game == g.game_id;
  const RankKey key =
      g.is_entry ? row.entry_key
                 : RankKey{g.score, g.mode == game::Mode::hidden ? g.duration_ms : g.move_count,
                           g.finished_at, player};
  std::int64_t ahead = count_ranked_before(c, cache, board, row.board, key);
  // Another game of the player is the entry: it is not counted against this one.
  if (!g.is_entry && ranks_before(row.entry_key, key)) ahead -= 1;
  g.rank = std::max<std::int64_t>(ahead, 0) + 1;
  g.field = row.board.entries;
}

}  // namespace

HistoryPage select_history(Connection& c, RankCache* cache, const HistoryQuery& query) {
  HistoryPage page;
  const std::int64_t limit = std::max<std::int64_t>(query.limit, 1);
  const std::int64_t scan = std::max(query.scan, limit + 1);
  std::vector<Row> rows;
  std::optional<HistoryCursor> last_looked_at = query.before;
  std::int64_t looked_at = 0;
  ReadTransaction snapshot(c);
  // Rows are read limit + 1 at a time (PostgreSQL sends a statement's
  // whole result at once): a page whose games are all shown costs one
  // statement of limit + 1 rows; only hidden games make it read on, up to
  // `scan` rows in all.
  bool more = true;
  while (more && !page.next && looked_at < scan) {
    const std::int64_t chunk = std::min(limit + 1, scan - looked_at);
    std::int64_t got = 0;
    auto q = c.query(kSelectHistory);
    q->bind(1, query.player);
    q->bind(
        2, last_looked_at ? last_looked_at->finished_at : std::numeric_limits<std::int64_t>::max());
    q->bind(3, last_looked_at ? last_looked_at->game_id : std::string());
    q->bind(4, chunk);
    while (q->step()) {
      Row row = read_row(*q, query.player);
      ++got;
      ++looked_at;
      last_looked_at = HistoryCursor{row.game.finished_at, row.game.game_id};
      if (!visible(row.game, query.view, query.now)) continue;
      if (static_cast<std::int64_t>(rows.size()) == limit) {
        // One more visible game: the page is full and an older one exists.
        const HistoryGame& last = rows.back().game;
        page.next = HistoryCursor{last.finished_at, last.game_id};
        break;
      }
      rows.push_back(std::move(row));
    }
    more = got == chunk;
  }
  // The scan ran out with room left on the page: older games may follow.
  if (!page.next && more && looked_at > 0) page.next = last_looked_at;
  page.games.reserve(rows.size());
  for (Row& row : rows) {
    place(c, cache, query.player, row);
    page.games.push_back(std::move(row.game));
  }
  return page;
}

std::vector<HistoryDay> select_calendar(Connection& c, PlayerId player, HistoryView view,
                                        std::int64_t now, std::int64_t from, std::int64_t to) {
  std::vector<HistoryDay> days;
  auto q = c.query(view == HistoryView::own ? kSelectCalendarOwn : kSelectCalendarClosed);
  q->bind(1, player);
  q->bind(2, from);
  q->bind(3, to);
  if (view != HistoryView::own) q->bind(4, now);
  while (q->step()) days.push_back({q->get_int(0), q->get_int(1)});
  return days;
}

}  // namespace tilecrush::storage::detail
