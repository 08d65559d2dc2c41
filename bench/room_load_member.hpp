// RoomMember: one simulated room member's WebSocket connection to
// 127.0.0.1 (a read loop that hands every message to its observer, the
// member's RoomGroup; a queue of outgoing messages) and what the group keeps
// about it for the current room.
//
// Thread safety: runs on its group's strand only; every call must come from
// that strand (the group's handlers do), and the observer is called there.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace tilecrush::bench {

class RoomMember;

// What a member reports to its owner (its RoomGroup), on the strand. The
// observer must outlive the member's pending handlers: the tool keeps every
// group until its io_context threads have returned.
class RoomMemberObserver {
 public:
  virtual void on_connected(RoomMember& m) = 0;
  virtual void on_message(RoomMember& m, const std::string& text) = 0;
  virtual void on_failure(RoomMember& m, const std::string& what) = 0;

 protected:
  ~RoomMemberObserver() = default;
};

class RoomMember : public std::enable_shared_from_this<RoomMember> {
 public:
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
  using Clock = std::chrono::steady_clock;

  RoomMember(RoomMemberObserver& observer, Strand strand, int slot, bool spectator,
             std::string name);

  void connect(unsigned short port);
  // Queues one text frame; frames leave in order.
  void send(std::string text);
  // Runs `then` on the strand after `ms` milliseconds.
  template <typename F>
  void after(int ms, F then) {
    timer_.expires_after(std::chrono::milliseconds(ms));
    timer_.async_wait(
        [self = shared_from_this(), then = std::move(then)](boost::beast::error_code ec) mutable {
          if (!ec) then();
        });
  }
  // A normal WebSocket close; failures after it are not errors.
  void close();
  bool closing() const { return closing_; }

  const int slot;  // players 0.. (the host is 0), then spectators
  const bool spectator;
  const std::string name;

  // The current room, kept by the group.
  std::unique_ptr<game::Game> local;  // a player's own game, from room_started
  std::string game_id;
  Clock::time_point sent_at;    // the move or resign awaiting its answer
  bool done = false;            // no more moves this room (over, resigned, refused)
  bool awaiting = false;        // a move or resign is not answered yet
  bool finished = false;        // room_finished received
  std::vector<long> last_seen;  // per player slot: the last move_count pushed here
  std::mt19937 rng;

 private:
  void read_next();
  void write_next();

  RoomMemberObserver& observer_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::asio::steady_timer timer_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool closing_ = false;
};

}  // namespace tilecrush::bench
