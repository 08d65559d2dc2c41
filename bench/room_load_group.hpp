// The simulated rooms of tilecrush_room_load.
//
// A RoomGroup is one host, its fellow players and its spectators, each on a
// WebSocket connection of its own to 127.0.0.1. It plays rooms one after
// the other for as long as the run lasts: the host creates the room, the
// others join it by its code, the host starts it, and every player plays
// random legal moves (chosen on a local engine copy of its game, whose
// state_hash is checked against every answer) until its game is over. When
// every member has seen room_finished, the host creates the next room.
//
// Broadcast latency is the time from the moment a player sends a move to
// the moment each other player receives the room_progress it causes, or each
// spectator the room_events.
//
// Thread safety: every connection of a group runs on the group's strand, so
// a group's state needs no lock; RoomLoadStats (room_load_run.hpp) is shared
// by all groups and is thread-safe.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "latency_histogram.hpp"
#include "room_load_member.hpp"
#include "room_load_run.hpp"
#include "room_sent_moves.hpp"

namespace tilecrush::bench {

class RoomGroup : public std::enable_shared_from_this<RoomGroup>, public RoomMemberObserver {
 public:
  using Strand = RoomMember::Strand;
  using Clock = RoomMember::Clock;

  RoomGroup(boost::asio::io_context& ioc, const RoomLoadOptions& options, RoomLoadStats& stats,
            int index);
  ~RoomGroup();

  // Connects every member; the first room follows once all said hello.
  void start();
  // Closes every connection (posted to the strand).
  void stop();

  // RoomMemberObserver: called by the members, on the strand.
  void on_connected(RoomMember& m) override;
  void on_message(RoomMember& m, const std::string& text) override;
  void on_failure(RoomMember& m, const std::string& what) override;

 private:
  void begin_round();
  void on_room_answer(RoomMember& m, const std::string& text);
  void on_started(RoomMember& m, const std::string& text);
  void on_move_answer(RoomMember& m, const std::string& text);
  void on_progress(RoomMember& m, const std::string& text);
  void on_room_events(RoomMember& m, const std::string& text);
  void on_finished(RoomMember& m);
  // The next room, once every member saw room_finished and every move was
  // answered (pushes do not wait for the database; answers do).
  void maybe_next_round();
  void on_error(RoomMember& m, const std::string& text);
  void next_move(RoomMember& m);
  void play(RoomMember& m);
  void resign(RoomMember& m);
  void stall(const std::string& why);
  // The player slot of a pushed `player` name, or -1.
  int slot_of(const std::string& name) const;
  void deliver(RoomMember& to, int slot, long move_count, bool resigned, LatencyHistogram& kind);

  const RoomLoadOptions& options_;
  RoomLoadStats& stats_;
  const int index_;
  Strand strand_;
  std::vector<std::shared_ptr<RoomMember>> members_;  // players first, the host at 0
  int welcomed_ = 0;
  bool counted_playing_ = false;
  bool stalled_ = false;
  // The current room.
  int round_ = 0;
  std::string mode_;
  std::string preset_;
  std::string code_;
  int pending_joins_ = 0;
  int finished_members_ = 0;
  SentMoves sent_;
};

}  // namespace tilecrush::bench
