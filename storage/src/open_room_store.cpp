// Open rooms: the state a restarted server rebuilds its rooms from.
//
// Every statement here also runs unchanged on PostgreSQL: numbered
// parameters only, the ON CONFLICT upsert, no rowid, no SQLite-only
// function, and the room code as the key.
#include <unordered_map>

#include "codec.hpp"
#include "row_columns.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kUpsertOpenRoom = R"sql(
INSERT INTO open_rooms (code, mode, preset, seed, creator_player_id, host_player_id, phase,
                        created_at, last_activity, epoch, owner)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
ON CONFLICT (code) DO UPDATE SET
  mode = excluded.mode, preset = excluded.preset, seed = excluded.seed,
  creator_player_id = excluded.creator_player_id, host_player_id = excluded.host_player_id,
  phase = excluded.phase, created_at = excluded.created_at,
  last_activity = excluded.last_activity, epoch = excluded.epoch, owner = excluded.owner
WHERE open_rooms.epoch <= excluded.epoch
)sql";

constexpr std::string_view kDeleteOpenRoomPlayers = R"sql(
DELETE FROM open_room_players WHERE room_code = ?1
)sql";

constexpr std::string_view kInsertOpenRoomPlayer = R"sql(
INSERT INTO open_room_players (room_code, seat, player_id, game_id, has_left, score, move_count)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
)sql";

constexpr std::string_view kDeleteOpenRoom = R"sql(
DELETE FROM open_rooms WHERE code = ?1
)sql";

constexpr std::string_view kSelectOpenRooms = R"sql(
SELECT code, mode, preset, seed, creator_player_id, host_player_id, phase, created_at,
       last_activity, epoch, owner
FROM open_rooms ORDER BY created_at, code
)sql";

constexpr std::string_view kSelectOpenRoom = R"sql(
SELECT code, mode, preset, seed, creator_player_id, host_player_id, phase, created_at,
       last_activity, epoch, owner
FROM open_rooms WHERE code = ?1
)sql";

constexpr std::string_view kSelectAllOpenRoomPlayers = R"sql(
SELECT r.player_id, p.name, r.game_id, r.has_left, r.score, r.move_count, r.room_code
FROM open_room_players AS r JOIN players AS p ON p.id = r.player_id
ORDER BY r.room_code, r.seat
)sql";

constexpr std::string_view kSelectOpenRoomPlayers = R"sql(
SELECT r.player_id, p.name, r.game_id, r.has_left, r.score, r.move_count
FROM open_room_players AS r JOIN players AS p ON p.id = r.player_id
WHERE r.room_code = ?1 ORDER BY r.seat
)sql";

std::string_view phase_text(OpenRoomPhase phase) {
  return phase == OpenRoomPhase::playing ? "playing" : "lobby";
}

OpenRoomPhase parse_phase_text(std::string_view text) {
  if (text == "lobby") return OpenRoomPhase::lobby;
  if (text == "playing") return OpenRoomPhase::playing;
  throw StorageError("unknown open room phase '" + std::string(text) + "'");
}

void delete_open_room(Connection& c, const std::string& code) {
  c.run(kDeleteOpenRoomPlayers, code);
  c.run(kDeleteOpenRoom, code);
}

using R = OpenRoomRecord;
// Columns of kSelectOpenRoom(s).
constexpr auto read_room = read_columns<&R::code, &R::mode, &R::preset, &R::seed,
                                        &R::creator_player_id, &R::host_player_id, &R::phase,
                                        &R::created_at, &R::last_activity, &R::epoch, &R::owner>;

using P = OpenRoomPlayer;
// Columns of kSelect(All)OpenRoomPlayers (kSelectAllOpenRoomPlayers's room
// code follows them).
constexpr auto read_player =
    read_columns<&P::player_id, &P::player, &P::game_id, &P::left, &P::score, &P::move_count>;
constexpr int kRoomCodeAfterPlayer = 6;

}  // namespace

void read_column(const Statement& row, int column, OpenRoomPhase& out) {
  out = parse_phase_text(row.get_text(column));
}

WriteResult upsert_open_room(Connection& c, const OpenRoomRecord& room) {
  if (room.code.empty()) return write_error(WriteStatus::invalid, "empty room code");
  try {
    c.run(kUpsertOpenRoom, room.code, mode_text(room.mode), room.preset, room.seed,
          room.creator_player_id, room.host_player_id, phase_text(room.phase), room.created_at,
          room.last_activity, room.epoch, room.owner);
    // A write of an older epoch (a node that lost the room and has not
    // noticed yet) changes nothing: the room is another node's now.
    if (c.changes() == 0) {
      return write_error(WriteStatus::conflict, "room " + room.code + " has a newer owner");
    }
    c.run(kDeleteOpenRoomPlayers, room.code);
    std::int64_t seat = 0;
    for (const OpenRoomPlayer& p : room.players) {
      c.run(kInsertOpenRoomPlayer, room.code, seat++, p.player_id, p.game_id,
            static_cast<std::int64_t>(p.left ? 1 : 0), p.score, p.move_count);
    }
    return write_ok();
  } catch (const StorageError& e) {
    if (is_foreign_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::not_found, "room " + room.code + ": unknown player or game");
    }
    if (is_unique_violation(e.sqlite_code()) || is_primary_key_violation(e.sqlite_code())) {
      return write_error(WriteStatus::invalid, "room " + room.code + ": a player sits twice");
    }
    throw;
  }
}

WriteResult remove_open_room(Connection& c, const std::string& code) {
  delete_open_room(c, code);
  return write_ok();
}

WriteResult finish_open_room(Connection& c, const RoomRecord& result) {
  WriteResult saved = insert_room(c, result);
  if (!saved.ok()) return saved;
  delete_open_room(c, result.code);
  return saved;
}

std::vector<OpenRoomRecord> select_open_rooms(Connection& c) {
  ReadTransaction snapshot(c);
  std::vector<OpenRoomRecord> rooms;
  std::unordered_map<std::string, std::size_t> by_code;
  {
    auto q = c.query(kSelectOpenRooms);
    while (q->step()) {
      rooms.push_back(read_room(*q));
      by_code.emplace(rooms.back().code, rooms.size() - 1);
    }
  }
  auto q = c.query(kSelectAllOpenRoomPlayers);
  while (q->step()) {
    const auto it = by_code.find(q->get_text(kRoomCodeAfterPlayer));
    if (it != by_code.end()) rooms[it->second].players.push_back(read_player(*q));
  }
  return rooms;
}

std::optional<OpenRoomRecord> select_open_room(Connection& c, std::string_view code) {
  ReadTransaction snapshot(c);
  std::optional<OpenRoomRecord> room = c.first_row(kSelectOpenRoom, read_room, code);
  if (room) room->players = c.rows(kSelectOpenRoomPlayers, read_player, code);
  return room;
}

}  // namespace tilecrush::storage::detail
