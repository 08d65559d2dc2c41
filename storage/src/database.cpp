#include "tilecrush/storage/database.hpp"

#include <utility>

#include "codec.hpp"
#include "connection.hpp"
#include "engine.hpp"
#include "stores.hpp"
#include "write_queue.hpp"

namespace tilecrush::storage {

using detail::Connection;

// A struct of its own (engine.hpp) so that this file holds the operations
// only; Database's methods reach its parts directly.
struct Database::Impl : detail::Engine {
  using Engine::Engine;
};

namespace {

// Encodes a move and its time here, off the writer thread. A move that
// cannot be stored is refused in its turn, as a failed statement would be:
// false, with the refusal queued and `done` handed to it.
bool encode_or_refuse(detail::Engine& engine, detail::MoveAppend& append, const game::Move& move,
                      std::int64_t at_ms, WriteCallback& done) {
  try {
    append.move = detail::encode_move(move);
    append.time = detail::encode_move_time(at_ms);
    return true;
  } catch (const StorageError& e) {
    engine.enqueue([message = std::string(e.what())](
                       Connection&) { return detail::write_error(WriteStatus::failed, message); },
                   std::move(done), true);
    return false;
  }
}

// An operation that ends game `game_id` (its lock keys: WriteOp::ends_game).
detail::WriteOp game_end(std::string game_id, std::function<WriteResult(Connection&)> run,
                         WriteCallback done) {
  detail::WriteOp op;
  op.run = std::move(run);
  op.done = std::move(done);
  op.game = std::move(game_id);
  op.ends_game = true;
  return op;
}

}  // namespace

bool is_postgres_url(std::string_view path) {
  return path.starts_with("postgresql://") || path.starts_with("postgres://");
}

Database::Database(Options options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Database::~Database() {
  close();
}

void Database::close() {
  impl_->close();
}

void Database::create_player(NewAccount account, WriteCallback done) {
  impl_->write(detail::insert_player, std::move(done), std::move(account));
}

void Database::create_game(GameRecord game, WriteCallback done) {
  impl_->write(detail::insert_game, std::move(done), std::move(game));
}

void Database::append_move(std::string game_id, std::int64_t seq, game::Move move,
                           std::int64_t score, std::int64_t move_count,
                           std::optional<std::int64_t> first_move_at, std::int64_t at_ms,
                           WriteCallback done) {
  detail::MoveAppend append{std::move(game_id), seq, {}, {}, score, move_count, first_move_at};
  if (!encode_or_refuse(*impl_, append, move, at_ms, done)) return;
  // No `run`: the writer stores `append` itself (store_move()), so the move
  // is neither copied into a closure nor freed twice.
  detail::WriteOp op;
  op.done = std::move(done);
  op.single_statement = true;
  op.append = std::move(append);
  impl_->push(std::move(op));
}

void Database::undo_move(std::string game_id, std::int64_t seq, std::int64_t score,
                         std::int64_t move_count, WriteCallback done) {
  std::string game = game_id;
  impl_->enqueue(
      [game_id = std::move(game_id), seq, score, move_count](Connection& c) {
        return detail::delete_last_move(c, game_id, seq, score, move_count);
      },
      std::move(done), true, {}, std::move(game));
}

void Database::finish_game(GameResult result, WriteCallback done) {
  std::string game_id = result.game_id;
  impl_->push(game_end(
      std::move(game_id),
      [result = std::move(result)](Connection& c) { return detail::finish_game(c, result); },
      std::move(done)));
}

void Database::reload_game(std::string game_id) {
  if (game_id.empty()) return;
  detail::WriteOp marker;
  marker.game = std::move(game_id);
  marker.reload = true;
  impl_->push(std::move(marker));
}

void Database::append_final_move(game::Move move, std::optional<std::int64_t> first_move_at,
                                 std::int64_t at_ms, GameResult result, WriteCallback done) {
  detail::MoveAppend append;
  append.game_id = result.game_id;
  append.seq = result.move_count - 1;
  append.score = result.score;
  append.move_count = result.move_count;
  append.first_move_at = first_move_at;
  if (!encode_or_refuse(*impl_, append, move, at_ms, done)) return;
  std::string game_id = result.game_id;
  // Not single_statement: its own savepoint, so that a refused end takes
  // the move back.
  impl_->push(game_end(
      std::move(game_id),
      [append = std::move(append), result = std::move(result)](Connection& c) {
        return detail::append_final_move(c, append, result);
      },
      std::move(done)));
}

void Database::save_room_result(RoomRecord room, WriteCallback done) {
  impl_->write(detail::insert_room, std::move(done), std::move(room));
}

void Database::create_board(BoardRecord board, WriteCallback done) {
  impl_->write(detail::insert_board, std::move(done), std::move(board));
}

void Database::create_competition(CompetitionRecord competition, BoardRecord board,
                                  WriteCallback done) {
  impl_->write(detail::insert_competition, std::move(done), std::move(competition),
               std::move(board));
}

void Database::mark_competition_closed(std::string id, WriteCallback done) {
  impl_->write(detail::mark_competition_closed, std::move(done), std::move(id));
}

void Database::create_organiser(NewAccount account, WriteCallback done) {
  impl_->write(detail::insert_organiser, std::move(done), std::move(account));
}

void Database::flag_entry(EntryFlag flag, WriteCallback done) {
  impl_->write(detail::insert_flag, std::move(done), std::move(flag));
}

void Database::disqualify(std::string competition_id, PlayerId player, std::string reason,
                          std::int64_t at, WriteCallback done) {
  std::string id_for_keys = competition_id;
  impl_->enqueue(
      [id = std::move(competition_id), player, reason = std::move(reason), at](Connection& c) {
        return detail::disqualify_entry(c, id, player, reason, at);
      },
      std::move(done), false,
      [id = std::move(id_for_keys), player](Connection& c, std::vector<std::int32_t>& keys) {
        detail::disqualify_lock_keys(c, id, player, keys);
      });
}

void Database::record_season_points(std::string competition_id, WriteCallback done) {
  impl_->enqueue(
      [id = std::move(competition_id)](Connection& c) {
        return detail::record_season_points(c, id);
      },
      std::move(done), false,
      [](Connection&, std::vector<std::int32_t>& keys) { keys.push_back(detail::season_lock()); });
}

void Database::set_recovery_code(PlayerId player, std::string code_hash, WriteCallback done) {
  impl_->enqueue([player, hash = std::move(code_hash)](
                     Connection& c) { return detail::update_recovery_hash(c, player, hash); },
                 std::move(done), true);
}

void Database::recover_player(RecoveryAttempt attempt, RecoveryCallback done) {
  // The operation is never refused (a wrong code's failure must commit): its
  // outcome travels beside the WriteResult, and is reported only once the
  // batch holding it has committed. A batch run again after losing a race
  // runs the check again and overwrites it.
  auto outcome = std::make_shared<RecoveryResult>();
  const std::int32_t key = detail::recovery_lock(attempt.name);
  impl_->enqueue(
      [attempt = std::move(attempt), outcome](Connection& c) {
        *outcome = detail::try_recovery(c, attempt);
        return detail::write_ok(outcome->player_id);
      },
      [outcome, done = std::move(done)](const WriteResult& r) {
        if (!done) return;
        if (r.ok()) return done(*outcome);
        RecoveryResult failed;
        failed.outcome = RecoveryOutcome::failed;
        failed.message = r.message;
        done(failed);
      },
      false, [key](Connection&, std::vector<std::int32_t>& keys) { keys.push_back(key); });
}

void Database::save_open_room(OpenRoomRecord room, WriteCallback done) {
  impl_->write(detail::upsert_open_room, std::move(done), std::move(room));
}

void Database::remove_open_room(std::string code, WriteCallback done) {
  impl_->write(detail::remove_open_room, std::move(done), std::move(code));
}

void Database::finish_open_room(RoomRecord result, WriteCallback done) {
  impl_->write(detail::finish_open_room, std::move(done), std::move(result));
}

void Database::flush() {
  if (impl_->writer) impl_->writer->flush();
}

RankCacheMetrics Database::rank_cache_metrics() const {
  return impl_->ranks->metrics();
}

WriterMetrics Database::metrics() const {
  if (!impl_->writer) return WriterMetrics{};
  WriterMetrics m = impl_->writer->metrics();
  if (impl_->checkpointer) m.checkpoints = impl_->checkpointer->checkpoints();
  return m;
}

Settings Database::settings() const {
  return impl_->settings;
}

std::optional<PlayerRecord> Database::find_player_by_name(std::string_view name) {
  return impl_->read(detail::select_player_by_name, name);
}

std::optional<PlayerRecord> Database::find_player_by_id(PlayerId id) {
  return impl_->read(detail::select_player_by_id, id);
}

std::optional<GameRecord> Database::load_game(std::string_view game_id) {
  return impl_->read(detail::select_game, game_id);
}

std::vector<std::string> Database::unfinished_games(std::optional<PlayerId> player) {
  return impl_->read(detail::select_unfinished_games, player);
}

std::vector<RunningAttempt> Database::running_attempts(PlayerId player, std::int64_t now,
                                                       std::int64_t limit, std::int64_t scan) {
  return impl_->read(detail::select_running_attempts, player, now, limit, scan);
}

LeaderboardPage Database::leaderboard(const BoardKey& board, std::int64_t limit,
                                      std::int64_t offset) {
  return impl_->read(detail::select_leaderboard, impl_->rank_cache(), board, limit, offset);
}

std::optional<LeaderboardPage> Database::leaderboard_around(const BoardKey& board,
                                                            std::string_view player_name,
                                                            std::int64_t radius) {
  return impl_->read(detail::select_leaderboard_around, impl_->rank_cache(), board, player_name,
                     radius);
}

BoardRevision Database::leaderboard_revision(const BoardKey& board) {
  return impl_->read(detail::select_board_revision, board);
}

std::vector<PlayerBest> Database::player_bests(PlayerId player) {
  return impl_->read(detail::select_player_bests, player);
}

std::vector<StreakRecord> Database::player_streaks(PlayerId player) {
  return impl_->read(detail::select_player_streaks, player);
}

HistoryPage Database::player_history(const HistoryQuery& query) {
  return impl_->read(detail::select_history, impl_->rank_cache(), query);
}

std::vector<HistoryDay> Database::player_calendar(PlayerId player, HistoryView view,
                                                  std::int64_t now, std::int64_t from,
                                                  std::int64_t to) {
  return impl_->read(detail::select_calendar, player, view, now, from, to);
}

SeasonPage Database::season_standings(const SeasonKey& season, std::int64_t limit,
                                      std::int64_t offset) {
  return impl_->read(detail::select_season_page, season, limit, offset);
}

std::optional<SeasonPage> Database::season_around(const SeasonKey& season,
                                                  std::string_view player_name,
                                                  std::int64_t radius) {
  return impl_->read(detail::select_season_around, season, player_name, radius);
}

BoardRevision Database::season_revision(const SeasonKey& season) {
  return impl_->read(detail::select_season_revision, season);
}

std::vector<SeasonPeriodRecord> Database::season_periods(game::Mode mode, std::int64_t limit) {
  return impl_->read(detail::select_season_periods, mode, limit);
}

std::optional<RoomRecord> Database::find_room(std::string_view code) {
  return impl_->read(detail::select_room, code);
}

std::optional<BoardRecord> Database::find_board(const BoardKey& key) {
  return impl_->read(detail::select_board, key);
}

std::optional<CompetitionRecord> Database::find_competition(std::string_view id) {
  return impl_->read(detail::select_competition, id);
}

std::vector<CompetitionRecord> Database::competitions(CompetitionState state, std::int64_t now,
                                                      std::int64_t limit) {
  return impl_->read(detail::select_competitions, state, now, limit);
}

OrganiserCompetitions Database::competitions_of(std::optional<OrganiserId> organiser,
                                                std::int64_t limit, std::int64_t offset) {
  return impl_->read(detail::select_competitions_of, organiser, limit, offset);
}

ArchivePage Database::archive(const ArchiveQuery& query) {
  return impl_->read(detail::select_archive, query);
}

std::string Database::archive_query_plan(const ArchiveQuery& query) {
  return impl_->read(detail::explain_archive, query);
}

std::vector<std::string> Database::playing_games_in(std::string_view competition_id) {
  return impl_->read(detail::select_playing_in, competition_id);
}

std::int64_t Database::attempts_started(std::string_view competition_id, PlayerId player) {
  return impl_->read(detail::select_attempts_started, competition_id, player);
}

std::vector<std::string> Database::device_token_hashes(PlayerId player) {
  return impl_->read(detail::select_device_tokens, player);
}

bool Database::has_recovery_code(PlayerId player) {
  return impl_->read(detail::select_has_recovery, player);
}

std::vector<std::pair<PlayerId, std::int64_t>> Database::attempts_started_in(
    std::string_view competition_id) {
  return impl_->read(detail::select_attempts_started_in, competition_id);
}

std::optional<OrganiserRecord> Database::find_organiser_by_token_hash(std::string_view token_hash) {
  return impl_->read(detail::select_organiser_by_token_hash, token_hash);
}

std::vector<EntryFlag> Database::entry_flags(std::string_view competition_id) {
  return impl_->read(detail::select_flags, competition_id);
}

std::string Database::leaderboard_query_plan() {
  return impl_->read(detail::explain_leaderboard);
}

std::string Database::leaderboard_rank_query_plan() {
  return impl_->read(detail::explain_leaderboard_rank);
}

std::string Database::move_batch_query_plan() {
  return impl_->read(detail::explain_move_batch);
}

bool Database::claim_room(std::string_view code) {
  return impl_->claims->claim(code);
}

void Database::release_room(std::string_view code) {
  impl_->claims->release(code);
}

void Database::check_room_claims() {
  impl_->claims->check();
}

std::uint64_t Database::room_claims_generation() const {
  return impl_->claims->generation();
}

std::vector<OpenRoomRecord> Database::open_rooms() {
  return impl_->read(detail::select_open_rooms);
}

std::optional<OpenRoomRecord> Database::find_open_room(std::string_view code) {
  return impl_->read(detail::select_open_room, code);
}

}  // namespace tilecrush::storage
