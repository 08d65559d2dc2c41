// One multiplayer room: its members, its phase and what it tells them.
//
// Members are identified by player id, not by connection: a member's link
// to a connection comes and goes (drop, reconnect, second tab) while the
// member stays. A link holds the connection weakly, so a room never keeps a
// closed connection alive.
//
// Thread safety: a Room is guarded by its own `mutex`; every member below it
// except the fixed ones is read and written only while holding it (the
// RoomManager does). push_*() only queue on the connections (Connection::push
// never blocks), so they are called with the mutex held: that is what keeps
// one room's pushes in the order its changes happened.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "net/connection.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/rooms.hpp"

namespace tilecrush::server {

struct RoomLimits {
  std::size_t max_players = 8;
  std::size_t max_spectators = 32;
  // Rooms in lobby or playing that one player created and that still run.
  std::size_t max_open_rooms_hosted = 4;
  // A lobby player disconnected this long is removed (as if they left).
  std::chrono::milliseconds lobby_grace{std::chrono::minutes(3)};
  // A player disconnected this long during play has left for good.
  std::chrono::milliseconds play_grace{std::chrono::minutes(5)};
  // A playing room without any move this long ends: whoever is not over
  // has left for good.
  std::chrono::milliseconds play_idle{std::chrono::minutes(30)};
  // A finished room stays joinable (standings, final boards) this long.
  std::chrono::milliseconds finished_keep{std::chrono::minutes(5)};
  std::chrono::milliseconds sweep_every{std::chrono::seconds(15)};
};

// lobby -> starting (games being stored) -> playing -> finished.
enum class RoomPhase : std::uint8_t { lobby, starting, playing, finished };

// A member's current connection, if any.
class MemberLink {
 public:
  void attach(const std::shared_ptr<Connection>& conn);
  void detach(std::int64_t now);
  bool connected() const { return key_ != nullptr; }
  bool is(const Connection* conn) const { return key_ != nullptr && key_ == conn; }
  // When the member was last detached (valid while !connected()).
  std::int64_t detached_at() const { return detached_at_; }
  void push(const SharedText& text) const;
  void push(std::string text) const { push(std::make_shared<const std::string>(std::move(text))); }

 private:
  std::weak_ptr<Connection> conn_;
  const Connection* key_ = nullptr;  // identity only, never dereferenced
  std::int64_t detached_at_ = 0;
};

struct RoomPlayerEntry {
  std::int64_t player_id = 0;
  std::string name;
  MemberLink link;
  std::string game_id;  // empty until the room has started
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  bool game_over = false;
  // Left for good during play (leave_room, or disconnected too long): the
  // room counts them as over with the score they had then.
  bool left = false;

  bool over() const { return game_over || left; }
};

struct RoomSpectatorEntry {
  std::int64_t player_id = 0;
  std::string name;
  MemberLink link;
};

// A final standing with what storage needs besides the wire fields.
struct RoomResult {
  protocol::Standing standing;
  std::int64_t player_id = 0;
  std::string game_id;
};

// Ranks by score descending, then fewer moves; players equal on both share
// a rank (1, 1, 3) and are listed by name.
std::vector<RoomResult> rank_results(std::vector<RoomResult> results);

// Codes are shown in capitals; what players type is accepted in any case.
std::string normalize_room_code(std::string code);

class Room {
 public:
  Room(std::string code, game::GameSetup setup, std::int64_t creator_id, std::int64_t created_at);

  std::mutex mutex;

  // Fixed at creation:
  const std::string code;
  const game::GameSetup setup;  // mode, preset, seed
  const std::int64_t creator_id;
  const std::int64_t created_at;

  // Guarded by mutex:
  RoomPhase phase = RoomPhase::lobby;
  std::int64_t host_id = 0;
  std::vector<RoomPlayerEntry> players;  // in joining order
  std::vector<RoomSpectatorEntry> spectators;
  std::int64_t last_activity = 0;
  std::int64_t finished_at = 0;
  std::vector<RoomResult> results;  // once finished
  // Taken out of the manager's map: whoever still holds it must let go.
  bool removed = false;
  // Still counted against its creator's open rooms.
  bool counted_open = true;
  // Written with every stored state (an ownership epoch between server
  // nodes, later); kept as read back when the room is restored.
  std::int64_t epoch = 0;

  RoomPlayerEntry* find_player(std::int64_t player_id);
  RoomSpectatorEntry* find_spectator(std::int64_t player_id);
  bool has_member(std::int64_t player_id) const;
  bool all_over() const;

  protocol::RoomView view() const;
  // The pushed room update: {type: "room", room: RoomView}, no id.
  std::string update_text() const;
  // {type: "room_finished", code, standings} once finished.
  std::string finished_text() const;
  // Standings of the players as they are now.
  std::vector<RoomResult> current_results() const;

  // Removes a lobby player; the host role passes to the next player.
  void remove_player(std::int64_t player_id);
  void remove_spectator(std::int64_t player_id);

  void push_all(std::string text) const;
  // Everyone but one player id (who gets a direct answer instead).
  void push_others(std::int64_t except_player_id, std::string text) const;
  void push_spectators(std::string text) const;
  // A member (player or spectator) has just joined or come back: the others
  // get the room's update now, and what the member gets after its answer is
  // returned (the standings once finished, else empty), to be sent once the
  // locks are released.
  std::string announce_join(std::int64_t member_id) const;
};

}  // namespace tilecrush::server
