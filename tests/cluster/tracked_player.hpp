// A player for the cluster's fault tests: plays one game after another (or
// its room's race) on its own thread, paced, and after any fault (its
// connection broke, a request was refused or not answered) connects again
// and compares the game in the database with the last move it saw
// acknowledged. A move acknowledged and then missing, or a stored game
// that is neither that state nor one move further while a move was in
// flight, is a failure (a lost move, or a fork).
//
// Thread safety: run() belongs to the player's thread; progress_ns(),
// broke_ns(), rejoined_ns(), acked_total(), failure() may be read from any
// thread; the rest only before run() starts or after it returned.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "nginx_client.hpp"
#include "ws_client.hpp"

namespace tilecrush::testing {

inline std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One game as its player saw it: the last acknowledged move count and
// state, and whether a move was sent whose answer never came.
struct Tracked {
  std::string game_id;
  std::int64_t acked = 0;
  std::string hash;
  bool in_flight = false;
};

// A stored game (a GameView) against what was acknowledged: equal, or one
// move further when a move was in flight (it committed; its answer was
// lost), which `t` then takes. Empty when it matches, else what differs.
inline std::string compare_stored(Tracked& t, const json& view) {
  const std::int64_t count = view.value("move_count", std::int64_t{-1});
  const std::string hash = view.value("state_hash", "");
  if (count == t.acked && hash == t.hash) {
    t.in_flight = false;
    return "";
  }
  if (t.in_flight && count == t.acked + 1) {
    t.acked = count;
    t.hash = hash;
    t.in_flight = false;
    return "";
  }
  return "game " + t.game_id + ": stored " + std::to_string(count) + " moves (" + hash + "), " +
         std::to_string(t.acked) + " acknowledged (" + t.hash + ")" +
         (t.in_flight ? ", one in flight" : "");
}

class TrackedPlayer {
 public:
  struct Options {
    // A new connection, signed in as `name` (with `token` when not empty;
    // `token` takes the welcome's); throws when it cannot connect.
    std::function<std::unique_ptr<WsClient>(const std::string& name, std::string& token)> connect;
    // The new_game request of each next game (solo players).
    json new_game = {{"type", "new_game"}, {"mode", "same"}, {"preset", "easy"}};
    std::chrono::milliseconds pace{150};  // between moves
    // When set, `pace` is the interval from one move's start to the next
    // (a fixed rate, at a phase of its own; a player behind its schedule
    // moves at once and does not burst to catch up), not a pause after
    // each answer. A pace of 0 is a closed loop either way.
    bool fixed_rate = false;
    // Rooms: nginx's port, through which a member joins again.
    unsigned short room_front = 0;
    std::chrono::milliseconds request_timeout{5000};
  };

  TrackedPlayer(std::string name, Options options)
      : name_(std::move(name)), options_(std::move(options)) {}

  // A room player, already in its started room on `conn`.
  void join_room(std::string code, std::unique_ptr<WsClient> conn, const json& game_view) {
    room_ = std::move(code);
    conn_ = std::move(conn);
    game_.game_id = game_view["game_id"];
    game_.acked = game_view["move_count"];
    game_.hash = game_view["state_hash"];
  }
  std::string& token() { return token_; }
  const std::string& name() const { return name_; }
  const std::string& room() const { return room_; }

  // Plays until `stop` (or a failure); a fault costs a reconnect.
  void run(const std::atomic<bool>& stop) {
    auto due = std::chrono::steady_clock::now() +
               options_.pace * static_cast<int>(std::hash<std::string>{}(name_) % 1000) / 1000;
    while (!stop && !failed_) {
      try {
        if (!conn_) {
          reconnect();
          if (!conn_) continue;
          rejoined_ns_ = steady_now_ns();
        }
        if (options_.fixed_rate) {
          std::this_thread::sleep_until(due);
          const auto now = std::chrono::steady_clock::now();
          if (due < now - options_.pace) due = now;  // far behind (a reconnect): no burst
          due += options_.pace;
          play_one();
        } else {
          play_one();
          std::this_thread::sleep_for(options_.pace);
        }
      } catch (const std::exception& e) {
        {
          std::lock_guard lock(failure_mutex_);
          last_error_ = e.what();
        }
        ++faults_;
        if (conn_) broke_ns_ = steady_now_ns();
        conn_.reset();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    conn_.reset();
  }

  // Every game this player played, as last acknowledged.
  std::vector<Tracked> games() const {
    std::vector<Tracked> all = done_;
    if (!game_.game_id.empty()) all.push_back(game_);
    return all;
  }
  // When it last made progress (a move acknowledged; once its room's race
  // is over, any answer), and when its connection last broke.
  std::int64_t progress_ns() const { return progress_ns_; }
  std::int64_t broke_ns() const { return broke_ns_; }
  // When it was last back in after connecting (signed in, and its game
  // resumed or its room joined again), before its first move there.
  std::int64_t rejoined_ns() const { return rejoined_ns_; }
  long acked_total() const { return acked_total_; }
  // Faults it met: broken connections, refused or unanswered requests.
  long faults() const { return faults_; }
  bool room_game_over() const { return room_over_; }
  std::string failure() const {
    std::lock_guard lock(failure_mutex_);
    return failure_;
  }
  // Why its last fault broke off play (for a test's message).
  std::string last_error() const {
    std::lock_guard lock(failure_mutex_);
    return last_error_;
  }

 private:
  void reconnect() {
    if (!room_.empty()) {
      json answer;
      conn_ = join_via_nginx(options_.room_front, room_, name_, token_, answer, 40,
                             std::chrono::milliseconds(50), options_.request_timeout);
      if (!conn_) return;
      check(compare_stored(game_, answer["game"]));
      // Its last move was in flight and committed: the race is over.
      if (answer["game"].value("over", false)) room_over_ = true;
      if (room_over_) progress_ns_ = steady_now_ns();
      return;
    }
    conn_ = options_.connect(name_, token_);
    if (game_.game_id.empty()) return;
    const json resumed = conn_->request({{"type", "resume"}, {"game_id", game_.game_id}});
    if (resumed["type"] != "game") throw std::runtime_error("resume: " + resumed.dump());
    check(compare_stored(game_, resumed["game"]));
    if (resumed["game"].value("over", false)) {
      // Its last move was in flight and committed: the next game.
      done_.push_back(game_);
      game_ = {};
    }
  }

  void play_one() {
    conn_->pushes().clear();
    if (room_.empty() && game_.game_id.empty()) {
      const json g = conn_->request(options_.new_game);
      if (g["type"] != "game") throw std::runtime_error("new_game: " + g.dump());
      game_.game_id = g["game"]["game_id"];
      game_.acked = g["game"]["move_count"];
      game_.hash = g["game"]["state_hash"];
    }
    if (room_over_) {
      // The race is over for this player: being connected is all it does.
      const json seen = conn_->request({{"type", "resume"}, {"game_id", game_.game_id}});
      if (seen["type"] != "game") throw std::runtime_error("resume: " + seen.dump());
      progress_ns_ = steady_now_ns();
      return;
    }
    const json hint = conn_->request({{"type", "hint"}, {"game_id", game_.game_id}});
    if (hint["type"] != "hint") throw std::runtime_error("hint: " + hint.dump());
    game_.in_flight = true;
    const json reply = conn_->request({{"type", "click"},
                                       {"game_id", game_.game_id},
                                       {"x", hint["click"][0]},
                                       {"y", hint["click"][1]}});
    // Refused (the node lost its database, or its copy was behind): the
    // reconnect's resume tells whether the move was stored.
    if (reply["type"] != "events") throw std::runtime_error("move: " + reply.dump());
    game_.acked = reply["move_count"];
    game_.hash = reply["state_hash"];
    game_.in_flight = false;
    ++acked_total_;
    progress_ns_ = steady_now_ns();
    if (reply["over"] == true) {
      if (!room_.empty()) {
        room_over_ = true;
        return;
      }
      done_.push_back(game_);
      game_ = {};
    }
  }

  void check(const std::string& problem) {
    if (problem.empty()) return;
    std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = name_ + ": " + problem;
    failed_ = true;
  }

  const std::string name_;
  const Options options_;
  std::string token_;
  std::string room_;  // empty: a solo player
  std::unique_ptr<WsClient> conn_;
  Tracked game_;
  std::vector<Tracked> done_;  // finished solo games
  std::atomic<bool> room_over_{false};
  mutable std::mutex failure_mutex_;
  std::string failure_;     // under failure_mutex_
  std::string last_error_;  // under failure_mutex_
  std::atomic<bool> failed_{false};
  std::atomic<std::int64_t> progress_ns_{0};
  std::atomic<std::int64_t> broke_ns_{0};
  std::atomic<std::int64_t> rejoined_ns_{0};
  std::atomic<long> acked_total_{0};
  std::atomic<long> faults_{0};
};

}  // namespace tilecrush::testing
