// The archive (Database::archive): closed listed competitions, latest close
// first, keyset-paged by (closes_at, id) so that a page costs O(limit)
// whatever the archive's size. The page walks one of the partial indexes
// competitions_archive* (schema.cpp, kArchiveIndexes) in order; each row
// then costs one primary-key read of its board's entries (joined) and one
// seek of leaderboard_order for its first place.
#include <algorithm>

#include "codec.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

// ?1, ?2 the cursor (closes_at, id); ?3 the limit; then the filters, in
// this order: ?4 the mode, ?5 daily (0 or 1); dense when one is left out.
constexpr std::string_view kArchiveColumns = R"sql(
SELECT c.id, c.name, c.mode, c.preset, c.seed, c.opens_at, c.closes_at, c.attempts,
       c.first_counts, c.unlisted, c.daily, c.organiser_id, o.name, c.created_at, c.closed,
       b.commitment, b.key, coalesce(lb.entries, 0)
FROM competitions AS c
LEFT JOIN organisers AS o ON o.id = c.organiser_id
LEFT JOIN boards AS b
  ON b.scope = c.id AND b.mode = c.mode AND b.preset = c.preset AND b.seed = c.seed
LEFT JOIN leaderboard_boards AS lb
  ON lb.scope = c.id AND lb.mode = c.mode AND lb.preset = c.preset AND lb.seed = c.seed
WHERE c.unlisted = 0 AND (c.closes_at, c.id) < (?1, ?2)
)sql";

constexpr std::string_view kOrder = R"sql(
ORDER BY c.closes_at DESC, c.id DESC LIMIT ?3
)sql";

// The board's first place, as every leaderboard orders it (leaderboard_order).
constexpr std::string_view kWinner = R"sql(
SELECT p.name, l.score FROM leaderboard AS l JOIN players AS p ON p.id = l.player_id
WHERE l.scope = ?1 AND l.mode = ?2 AND l.preset = ?3 AND l.seed = ?4
ORDER BY l.score DESC, l.tiebreak ASC, l.finished_at ASC, l.player_id ASC
LIMIT 1
)sql";

std::string archive_sql(const ArchiveQuery& query) {
  std::string sql(kArchiveColumns);
  int next = 4;
  if (query.mode) sql += " AND c.mode = ?" + std::to_string(next++);
  if (query.kind != ArchiveKind::any) sql += " AND c.daily = ?" + std::to_string(next++);
  sql += kOrder;
  return sql;
}

// The cursor the page starts from: the query's, or just after `now` (every
// competition closed by then), whichever is earlier.
ArchiveCursor start_of(const ArchiveQuery& query) {
  if (query.before && query.before->closes_at <= query.now) return *query.before;
  return ArchiveCursor{query.now + 1, ""};
}

void bind_archive(Statement& s, const ArchiveQuery& query, std::int64_t rows) {
  const ArchiveCursor from = start_of(query);
  s.bind(1, from.closes_at);
  s.bind(2, from.id);
  s.bind(3, rows);
  int next = 4;
  if (query.mode) s.bind(next++, mode_text(*query.mode));
  if (query.kind != ArchiveKind::any) s.bind(next++, query.kind == ArchiveKind::daily ? 1 : 0);
}

ArchiveEntry read_archive_row(const Statement& s) {
  ArchiveEntry e;
  e.competition = read_competition_row(s);
  const auto key = s.get_blob(16);
  // A competition is created with its board (one transaction): a missing
  // or odd key is a damaged database.
  if (key.size() != e.key.size()) throw StorageError("archived board key missing or wrong size");
  std::copy(key.begin(), key.end(), e.key.begin());
  e.entries = s.get_int(17);
  return e;
}

std::optional<ArchiveWinner> select_winner(Connection& c, const CompetitionRecord& comp) {
  return c.first_row(
      kWinner,
      [](const Statement& s) {
        return ArchiveWinner{s.get_text(0), s.get_int(1)};
      },
      comp.id, mode_text(comp.mode), comp.preset, comp.seed);
}

}  // namespace

ArchivePage select_archive(Connection& c, const ArchiveQuery& query) {
  const std::int64_t limit = std::max<std::int64_t>(query.limit, 1);
  ArchivePage page;
  ReadTransaction snapshot(c);
  {
    auto q = c.query(archive_sql(query));
    // One row more than asked: whether a next page exists.
    bind_archive(*q, query, limit + 1);
    while (q->step()) page.competitions.push_back(read_archive_row(*q));
  }
  if (static_cast<std::int64_t>(page.competitions.size()) > limit) {
    page.competitions.pop_back();
    const CompetitionRecord& last = page.competitions.back().competition;
    page.next = ArchiveCursor{last.closes_at, last.id};
  }
  for (ArchiveEntry& e : page.competitions) {
    if (e.entries > 0) e.winner = select_winner(c, e.competition);
  }
  return page;
}

std::string explain_archive(Connection& c, const ArchiveQuery& query) {
  const std::string sql = archive_sql(query);
  std::string plan;
  auto statement = c.prepare((c.postgres() ? "EXPLAIN " : "EXPLAIN QUERY PLAN ") + sql);
  bind_archive(*statement, query, std::max<std::int64_t>(query.limit, 1) + 1);
  while (statement->step()) {
    if (!plan.empty()) plan += '\n';
    // SQLite's columns: id, parent, notused, detail.
    plan += statement->get_text(c.postgres() ? 0 : 3);
  }
  return plan;
}

}  // namespace tilecrush::storage::detail
