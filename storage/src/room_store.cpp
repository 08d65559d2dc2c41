#include "codec.hpp"
#include "row_columns.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kInsertRoom = R"sql(
INSERT INTO rooms (code, mode, preset, seed, host_player_id, created_at, finished_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
)sql";

constexpr std::string_view kInsertStanding = R"sql(
INSERT INTO room_results (room_id, player_id, rank, score, move_count, game_id)
VALUES (?1, ?2, ?3, ?4, ?5, ?6)
)sql";

constexpr std::string_view kSelectLatestRoom = R"sql(
SELECT id, code, mode, preset, seed, host_player_id, created_at, finished_at
FROM rooms WHERE code = ?1 ORDER BY finished_at DESC, id DESC LIMIT 1
)sql";

constexpr std::string_view kSelectStandings = R"sql(
SELECT r.rank, r.player_id, p.name, r.score, r.move_count, r.game_id
FROM room_results AS r JOIN players AS p ON p.id = r.player_id
WHERE r.room_id = ?1 ORDER BY r.rank, r.player_id
)sql";

// Columns of kSelectLatestRoom (a NULL preset reads as "": custom).
constexpr auto read_room =
    read_columns<&RoomRecord::id, &RoomRecord::code, &RoomRecord::mode, &RoomRecord::preset,
                 &RoomRecord::seed, &RoomRecord::host_player_id, &RoomRecord::created_at,
                 &RoomRecord::finished_at>;

// Columns of kSelectStandings.
constexpr auto read_standing =
    read_columns<&RoomStanding::rank, &RoomStanding::player_id, &RoomStanding::player,
                 &RoomStanding::score, &RoomStanding::move_count, &RoomStanding::game_id>;

}  // namespace

WriteResult insert_room(Connection& c, const RoomRecord& room) {
  if (room.code.empty()) return write_error(WriteStatus::invalid, "empty room code");
  try {
    c.run(kInsertRoom, room.code, mode_text(room.mode), null_if_empty(room.preset), room.seed,
          room.host_player_id, room.created_at, room.finished_at);
    const std::int64_t room_id = c.last_insert_rowid();
    for (const RoomStanding& s : room.standings) {
      c.run(kInsertStanding, room_id, s.player_id, s.rank, s.score, s.move_count, s.game_id);
    }
    return write_ok(room_id);
  } catch (const StorageError& e) {
    if (is_foreign_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::not_found, "room " + room.code + ": unknown player or game");
    }
    if (is_primary_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::invalid, "room " + room.code + ": a player stands twice");
    }
    throw;
  }
}

std::optional<RoomRecord> select_room(Connection& c, std::string_view code) {
  ReadTransaction snapshot(c);
  std::optional<RoomRecord> room = c.first_row(kSelectLatestRoom, read_room, code);
  if (room) room->standings = c.rows(kSelectStandings, read_standing, room->id);
  return room;
}

}  // namespace tilecrush::storage::detail
