#include "codec.hpp"
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

}  // namespace

WriteResult insert_room(Connection& c, const RoomRecord& room) {
  if (room.code.empty()) return write_error(WriteStatus::invalid, "empty room code");
  try {
    std::int64_t room_id = 0;
    {
      auto q = c.query(kInsertRoom);
      q->bind(1, room.code);
      q->bind(2, mode_text(room.mode));
      if (!room.preset.empty()) q->bind(3, room.preset);
      q->bind(4, room.seed);
      q->bind(5, room.host_player_id);
      q->bind(6, room.created_at);
      q->bind(7, room.finished_at);
      q->run();
      room_id = c.last_insert_rowid();
    }
    for (const RoomStanding& s : room.standings) {
      auto q = c.query(kInsertStanding);
      q->bind(1, room_id);
      q->bind(2, s.player_id);
      q->bind(3, s.rank);
      q->bind(4, s.score);
      q->bind(5, s.move_count);
      q->bind(6, s.game_id);
      q->run();
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
  RoomRecord room;
  {
    auto q = c.query(kSelectLatestRoom);
    q->bind(1, code);
    if (!q->step()) return std::nullopt;
    room.id = q->get_int(0);
    room.code = q->get_text(1);
    room.mode = parse_mode_text(q->get_text(2));
    room.preset = q->get_optional_text(3).value_or("");
    room.seed = q->get_text(4);
    room.host_player_id = q->get_optional_int(5);
    room.created_at = q->get_int(6);
    room.finished_at = q->get_int(7);
  }
  auto q = c.query(kSelectStandings);
  q->bind(1, room.id);
  while (q->step()) {
    RoomStanding s;
    s.rank = q->get_int(0);
    s.player_id = q->get_int(1);
    s.player = q->get_text(2);
    s.score = q->get_int(3);
    s.move_count = q->get_int(4);
    s.game_id = q->get_optional_text(5);
    room.standings.push_back(std::move(s));
  }
  return room;
}

}  // namespace tilecrush::storage::detail
