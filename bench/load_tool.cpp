// tilecrush_load: drives N concurrent players against a running server on
// 127.0.0.1 through hello, new_game and moves, and prints moves/s, reply
// latency percentiles, and the server's RSS and CPU.
//
// Each simulated player keeps its own copy of the game in the engine: it
// picks a random legal move locally, sends it, and checks the server's
// state_hash against its copy, so a load run is also a correctness run.
//
// By default a player sends its next move as soon as the last one is
// answered (a closed loop: latency then grows with the queue the players
// themselves keep full, as Little's law says). --move-rate R paces each
// player to R moves per second instead, at a random phase, which measures
// the latency of a given offered load (players * R moves/s); a player whose
// answer comes after its next slot sends at once.
//
// The window is measured once every player has its first game (or after a
// 30 s ramp limit), and half a second more: a thousand players signing up
// and starting their games at once is a burst of writes of its own, not
// the load being measured, and moves sent behind it waited for it. The
// tool prints "measuring" (flushed) at the window's start, so that a script
// can take its own samples inside the window.
//
//   tilecrush_load --port P [--players N] [--seconds S] [--server-pid PID]
//                  [--mode same|match3|hidden|mix] [--threads T] [--move-rate R]
//                  [--db SERVER_DB_FILE]
//
// Ranked boards are dealt from secret keys (rules version 2): with --db (the
// server's SQLite file on this machine) players play ranked games and read
// each board's key for their copies (local_copies.hpp); without it, Same
// Game stays ranked (its board is all visible) and match-3 and hidden
// players play practice games of their presets' sizes, whose boards are
// public. The server's work per move is the same; only the leaderboard
// write at a game's end differs.
//
// Only loopback addresses are ever targeted; the run stops by itself.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "load_common.hpp"
#include "load_window.hpp"
#include "local_copies.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::bench {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using game::Game;

struct Options {
  LoadOptions load{"mix", 10};
  int players = 100;
  double move_rate = 0;  // moves per second per player; 0: as fast as answered
};

struct Stats {
  std::mutex mutex;
  std::vector<std::uint32_t> latencies_us;
  std::atomic<long> moves{0};
  std::atomic<long> games{0};
  std::atomic<long> mismatches{0};
  std::atomic<long> errors{0};
  std::atomic<long> connected{0};
  std::atomic<long> playing{0};  // players that have had their first game
  std::atomic<bool> measuring{false};
  std::atomic<bool> stopping{false};
};

class Player : public std::enable_shared_from_this<Player> {
 public:
  Player(net::io_context& ioc, const Options& options, const LocalCopies& copies, Stats& stats,
         int index)
      : ws_(net::make_strand(ioc)),
        timer_(ws_.get_executor()),
        options_(options),
        copies_(copies),
        stats_(stats),
        index_(index),
        rng_(static_cast<std::uint32_t>(index * 7919 + 1)) {}

  void start() {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), options_.load.port),
        [self = shared_from_this()](beast::error_code ec) {
          if (ec) return self->fail("connect");
          beast::get_lowest_layer(self->ws_).expires_never();
          self->ws_.set_option(
              websocket::stream_base::timeout::suggested(beast::role_type::client));
          self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code hec) {
            if (hec) return self->fail("handshake");
            ++self->stats_.connected;
            self->send("{\"type\":\"hello\",\"id\":1,\"name\":\"load" +
                       std::to_string(self->index_) + "-" + std::to_string(run_tag()) + "\"}");
            self->read([self](const std::string&) { self->new_game(); });
          });
        });
  }

 private:
  std::string pick_mode() {
    if (options_.load.mode != "mix") return options_.load.mode;
    static const char* kModes[] = {"same", "match3", "hidden"};
    return kModes[(index_ + games_) % 3];
  }

  void new_game() {
    if (stats_.stopping) return close();
    const std::string mode = pick_mode();
    const std::string preset = mode == "same" ? "normal" : "classic";
    game::GameSetup setup;
    setup.mode = *game::parse_mode(mode);
    nlohmann::json request = {{"type", "new_game"}, {"id", 2}, {"mode", mode}};
    if (mode == "same" || copies_.has_keys()) {
      request["preset"] = setup.preset = preset;
    } else {
      // Practice of the preset's size: a public board this copy can deal.
      const auto* p = game::find_preset(setup.mode, preset);
      request["width"] = setup.width = p->width;
      request["height"] = setup.height = p->height;
      request["colors"] = setup.colors = p->colors;
      if (p->moves) request["moves"] = *(setup.moves = p->moves);
    }
    send(request.dump());
    read([self = shared_from_this(), setup](const std::string& text) mutable {
      const auto reply = nlohmann::json::parse(text, nullptr, false);
      if (reply.is_discarded() || reply["type"] != "game") return self->fail("new_game");
      setup.seed = reply["game"]["seed"];
      self->game_id_ = reply["game"]["game_id"];
      self->local_ = self->copies_.copy_of(setup, reply["game"]);
      if (!self->local_ ||
          reply["game"]["state_hash"] != game::hash_hex(self->local_->state_hash())) {
        ++self->stats_.mismatches;
      }
      if (self->games_ == 0) ++self->stats_.playing;
      ++self->games_;
      self->next_move();
    });
  }

  // Waits for this player's next slot when paced, then moves.
  void next_move() {
    if (options_.move_rate <= 0) return move_now();
    const auto interval = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / options_.move_rate));
    const auto now = Clock::now();
    if (due_ == Clock::time_point{}) {
      due_ = now + std::chrono::duration_cast<Clock::duration>(
                       interval * std::uniform_real_distribution<double>(0, 1)(rng_));
    }
    if (due_ < now - interval) due_ = now;  // too far behind: do not burst to catch up
    const auto at = due_;
    due_ += interval;
    if (at <= now) return move_now();
    timer_.expires_at(at);
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->move_now();
    });
  }

  void move_now() {
    if (stats_.stopping) return close();
    if (!local_ || local_->over()) {
      if (local_) ++stats_.games;
      return new_game();
    }
    const auto legal = local_->legal_moves();
    if (legal.empty()) return new_game();
    const auto& move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_)];
    game::EventList events;
    local_->apply(move, events);
    std::string text = move_request(game_id_, move, 3);
    const auto sent = Clock::now();
    send(std::move(text));
    read([self = shared_from_this(), sent](const std::string& reply) {
      const auto us =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent).count();
      if (json_field(reply, "type") != "events") {
        ++self->stats_.errors;
      } else if (json_field(reply, "state_hash") != game::hash_hex(self->local_->state_hash())) {
        ++self->stats_.mismatches;
      }
      if (self->stats_.measuring) {
        ++self->stats_.moves;
        self->latencies_.push_back(static_cast<std::uint32_t>(us));
      }
      self->next_move();
    });
  }

  void send(std::string text) {
    outgoing_ = std::move(text);
    ws_.text(true);
    ws_.async_write(net::buffer(outgoing_),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) self->fail("write");
                    });
  }

  template <typename F>
  void read(F&& then) {
    buffer_.clear();
    ws_.async_read(buffer_, [self = shared_from_this(), then = std::forward<F>(then)](
                                beast::error_code ec, std::size_t) mutable {
      if (ec) return self->fail("read");
      then(beast::buffers_to_string(self->buffer_.data()));
    });
  }

  void fail(const char* what) {
    if (!stats_.stopping) {
      ++stats_.errors;
      if (stats_.errors < 5) std::cerr << "player " << index_ << ": " << what << " failed\n";
    }
    flush_latencies();
  }

  void close() {
    flush_latencies();
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }

  void flush_latencies() {
    std::lock_guard lock(stats_.mutex);
    stats_.latencies_us.insert(stats_.latencies_us.end(), latencies_.begin(), latencies_.end());
    latencies_.clear();
  }

  websocket::stream<beast::tcp_stream> ws_;
  net::steady_timer timer_;
  Clock::time_point due_{};
  const Options& options_;
  const LocalCopies& copies_;
  Stats& stats_;
  int index_;
  std::mt19937 rng_;
  beast::flat_buffer buffer_;
  std::string outgoing_;
  std::string game_id_;
  std::unique_ptr<Game> local_;
  std::vector<std::uint32_t> latencies_;
  int games_ = 0;
};

bool parse(int argc, char** argv, Options& o) {
  const auto take = [&o](const std::string& k, const std::string& v) {
    if (const auto known = read_load_option(k, v, o.load, {{"--players", 1, 20000, &o.players}})) {
      return *known;
    }
    double rate = 0;
    if (k != "--move-rate" || !number_at_least(v, 0, rate)) return false;
    o.move_rate = std::min(rate, 1000.0);
    return true;
  };
  return read_pairs(argc, argv, take) && o.load.port != 0;
}

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: tilecrush_load --port P [--players N] [--seconds S] [--threads T]\n"
               "                      [--server-pid PID] [--mode same|match3|hidden|mix]\n"
               "                      [--move-rate MOVES_PER_SECOND_PER_PLAYER]\n"
               "                      [--db SERVER_DB_FILE (board keys: ranked match-3/hidden)]\n");
}

int run(const Options& options) {
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);  // see server/src/main.cpp
  net::io_context ioc;
  Stats stats;
  const LocalCopies copies(options.load.db);
  std::vector<std::shared_ptr<Player>> players;
  for (int i = 0; i < options.players; ++i) {
    players.push_back(std::make_shared<Player>(ioc, options, copies, stats, i));
    players.back()->start();
  }
  // Ramp-up: until everyone has a game (at most 30 s); then measure.
  ProcessSample before;
  ProcessSample after;
  const LoadTimes times = run_load_window(
      ioc, options.load.threads, std::chrono::seconds(30), options.load.seconds, stats.measuring,
      stats.stopping, [&] { return stats.playing >= options.players; },
      [&] {
        before = sample_process(options.load.server_pid);
        std::printf("measuring\n");
        std::fflush(stdout);
      },
      [&] { after = sample_process(options.load.server_pid); }, [] {});
  const double elapsed = times.measured_s;
  players.clear();

  auto& lat = stats.latencies_us;
  std::sort(lat.begin(), lat.end());
  auto pct = [&lat](double p) -> double {
    if (lat.empty()) return 0;
    return lat[std::min(lat.size() - 1,
                        static_cast<std::size_t>(p * static_cast<double>(lat.size())))] /
           1000.0;
  };
  std::printf("players %d (connected %ld, in a game %ld after %.1f s), %.1f s, mode %s",
              options.players, stats.connected.load(), stats.playing.load(), times.ramp_s, elapsed,
              options.load.mode.c_str());
  if (options.move_rate > 0) {
    std::printf(", paced at %.1f moves/s each (offered %.0f moves/s)", options.move_rate,
                options.move_rate * options.players);
  }
  std::printf("\n");
  std::printf("moves %ld  moves/s %.0f  games finished %ld\n", stats.moves.load(),
              static_cast<double>(stats.moves.load()) / elapsed, stats.games.load());
  std::printf("latency ms  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  (samples %zu)\n", pct(0.50),
              pct(0.90), pct(0.99), lat.empty() ? 0.0 : lat.back() / 1000.0, lat.size());
  std::printf("state_hash mismatches %ld  errors %ld\n", stats.mismatches.load(),
              stats.errors.load());
  if (options.load.server_pid > 0) {
    std::printf("server RSS %.1f MiB  server CPU %.0f%% of one core\n", after.rss_kb / 1024.0,
                100.0 * (after.cpu_s - before.cpu_s) / elapsed);
  }
  return stats.mismatches.load() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tilecrush::bench

int main(int argc, char** argv) {
  using namespace tilecrush::bench;
  return tool_main("tilecrush_load", argc, argv, parse, usage, run);
}
