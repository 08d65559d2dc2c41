#include <algorithm>
#include <limits>
#include <span>

#include "codec.hpp"
#include "row_columns.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kInsertGame = R"sql(
INSERT INTO games (id, player_id, mode, preset, width, height, colors, move_budget, refill,
                   compress, board_width, board_height, board, seed, rules_version, ranked,
                   score, move_count, created_at, first_move_at, room_code, move_list, keyed,
                   competition_id, attempt, move_times)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
        ?20, ?21, ?22, ?23, ?24, ?25, ?26)
)sql";

// A keyed game's board must exist, under the key the game was dealt with:
// its insert returns the stored key of its board (scope: the competition or
// ''; mode, preset and seed: the game's), NULL for none, and the caller
// refuses the game (its savepoint undoes the insert) unless it is the
// game's. One statement, one round trip on PostgreSQL, where a read of the
// key before the insert was a second.
const std::string kInsertKeyedGame = std::string(kInsertGame) + R"sql(
RETURNING (SELECT key FROM boards
           WHERE scope = coalesce(?24, '') AND mode = ?3 AND preset = coalesce(?4, '')
             AND seed = ?14)
)sql";

// One statement counts the attempt below the limit ?3 and returns its
// number, or returns nothing at the limit. The upsert locks the player's
// row (or inserts it, a concurrent insert waiting for it), so two nodes
// creating the player's last attempt at once count it once: the second
// sees the first's count (PostgreSQL re-reads a row it waited for).
constexpr std::string_view kCountAttempt = R"sql(
INSERT INTO attempts (competition_id, player_id, started) VALUES (?1, ?2, 1)
ON CONFLICT (competition_id, player_id) DO UPDATE SET started = attempts.started + 1
WHERE attempts.started < ?3
RETURNING started
)sql";

constexpr std::string_view kSelectGame = R"sql(
SELECT g.id, g.player_id, p.name, g.mode, g.preset, g.width, g.height, g.colors, g.move_budget,
       g.refill, g.compress, g.board_width, g.board_height, g.board, g.seed, g.rules_version,
       g.ranked, g.score, g.move_count, g.state, g.over_reason, g.created_at, g.first_move_at,
       g.finished_at, g.duration_ms, g.room_code, g.move_list, g.competition_id, g.attempt, b.key,
       g.move_times
FROM games AS g JOIN players AS p ON p.id = g.player_id
LEFT JOIN boards AS b
  ON g.keyed = 1 AND b.scope = coalesce(g.competition_id, '') AND b.mode = g.mode
     AND b.preset = g.preset AND b.seed = g.seed
WHERE g.id = ?1
)sql";

constexpr std::string_view kSelectPlaying = R"sql(
SELECT id FROM games WHERE state = 'playing' ORDER BY created_at, id
)sql";

constexpr std::string_view kSelectPlayingOf = R"sql(
SELECT id FROM games WHERE player_id = ?1 AND state = 'playing' ORDER BY created_at, id
)sql";

// The player's latest ?4 games through games_by_player (player_id,
// created_at), walked backwards: a bounded read whatever the player's
// history. Of those, the counted attempts still playing on a competition
// that is still open at ?2.
constexpr std::string_view kSelectRunningAttempts = R"sql(
SELECT g.id, g.competition_id, g.mode, g.preset, g.attempt, g.ranked, g.score, g.move_count,
       g.created_at, c.closes_at
FROM (SELECT id, competition_id, mode, preset, attempt, ranked, score, move_count, created_at,
             state
      FROM games WHERE player_id = ?1 ORDER BY created_at DESC LIMIT ?4) AS g
JOIN competitions AS c ON c.id = g.competition_id
WHERE g.state = 'playing' AND g.attempt > 0 AND c.closes_at > ?2
ORDER BY g.created_at DESC, g.id
LIMIT ?3
)sql";

game::Board read_board(const Statement& s, int width_col, int height_col, int cells_col) {
  const auto width = s.get_int(width_col);
  const auto height = s.get_int(height_col);
  auto cells = s.get_blob(cells_col);
  if (width < 1 || height < 1 || width > game::kMaxSide || height > game::kMaxSide ||
      cells.size() != static_cast<std::size_t>(width * height)) {
    throw StorageError("stored board has a wrong size");
  }
  game::Board board(static_cast<int>(width), static_cast<int>(height));
  board.cells() = std::move(cells);
  return board;
}

// Counts the attempt of a competition game (in the caller's savepoint):
// the attempt number, 0 for practice past the limit, nullopt when the
// limit refuses it.
std::optional<std::int64_t> count_attempt(Connection& c, const GameRecord& game,
                                          const GameRecord::AttemptRule& rule) {
  const auto at_limit = [&]() -> std::optional<std::int64_t> {
    if (rule.practice_beyond_limit) return 0;
    return std::nullopt;
  };
  if (rule.limit && *rule.limit <= 0) return at_limit();
  auto q = c.query(kCountAttempt);
  q->bind(1, *game.competition);
  q->bind(2, game.player_id);
  q->bind(3, rule.limit ? std::int64_t{*rule.limit} : std::numeric_limits<std::int64_t>::max());
  if (!q->step()) return at_limit();
  return q->get_int(0);
}

}  // namespace

WriteResult insert_game(Connection& c, const GameRecord& game) {
  const game::GameSetup& setup = game.setup;
  if (game.id.empty()) return write_error(WriteStatus::invalid, "empty game id");
  if (game.ranked && setup.preset.empty()) {
    return write_error(WriteStatus::invalid, "a ranked game needs a preset");
  }
  bool ranked = game.ranked;
  std::int64_t attempt = 0;
  if (game.competition && game.attempt_rule) {
    const auto counted = count_attempt(c, game, *game.attempt_rule);
    if (!counted) return write_error(WriteStatus::conflict, "no attempts left");
    attempt = *counted;
    ranked = ranked && attempt_ranked(*game.attempt_rule, attempt);
  }
  std::optional<std::vector<std::uint8_t>> stored_key;  // of a keyed game's board
  {
    auto q = c.query(setup.board_key ? std::string_view(kInsertKeyedGame) : kInsertGame);
    q->bind(1, game.id);
    q->bind(2, game.player_id);
    q->bind(3, mode_text(setup.mode));
    if (!setup.preset.empty()) q->bind(4, setup.preset);
    q->bind(5, setup.width);
    q->bind(6, setup.height);
    q->bind(7, setup.colors);
    q->bind(8, setup.moves);
    q->bind(9, setup.refill ? 1 : 0);
    q->bind(10, setup.compress ? 1 : 0);
    if (setup.board) {
      q->bind(11, setup.board->width());
      q->bind(12, setup.board->height());
      q->bind_blob(13, std::span<const std::uint8_t>(setup.board->cells()));
    }
    q->bind(14, setup.seed);
    q->bind(15, setup.rules_version);
    q->bind(16, ranked ? 1 : 0);
    q->bind(17, game.score);
    q->bind(18, game.move_count);
    q->bind(19, game.created_at);
    q->bind(20, game.first_move_at);
    q->bind(21, game.room_code);
    std::string list;
    for (const game::Move& m : game.moves) list += encode_move(m);
    q->bind(22, list);
    q->bind(23, setup.board_key ? 1 : 0);
    q->bind(24, game.competition);
    q->bind(25, attempt);
    // Offsets are known when there is one per move; a game given moves
    // without them has none (NULL), like the games stored before them.
    if (game.move_times.size() == game.moves.size()) {
      std::string times;
      for (const std::int64_t t : game.move_times) times += encode_move_time(t);
      q->bind(26, times);
    }
    if (auto refused = run_insert(
            *q, [&] { return "game id exists: " + game.id; },
            [&] { return "unknown player " + std::to_string(game.player_id); },
            [&](const Statement& row) {
              if (setup.board_key && !row.is_null(0)) stored_key = row.get_blob(0);
            })) {
      return *refused;
    }
  }
  if (setup.board_key &&
      (!stored_key || !std::equal(stored_key->begin(), stored_key->end(), setup.board_key->begin(),
                                  setup.board_key->end()))) {
    return write_error(WriteStatus::invalid, "a keyed game needs its board's key");
  }
  return write_ok(attempt);
}

std::optional<GameRecord> select_game(Connection& c, std::string_view game_id) {
  GameRecord game;
  {
    auto q = c.query(kSelectGame);
    q->bind(1, game_id);
    if (!q->step()) return std::nullopt;
    const Statement& s = *q;
    game.id = s.get_text(0);
    game.player_id = s.get_int(1);
    game.player_name = s.get_text(2);
    game::GameSetup& setup = game.setup;
    setup.mode = parse_mode_text(s.get_text(3));
    setup.preset = s.get_optional_text(4).value_or("");
    setup.width = static_cast<int>(s.get_int(5));
    setup.height = static_cast<int>(s.get_int(6));
    setup.colors = static_cast<int>(s.get_int(7));
    if (auto budget = s.get_optional_int(8)) setup.moves = static_cast<int>(*budget);
    setup.refill = s.get_int(9) != 0;
    setup.compress = s.get_int(10) != 0;
    if (!s.is_null(13)) setup.board = read_board(s, 11, 12, 13);
    setup.seed = s.get_text(14);
    setup.rules_version = static_cast<int>(s.get_int(15));
    game.ranked = s.get_int(16) != 0;
    game.score = s.get_int(17);
    game.move_count = s.get_int(18);
    game.state = parse_game_state(s.get_text(19));
    if (auto reason = s.get_optional_text(20)) game.over_reason = parse_over_reason(*reason);
    game.created_at = s.get_int(21);
    game.first_move_at = s.get_optional_int(22);
    game.finished_at = s.get_optional_int(23);
    game.duration_ms = s.get_optional_int(24);
    game.room_code = s.get_optional_text(25);
    game.moves = decode_moves(s.get_text(26));
    game.competition = s.get_optional_text(27);
    game.attempt = s.get_int(28);
    if (!s.is_null(29)) {
      const auto key = s.get_blob(29);
      if (key.size() != game::BoardSecret{}.size())
        throw StorageError("stored board key has a wrong size");
      setup.board_key.emplace();
      std::copy(key.begin(), key.end(), setup.board_key->begin());
    }
    if (auto times = s.get_optional_text(30)) {
      game.move_times = decode_move_times(*times);
      // Never a partial list: anything else is unknown.
      if (game.move_times.size() != game.moves.size()) game.move_times.clear();
    }
  }
  return game;
}

std::vector<std::string> select_unfinished_games(Connection& c, std::optional<PlayerId> player) {
  auto q = c.query(player ? kSelectPlayingOf : kSelectPlaying);
  if (player) q->bind(1, *player);
  std::vector<std::string> ids;
  while (q->step()) ids.push_back(q->get_text(0));
  return ids;
}

std::vector<RunningAttempt> select_running_attempts(Connection& c, PlayerId player,
                                                    std::int64_t now, std::int64_t limit,
                                                    std::int64_t scan) {
  if (limit <= 0 || scan <= 0) return {};
  using A = RunningAttempt;
  // A NULL preset reads as "".
  return c.rows(kSelectRunningAttempts,
                read_columns<&A::game_id, &A::competition, &A::mode, &A::preset, &A::attempt,
                             &A::ranked, &A::score, &A::move_count, &A::created_at, &A::closes_at>,
                player, now, limit, scan);
}

}  // namespace tilecrush::storage::detail
