#include "rooms/room.hpp"

#include <algorithm>

#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

void MemberLink::attach(const std::shared_ptr<Connection>& conn) {
  conn_ = conn;
  key_ = conn.get();
}

void MemberLink::detach(std::int64_t now) {
  conn_.reset();
  key_ = nullptr;
  detached_at_ = now;
}

void MemberLink::push(const SharedText& text) const {
  if (auto conn = conn_.lock()) conn->push(text);
}

std::vector<RoomResult> rank_results(std::vector<RoomResult> results) {
  std::sort(results.begin(), results.end(), [](const RoomResult& a, const RoomResult& b) {
    const protocol::Standing& x = a.standing;
    const protocol::Standing& y = b.standing;
    if (x.score != y.score) return x.score > y.score;
    if (x.move_count != y.move_count) return x.move_count < y.move_count;
    return x.player < y.player;
  });
  for (std::size_t i = 0; i < results.size(); ++i) {
    protocol::Standing& s = results[i].standing;
    const protocol::Standing* before = i > 0 ? &results[i - 1].standing : nullptr;
    const bool tied = before && before->score == s.score && before->move_count == s.move_count;
    s.rank = tied ? before->rank : static_cast<int>(i + 1);
  }
  return results;
}

std::string normalize_room_code(std::string code) {
  for (char& c : code) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return code;
}

Room::Room(std::string code_in, game::GameSetup setup_in, std::int64_t creator,
           std::int64_t created)
    : code(std::move(code_in)),
      setup(std::move(setup_in)),
      creator_id(creator),
      created_at(created),
      host_id(creator),
      last_activity(created) {}

RoomPlayerEntry* Room::find_player(std::int64_t player_id) {
  for (RoomPlayerEntry& p : players) {
    if (p.player_id == player_id) return &p;
  }
  return nullptr;
}

RoomSpectatorEntry* Room::find_spectator(std::int64_t player_id) {
  for (RoomSpectatorEntry& s : spectators) {
    if (s.player_id == player_id) return &s;
  }
  return nullptr;
}

bool Room::has_member(std::int64_t player_id) const {
  return std::any_of(players.begin(), players.end(),
                     [&](const RoomPlayerEntry& p) { return p.player_id == player_id; }) ||
         std::any_of(spectators.begin(), spectators.end(),
                     [&](const RoomSpectatorEntry& s) { return s.player_id == player_id; });
}

bool Room::all_over() const {
  return std::all_of(players.begin(), players.end(),
                     [](const RoomPlayerEntry& p) { return p.over(); });
}

protocol::RoomView Room::view() const {
  protocol::RoomView v;
  v.code = code;
  v.mode = setup.mode;
  v.preset = setup.preset;
  v.seed = setup.seed;
  for (const RoomPlayerEntry& p : players) {
    if (p.player_id == host_id) v.host = p.name;
    v.players.push_back({p.name, p.score, p.move_count, p.over(), p.link.connected()});
  }
  switch (phase) {
    // Games are still being stored while starting: nobody plays yet.
    case RoomPhase::lobby:
    case RoomPhase::starting:
      v.state = protocol::RoomState::lobby;
      break;
    case RoomPhase::playing:
      v.state = protocol::RoomState::playing;
      break;
    case RoomPhase::finished:
      v.state = protocol::RoomState::finished;
      break;
  }
  v.spectators = static_cast<std::int64_t>(spectators.size());
  return v;
}

std::string Room::update_text() const {
  return protocol::dump({{"type", "room"}, {"room", protocol::room_view(view())}});
}

std::string Room::finished_text() const {
  std::vector<protocol::Standing> standings;
  standings.reserve(results.size());
  for (const RoomResult& r : results) standings.push_back(r.standing);
  return protocol::dump(protocol::room_finished(code, standings));
}

std::string Room::announce_join(std::int64_t member_id) const {
  push_others(member_id, update_text());
  return phase == RoomPhase::finished ? finished_text() : "";
}

std::vector<RoomResult> Room::current_results() const {
  std::vector<RoomResult> out;
  out.reserve(players.size());
  for (const RoomPlayerEntry& p : players) {
    RoomResult r;
    r.standing.player = p.name;
    r.standing.score = p.score;
    r.standing.move_count = p.move_count;
    r.player_id = p.player_id;
    r.game_id = p.game_id;
    out.push_back(std::move(r));
  }
  return rank_results(std::move(out));
}

void Room::remove_player(std::int64_t player_id) {
  std::erase_if(players, [&](const RoomPlayerEntry& p) { return p.player_id == player_id; });
  if (host_id == player_id && !players.empty()) {
    // The longest-waiting connected player takes over, else the first.
    const auto connected =
        std::find_if(players.begin(), players.end(),
                     [](const RoomPlayerEntry& p) { return p.link.connected(); });
    host_id = connected != players.end() ? connected->player_id : players.front().player_id;
  }
}

void Room::remove_spectator(std::int64_t player_id) {
  std::erase_if(spectators, [&](const RoomSpectatorEntry& s) { return s.player_id == player_id; });
}

void Room::push_all(std::string message) const {
  // Serialised once, shared by every member's queue.
  const auto text = std::make_shared<const std::string>(std::move(message));
  for (const RoomPlayerEntry& p : players) p.link.push(text);
  for (const RoomSpectatorEntry& s : spectators) s.link.push(text);
}

void Room::push_others(std::int64_t except_player_id, std::string message) const {
  const auto text = std::make_shared<const std::string>(std::move(message));
  for (const RoomPlayerEntry& p : players) {
    if (p.player_id != except_player_id) p.link.push(text);
  }
  for (const RoomSpectatorEntry& s : spectators) {
    if (s.player_id != except_player_id) s.link.push(text);
  }
}

void Room::push_spectators(std::string message) const {
  const auto text = std::make_shared<const std::string>(std::move(message));
  for (const RoomSpectatorEntry& s : spectators) s.link.push(text);
}

}  // namespace tilecrush::server
