// Open rooms: the state a restarted server rebuilds its rooms from.
//
// Every statement here also runs unchanged on PostgreSQL: numbered
// parameters only, the ON CONFLICT upsert, no rowid, no SQLite-only
// function, and the room code as the key.
#include <unordered_map>

#include "codec.hpp"
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
SELECT r.room_code, r.player_id, p.name, r.game_id, r.has_left, r.score, r.move_count
FROM open_room_players AS r JOIN players AS p ON p.id = r.player_id
ORDER BY r.room_code, r.seat
)sql";

constexpr std::string_view kSelectOpenRoomPlayers = R"sql(
SELECT r.room_code, r.player_id, p.name, r.game_id, r.has_left, r.score, r.move_count
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
  {
    auto q = c.query(kDeleteOpenRoomPlayers);
    q->bind(1, code);
    q->run();
  }
  auto q = c.query(kDeleteOpenRoom);
  q->bind(1, code);
  q->run();
}

// Columns of kSelectOpenRoom(s).
OpenRoomRecord read_room(Statement& s) {
  OpenRoomRecord room;
  room.code = s.get_text(0);
  room.mode = parse_mode_text(s.get_text(1));
  room.preset = s.get_text(2);
  room.seed = s.get_text(3);
  room.creator_player_id = s.get_int(4);
  room.host_player_id = s.get_int(5);
  room.phase = parse_phase_text(s.get_text(6));
  room.created_at = s.get_int(7);
  room.last_activity = s.get_int(8);
  room.epoch = s.get_int(9);
  room.owner = s.get_text(10);
  return room;
}

// Columns of kSelect(All)OpenRoomPlayers, after the room code.
OpenRoomPlayer read_player(Statement& s) {
  OpenRoomPlayer p;
  p.player_id = s.get_int(1);
  p.player = s.get_text(2);
  p.game_id = s.get_optional_text(3);
  p.left = s.get_int(4) != 0;
  p.score = s.get_int(5);
  p.move_count = s.get_int(6);
  return p;
}

}  // namespace

WriteResult upsert_open_room(Connection& c, const OpenRoomRecord& room) {
  if (room.code.empty()) return write_error(WriteStatus::invalid, "empty room code");
  try {
    {
      auto q = c.query(kUpsertOpenRoom);
      q->bind(1, room.code);
      q->bind(2, mode_text(room.mode));
      q->bind(3, room.preset);
      q->bind(4, room.seed);
      q->bind(5, room.creator_player_id);
      q->bind(6, room.host_player_id);
      q->bind(7, phase_text(room.phase));
      q->bind(8, room.created_at);
      q->bind(9, room.last_activity);
      q->bind(10, room.epoch);
      q->bind(11, room.owner);
      q->run();
      // A write of an older epoch (a node that lost the room and has not
      // noticed yet) changes nothing: the room is another node's now.
      if (c.changes() == 0) {
        return write_error(WriteStatus::conflict, "room " + room.code + " has a newer owner");
      }
    }
    {
      auto q = c.query(kDeleteOpenRoomPlayers);
      q->bind(1, room.code);
      q->run();
    }
    std::int64_t seat = 0;
    for (const OpenRoomPlayer& p : room.players) {
      auto q = c.query(kInsertOpenRoomPlayer);
      q->bind(1, room.code);
      q->bind(2, seat++);
      q->bind(3, p.player_id);
      q->bind(4, p.game_id);
      q->bind(5, static_cast<std::int64_t>(p.left ? 1 : 0));
      q->bind(6, p.score);
      q->bind(7, p.move_count);
      q->run();
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
    const auto it = by_code.find(q->get_text(0));
    if (it != by_code.end()) rooms[it->second].players.push_back(read_player(*q));
  }
  return rooms;
}

std::optional<OpenRoomRecord> select_open_room(Connection& c, std::string_view code) {
  ReadTransaction snapshot(c);
  std::optional<OpenRoomRecord> room;
  {
    auto q = c.query(kSelectOpenRoom);
    q->bind(1, code);
    if (!q->step()) return std::nullopt;
    room = read_room(*q);
  }
  auto q = c.query(kSelectOpenRoomPlayers);
  q->bind(1, code);
  while (q->step()) room->players.push_back(read_player(*q));
  return room;
}

}  // namespace tilecrush::storage::detail
