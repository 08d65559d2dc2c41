// The values of rooms: a finished room's result, and a room still open.
//
// Every time is in milliseconds since the Unix epoch (UTC), given by the
// caller: storage never reads the clock for data it keeps.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/player_records.hpp"

namespace tilecrush::storage {

struct RoomStanding {
  std::int64_t rank = 0;
  PlayerId player_id = 0;
  std::string player;  // filled by find_room(); save_room_result() ignores it
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::optional<std::string> game_id;
};

struct RoomRecord {
  std::int64_t id = 0;  // assigned by save_room_result()
  std::string code;     // codes may be reused by later rooms
  game::Mode mode = game::Mode::same;
  std::string preset;  // empty for custom parameters
  std::string seed;
  std::optional<PlayerId> host_player_id;
  std::int64_t created_at = 0;
  std::int64_t finished_at = 0;
  std::vector<RoomStanding> standings;  // find_room(): by rank
};

// A room still open (lobby or playing), kept so that a restarted server gets
// it back: Database::save_open_room() stores its whole state under its code,
// open_rooms() reads it back. Spectators are not kept (a spectator whose
// connection drops is removed anyway), nor who is connected.
enum class OpenRoomPhase : std::uint8_t { lobby, playing };

struct OpenRoomPlayer {
  PlayerId player_id = 0;
  std::string player;                  // filled by reads; save_open_room() ignores it
  std::optional<std::string> game_id;  // nullopt until the room has started
  // Out of the race for good (left, or away too long during play).
  bool left = false;
  // The room's figures for the player when written. They are what the room
  // counts for a player who left (whose game may go on as a solo game); for
  // the others the game's own row is newer and is the one to read.
  std::int64_t score = 0;
  std::int64_t move_count = 0;
};

struct OpenRoomRecord {
  std::string code;  // the key: one open room per code
  game::Mode mode = game::Mode::same;
  std::string preset;  // rooms are always on a preset
  std::string seed;
  PlayerId creator_player_id = 0;  // whose open rooms it counts among
  PlayerId host_player_id = 0;     // the host now (passes on in the lobby)
  OpenRoomPhase phase = OpenRoomPhase::lobby;
  std::int64_t created_at = 0;
  // The room's last activity as of the write (start, a member's change).
  std::int64_t last_activity = 0;
  // The ownership epoch between server nodes: a node that takes a room over
  // writes a higher one, and a write of a lower epoch than the stored one is
  // refused (conflict), so a node that lost a room cannot overwrite it.
  std::int64_t epoch = 0;
  // The node that owns the room (its --node-id; "" on a single node).
  std::string owner;
  std::vector<OpenRoomPlayer> players;  // in joining order
};

}  // namespace tilecrush::storage
