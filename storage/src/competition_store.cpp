// Boards with keys, competitions, organisers and entry flags: the SQL behind
// rules version 2's fair competitions (docs/rules.md).
#include <algorithm>
#include <span>

#include "codec.hpp"
#include "row_columns.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kInsertBoard = R"sql(
INSERT INTO boards (scope, mode, preset, seed, key, commitment, created_at, closes_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (scope, mode, preset, seed) DO NOTHING
)sql";

// Primary key lookup.
constexpr std::string_view kSelectBoard = R"sql(
SELECT scope, mode, preset, seed, key, commitment, created_at, closes_at
FROM boards WHERE scope = ?1 AND mode = ?2 AND preset = ?3 AND seed = ?4
)sql";

constexpr std::string_view kInsertCompetition = R"sql(
INSERT INTO competitions (id, name, mode, preset, seed, opens_at, closes_at, attempts,
                          first_counts, unlisted, daily, organiser_id, created_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
)sql";

constexpr std::string_view kCompetitionColumns = R"sql(
SELECT c.id, c.name, c.mode, c.preset, c.seed, c.opens_at, c.closes_at, c.attempts,
       c.first_counts, c.unlisted, c.daily, c.organiser_id, o.name, c.created_at, c.closed,
       b.commitment
FROM competitions AS c
LEFT JOIN organisers AS o ON o.id = c.organiser_id
LEFT JOIN boards AS b
  ON b.scope = c.id AND b.mode = c.mode AND b.preset = c.preset AND b.seed = c.seed
)sql";

// Listing by state: index competitions_by_close, newest close first for
// closed ones, soonest close first otherwise.
constexpr std::string_view kWhereUpcoming = R"sql(
WHERE c.unlisted = 0 AND c.opens_at > ?1 ORDER BY c.opens_at, c.id LIMIT ?2
)sql";
constexpr std::string_view kWhereOpen = R"sql(
WHERE c.unlisted = 0 AND c.opens_at <= ?1 AND c.closes_at > ?1
ORDER BY c.closes_at, c.id LIMIT ?2
)sql";
constexpr std::string_view kWhereClosed = R"sql(
WHERE c.unlisted = 0 AND c.closes_at <= ?1 ORDER BY c.closes_at DESC, c.id LIMIT ?2
)sql";
// Index competitions_to_close.
constexpr std::string_view kWhereToClose = R"sql(
WHERE c.closed = 0 AND c.closes_at <= ?1 ORDER BY c.closes_at, c.id LIMIT ?2
)sql";

// An organiser's own (?1), or the operator's (?1 null: no organiser, not a
// daily), newest first. A scan of competitions: a few thousand rows a year
// (the dailies are most of them).
constexpr std::string_view kWhereOrganiser = R"sql(
WHERE c.organiser_id = ?1 ORDER BY c.created_at DESC, c.id LIMIT ?2 OFFSET ?3
)sql";
constexpr std::string_view kWhereOperator = R"sql(
WHERE c.organiser_id IS NULL AND c.daily = 0
ORDER BY c.created_at DESC, c.id LIMIT ?1 OFFSET ?2
)sql";
constexpr std::string_view kCountOfOrganiser = R"sql(
SELECT count(*) FROM competitions WHERE organiser_id = ?1
)sql";
constexpr std::string_view kCountOfOperator = R"sql(
SELECT count(*) FROM competitions WHERE organiser_id IS NULL AND daily = 0
)sql";

constexpr std::string_view kMarkClosed = R"sql(
UPDATE competitions SET closed = 1 WHERE id = ?1
)sql";

// Index games_playing_in_competition.
constexpr std::string_view kSelectPlayingIn = R"sql(
SELECT id FROM games WHERE competition_id = ?1 AND state = 'playing' ORDER BY created_at, id
)sql";

constexpr std::string_view kSelectAttemptsOf = R"sql(
SELECT started FROM attempts WHERE competition_id = ?1 AND player_id = ?2
)sql";

constexpr std::string_view kSelectAttemptsIn = R"sql(
SELECT player_id, started FROM attempts WHERE competition_id = ?1 ORDER BY player_id
)sql";

constexpr std::string_view kInsertOrganiser = R"sql(
INSERT INTO organisers (name, token_hash, created_at) VALUES (?1, ?2, ?3)
)sql";

// Unique index on token_hash.
constexpr std::string_view kSelectOrganiserByToken = R"sql(
SELECT id, name, token_hash, created_at FROM organisers WHERE token_hash = ?1
)sql";

constexpr std::string_view kInsertFlag = R"sql(
INSERT INTO entry_flags (competition_id, player_id, flag, game_id, reason, at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT (competition_id, player_id, flag) DO UPDATE
SET game_id = excluded.game_id, reason = excluded.reason, at = excluded.at
)sql";

constexpr std::string_view kSelectFlags = R"sql(
SELECT f.competition_id, f.player_id, p.name, f.flag, f.game_id, f.reason, f.at
FROM entry_flags AS f JOIN players AS p ON p.id = f.player_id
WHERE f.competition_id = ?1 ORDER BY f.at, f.player_id, f.flag
)sql";

// Each listing's WHERE, order and limit, one per CompetitionState in its
// order (a state without its clause does not compile).
constexpr game::EnumNames kWhereOf(CompetitionState::to_close,
                                   {kWhereUpcoming, kWhereOpen, kWhereClosed, kWhereToClose});

BoardRecord read_board_row(const Statement& s) {
  BoardRecord b;
  b.scope = s.get_text(0);
  b.mode = parse_mode_text(s.get_text(1));
  b.preset = s.get_text(2);
  b.seed = s.get_text(3);
  const auto key = s.get_blob(4);
  if (key.size() != b.key.size()) throw StorageError("stored board key has a wrong size");
  std::copy(key.begin(), key.end(), b.key.begin());
  b.commitment = s.get_text(5);
  b.created_at = s.get_int(6);
  b.closes_at = s.get_optional_int(7);
  return b;
}

WriteResult insert_board_row(Connection& c, const BoardRecord& board) {
  if (board.commitment != game::commitment(board.key)) {
    return write_error(WriteStatus::invalid, "a board's commitment is SHA-256 of its key");
  }
  auto q = c.query(kInsertBoard);
  q->bind(1, board.scope);
  q->bind(2, mode_text(board.mode));
  q->bind(3, board.preset);
  q->bind(4, board.seed);
  q->bind_blob(5, std::span<const std::uint8_t>(board.key));
  q->bind(6, board.commitment);
  q->bind(7, board.created_at);
  q->bind(8, board.closes_at);
  // Two nodes may create one board at once (two players' first games on a
  // new label). DO NOTHING makes the loser's insert a no-op instead of an
  // error: PostgreSQL waits for the winner's transaction, then changes
  // nothing (no failed statement, so nothing else of the batch is lost),
  // and the loser answers conflict; its caller reads the winner's key.
  q->run();
  if (c.changes() == 0) return write_error(WriteStatus::conflict, "the board exists");
  return write_ok();
}

}  // namespace

CompetitionRecord read_competition_row(const Statement& s) {
  using C = CompetitionRecord;
  // A NULL organiser name (the operator's) or commitment (no board) reads as "".
  return read_columns<&C::id, &C::name, &C::mode, &C::preset, &C::seed, &C::opens_at, &C::closes_at,
                      &C::attempts, &C::first_counts, &C::unlisted, &C::daily, &C::organiser_id,
                      &C::organiser_name, &C::created_at, &C::closed, &C::commitment>(s);
}

WriteResult insert_board(Connection& c, const BoardRecord& board) {
  if (board.preset.empty() || board.seed.empty()) {
    return write_error(WriteStatus::invalid, "a board needs a preset and a seed");
  }
  return insert_board_row(c, board);
}

std::optional<BoardRecord> select_board(Connection& c, const BoardKey& key) {
  return c.first_row(kSelectBoard, read_board_row, key.scope, mode_text(key.mode), key.preset,
                     key.seed);
}

WriteResult insert_competition(Connection& c, const CompetitionRecord& comp,
                               const BoardRecord& board) {
  if (comp.id.empty() || comp.name.empty() || comp.closes_at <= comp.opens_at) {
    return write_error(WriteStatus::invalid, "a competition needs an id, a name and a window");
  }
  if (board.scope != comp.id || board.mode != comp.mode || board.preset != comp.preset ||
      board.seed != comp.seed || board.closes_at != comp.closes_at) {
    return write_error(WriteStatus::invalid, "the board is not the competition's");
  }
  {
    auto q = c.query(kInsertCompetition);
    bind_all(*q, comp.id, comp.name, mode_text(comp.mode), comp.preset, comp.seed, comp.opens_at,
             comp.closes_at, comp.attempts, comp.first_counts ? 1 : 0, comp.unlisted ? 1 : 0,
             comp.daily ? 1 : 0, comp.organiser_id, comp.created_at);
    if (auto refused = run_insert(
            *q, [&] { return "competition id exists: " + comp.id; },
            [] { return std::string("unknown organiser"); })) {
      return *refused;
    }
  }
  return insert_board_row(c, board);
}

std::optional<CompetitionRecord> select_competition(Connection& c, std::string_view id) {
  return c.first_row(std::string(kCompetitionColumns) + " WHERE c.id = ?1", read_competition_row,
                     id);
}

std::vector<CompetitionRecord> select_competitions(Connection& c, CompetitionState state,
                                                   std::int64_t now, std::int64_t limit) {
  const std::string_view where = game::name_of(kWhereOf, state, kWhereOpen);
  return c.rows(std::string(kCompetitionColumns) + std::string(where), read_competition_row, now,
                std::max<std::int64_t>(limit, 0));
}

OrganiserCompetitions select_competitions_of(Connection& c, std::optional<OrganiserId> organiser,
                                             std::int64_t limit, std::int64_t offset) {
  OrganiserCompetitions out;
  {
    auto q = c.query(organiser ? kCountOfOrganiser : kCountOfOperator);
    if (organiser) q->bind(1, *organiser);
    if (q->step()) out.total = q->get_int(0);
  }
  auto q = c.query(std::string(kCompetitionColumns) +
                   std::string(organiser ? kWhereOrganiser : kWhereOperator));
  // The operator's statement has no organiser: its limit and offset are
  // ?1 and ?2.
  const int first = organiser ? 2 : 1;
  if (organiser) q->bind(1, *organiser);
  q->bind(first, std::max<std::int64_t>(limit, 0));
  q->bind(first + 1, std::max<std::int64_t>(offset, 0));
  while (q->step()) out.competitions.push_back(read_competition_row(*q));
  return out;
}

WriteResult mark_competition_closed(Connection& c, const std::string& id) {
  c.run(kMarkClosed, id);
  if (c.changes() == 0) return write_error(WriteStatus::not_found, "unknown competition " + id);
  return write_ok();
}

std::vector<std::string> select_playing_in(Connection& c, std::string_view competition_id) {
  return c.rows(kSelectPlayingIn, read_text, competition_id);
}

std::int64_t select_attempts_started(Connection& c, std::string_view competition_id,
                                     PlayerId player) {
  return c.first_row(kSelectAttemptsOf, read_int, competition_id, player).value_or(0);
}

std::vector<std::pair<PlayerId, std::int64_t>> select_attempts_started_in(
    Connection& c, std::string_view competition_id) {
  return c.rows(
      kSelectAttemptsIn,
      [](const Statement& s) {
        return std::pair<PlayerId, std::int64_t>(s.get_int(0), s.get_int(1));
      },
      competition_id);
}

WriteResult insert_organiser(Connection& c, const NewAccount& account) {
  return insert_account(c, kInsertOrganiser, account);
}

std::optional<OrganiserRecord> select_organiser_by_token_hash(Connection& c,
                                                              std::string_view token_hash) {
  using O = OrganiserRecord;
  return c.first_row(kSelectOrganiserByToken,
                     read_columns<&O::id, &O::name, &O::token_hash, &O::created_at>, token_hash);
}

WriteResult insert_flag(Connection& c, const EntryFlag& flag) {
  try {
    c.run(kInsertFlag, flag.competition_id, flag.player_id, flag.flag, flag.game_id, flag.reason,
          flag.at);
  } catch (const StorageError& e) {
    if (is_foreign_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::not_found, "unknown competition or player");
    }
    throw;
  }
  return write_ok();
}

void disqualify_lock_keys(Connection& c, const std::string& competition_id, PlayerId player,
                          std::vector<std::int32_t>& keys) {
  const auto comp = select_competition(c, competition_id);
  if (!comp) return;
  keys.push_back(board_lock(BoardKey{comp->mode, comp->preset, comp->seed, comp->id}));
  keys.push_back(player_lock(player));
  keys.push_back(season_lock());
}

WriteResult disqualify_entry(Connection& c, const std::string& competition_id, PlayerId player,
                             const std::string& reason, std::int64_t at) {
  const auto comp = select_competition(c, competition_id);
  if (!comp) return write_error(WriteStatus::not_found, "unknown competition " + competition_id);
  // The entry, the player's streak and the seasons change together: under
  // their locks (a competition's row never changes what is read here).
  c.lock_keys({board_lock(BoardKey{comp->mode, comp->preset, comp->seed, comp->id}),
               player_lock(player), season_lock()});
  // A disqualified entry leaves the ranking.
  const auto game_id =
      remove_entry(c, BoardKey{comp->mode, comp->preset, comp->seed, comp->id}, player);
  if (!game_id) return write_error(WriteStatus::not_found, "no such entry");
  WriteResult flagged =
      insert_flag(c, EntryFlag{competition_id, player, {}, "disqualified", *game_id, reason, at});
  // A disqualified daily game no longer counts its day for the streak.
  if (flagged.ok() && comp->daily) {
    uncount_streak_day(c, player, comp->mode, comp->opens_at / 86'400'000);
  }
  // A daily counted into its seasons already: its points are counted again.
  if (flagged.ok() && comp->daily) recount_season_points(c, *comp);
  return flagged;
}

std::vector<EntryFlag> select_flags(Connection& c, std::string_view competition_id) {
  using F = EntryFlag;
  return c.rows(kSelectFlags,
                read_columns<&F::competition_id, &F::player_id, &F::player, &F::flag, &F::game_id,
                             &F::reason, &F::at>,
                competition_id);
}

}  // namespace tilecrush::storage::detail
