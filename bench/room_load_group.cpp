#include "room_load_group.hpp"

#include <boost/asio/post.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "load_common.hpp"
#include "room_load_member.hpp"
#include "room_messages.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::bench {
namespace {

// A random hidden-mode game can go on for a long time: beyond this many
// moves the player resigns, so that every room ends.
constexpr long kMaxMovesPerGame = 1000;

}  // namespace

RoomGroup::RoomGroup(boost::asio::io_context& ioc, const RoomLoadOptions& options,
                     RoomLoadStats& stats, int index)
    : options_(options), stats_(stats), index_(index), strand_(boost::asio::make_strand(ioc)) {
  const std::string prefix = "rl" + std::to_string(run_tag()) + "-" + std::to_string(index) + "-";
  for (int i = 0; i < options.players_per_room; ++i) {
    members_.push_back(
        std::make_shared<RoomMember>(*this, strand_, i, false, prefix + std::to_string(i)));
  }
  for (int i = 0; i < options.spectators_per_room; ++i) {
    members_.push_back(std::make_shared<RoomMember>(*this, strand_, options.players_per_room + i,
                                                    true, prefix + "s" + std::to_string(i)));
  }
}

RoomGroup::~RoomGroup() = default;

void RoomGroup::start() {
  boost::asio::post(strand_, [self = shared_from_this()]() {
    for (auto& m : self->members_) m->connect(self->options_.load.port);
  });
}

void RoomGroup::stop() {
  boost::asio::post(strand_, [self = shared_from_this()]() {
    for (auto& m : self->members_) m->close();
  });
}

void RoomGroup::on_connected(RoomMember& m) {
  ++stats_.connected;
  m.send("{\"type\":\"hello\",\"id\":1,\"name\":\"" + m.name + "\"}");
}

void RoomGroup::on_failure(RoomMember& m, const std::string& what) {
  if (stats_.stopping) return;
  stats_.error(what.substr(0, what.find(':')), m.name + " " + what);
  stall(m.name + " " + what);
}

void RoomGroup::stall(const std::string& why) {
  if (stalled_) return;
  stalled_ = true;
  ++stats_.stalled;
  std::cerr << "room group " << index_ << " stopped: " << why << "\n";
}

void RoomGroup::on_message(RoomMember& m, const std::string& text) {
  const std::string type = message_type(text);
  if (type == "room_progress") return on_progress(m, text);
  if (type == "room_events") return on_room_events(m, text);
  if (type == "events") return on_move_answer(m, text);
  if (type == "room") return on_room_answer(m, text);
  if (type == "room_started") return on_started(m, text);
  if (type == "room_finished") return on_finished(m);
  if (type == "error") return on_error(m, text);
  if (type == "welcome" && ++welcomed_ == static_cast<int>(members_.size())) begin_round();
  // room_game (an undo) and anything else: not part of this load.
}

void RoomGroup::begin_round() {
  if (stats_.stopping || stalled_) return;
  ++round_;
  static const char* kModes[] = {"same", "match3", "hidden"};
  mode_ = options_.load.mode == "mix" ? kModes[(index_ + round_) % 3] : options_.load.mode;
  preset_ = !options_.preset.empty() ? options_.preset : mode_ == "same" ? "normal" : "classic";
  code_.clear();
  pending_joins_ = static_cast<int>(members_.size()) - 1;
  finished_members_ = 0;
  sent_.reset(options_.players_per_room);
  for (auto& m : members_) {
    m->local.reset();
    m->game_id.clear();
    m->done = false;
    m->awaiting = false;
    m->finished = false;
    m->last_seen.assign(static_cast<std::size_t>(options_.players_per_room), 0);
  }
  members_[0]->send("{\"type\":\"create_room\",\"id\":2,\"mode\":\"" + mode_ + "\",\"preset\":\"" +
                    preset_ + "\"}");
}

void RoomGroup::on_room_answer(RoomMember& m, const std::string& text) {
  const std::string id = json_field(text, "id");
  if (id == std::to_string(kCreate)) {
    // The RoomView's `code` is the first one in the answer.
    code_ = json_field(text, "code");
    if (pending_joins_ == 0) {
      members_[0]->send("{\"type\":\"start_room\",\"id\":4,\"code\":\"" + code_ + "\"}");
    }
    for (auto& other : members_) {
      if (other.get() == &m) continue;
      other->send("{\"type\":\"join_room\",\"id\":3,\"code\":\"" + code_ + "\",\"as\":\"" +
                  (other->spectator ? "spectator" : "player") + "\"}");
    }
  } else if (id == std::to_string(kJoin) && --pending_joins_ == 0) {
    members_[0]->send("{\"type\":\"start_room\",\"id\":4,\"code\":\"" + code_ + "\"}");
  }
  // The start_room answer and pushed membership updates need nothing.
}

void RoomGroup::on_started(RoomMember& m, const std::string& text) {
  if (m.spectator) return;
  const auto message = nlohmann::json::parse(text, nullptr, false);
  if (message.is_discarded() || !message.contains("game")) {
    stats_.error("bad room_started", text.substr(0, 200));
    return stall("bad room_started");
  }
  const auto& view = message["game"];
  game::GameSetup setup;
  setup.mode = *game::parse_mode(mode_);
  setup.preset = preset_;
  setup.seed = view.value("seed", "");
  m.game_id = view.value("game_id", "");
  m.local = options_.copies->copy_of(setup, view);
  if (!m.local || view.value("state_hash", "") != game::hash_hex(m.local->state_hash())) {
    ++stats_.mismatches;
    m.local.reset();
    stats_.error("local game differs from room_started", m.name + " " + code_);
    return resign(m);
  }
  if (m.slot == 0) {
    if (!counted_playing_) ++stats_.groups_playing;
    counted_playing_ = true;
    if (stats_.measuring) ++stats_.rooms_started;
  }
  next_move(m);
}

void RoomGroup::next_move(RoomMember& m) {
  if (stats_.stopping || m.done || !m.local) return;
  if (m.local->over()) {
    m.done = true;
    if (stats_.measuring) ++stats_.games_finished;
    return;
  }
  if (options_.think_ms > 0) {
    return m.after(options_.think_ms, [this, &m]() { play(m); });
  }
  play(m);
}

void RoomGroup::play(RoomMember& m) {
  if (stats_.stopping) return;
  const auto legal = m.local->legal_moves();
  if (legal.empty() || m.local->move_count() >= kMaxMovesPerGame) return resign(m);
  const auto& move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(m.rng)];
  game::EventList events;
  m.local->apply(move, events);
  // The time is taken before the send: a push may reach another member of
  // the group before this write's completion runs.
  m.sent_at = Clock::now();
  sent_.move(m.slot, m.local->move_count(), m.sent_at);
  m.awaiting = true;
  m.send(move_request(m.game_id, move, kMove));
}

void RoomGroup::resign(RoomMember& m) {
  m.done = true;
  if (m.game_id.empty()) return stall(m.name + " has no game to resign");
  ++stats_.resigns;
  m.sent_at = Clock::now();
  sent_.resign(m.slot, m.sent_at);
  m.awaiting = true;
  m.send("{\"type\":\"resign\",\"id\":6,\"game_id\":\"" + m.game_id + "\"}");
}

void RoomGroup::on_move_answer(RoomMember& m, const std::string& text) {
  m.awaiting = false;
  if (json_field(text, "id") != std::to_string(kMove) || !m.local) return maybe_next_round();
  const auto us =
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m.sent_at).count();
  if (json_field(text, "state_hash") != game::hash_hex(m.local->state_hash())) {
    ++stats_.mismatches;
  }
  if (stats_.measuring) {
    ++stats_.moves;
    stats_.reply.record(static_cast<std::uint64_t>(us));
  }
  next_move(m);
  maybe_next_round();
}

int RoomGroup::slot_of(const std::string& name) const {
  for (int i = 0; i < options_.players_per_room; ++i) {
    if (members_[static_cast<std::size_t>(i)]->name == name) return i;
  }
  return -1;
}

void RoomGroup::deliver(RoomMember& to, int slot, long move_count, bool resigned,
                        LatencyHistogram& kind) {
  long& last = to.last_seen[static_cast<std::size_t>(slot)];
  if (move_count != (resigned ? last : last + 1)) ++stats_.out_of_order;
  last = move_count;
  const auto sent = sent_.sent_at(slot, move_count, resigned);
  if (!sent) {
    ++stats_.unmatched;
    return;
  }
  if (!stats_.measuring) return;
  const auto us = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - *sent).count());
  kind.record(us);
  stats_.broadcast.record(us);
}

void RoomGroup::on_progress(RoomMember& m, const std::string& text) {
  const int slot = slot_of(json_field(text, "player"));
  if (slot < 0) {
    ++stats_.unmatched;
    return;
  }
  // The mover's own copy and the spectators' (who are measured on
  // room_events) are not deliveries.
  if (m.spectator || slot == m.slot) return;
  // A resign's progress repeats the move count with over = true; a move's
  // that ended the game cannot be followed by a resign.
  const bool over = json_field(text, "over") == "true";
  const bool resigned = over && sent_.resigned(slot);
  deliver(m, slot, to_long(json_field(text, "move_count")), resigned, stats_.to_players);
}

void RoomGroup::on_room_events(RoomMember& m, const std::string& text) {
  if (!m.spectator) return;
  const int slot = slot_of(json_field(text, "player"));
  if (slot < 0) {
    ++stats_.unmatched;
    return;
  }
  const bool resigned = text.find("\"reason\":\"resigned\"") != std::string::npos;
  deliver(m, slot, to_long(json_field(text, "move_count")), resigned, stats_.to_spectators);
}

void RoomGroup::on_finished(RoomMember& m) {
  if (m.finished) return;
  m.finished = true;
  ++finished_members_;
  maybe_next_round();
}

void RoomGroup::maybe_next_round() {
  if (finished_members_ < static_cast<int>(members_.size())) return;
  for (const auto& m : members_) {
    if (m->awaiting) return;
  }
  if (stats_.measuring) ++stats_.rooms_finished;
  begin_round();
}

void RoomGroup::on_error(RoomMember& m, const std::string& text) {
  const std::string id = json_field(text, "id");
  const std::string code = json_field(text, "code");
  stats_.error(code + " on " + request_name(id), m.name + ": " + text.substr(0, 300));
  if (id == std::to_string(kMove) || id == std::to_string(kResign)) m.awaiting = false;
  if (id == std::to_string(kMove)) {
    // The server refused a move the local copy took: end this game.
    return resign(m);
  }
  stall(m.name + " got " + code + " on " + request_name(id));
}

}  // namespace tilecrush::bench
