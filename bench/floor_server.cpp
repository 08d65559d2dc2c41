// The transport floor: the least a WebSocket server can do per move and still
// satisfy the load generator (the peers' loadgen.mjs, see bench/README.md), measured beside
// tilecrush in the same run (bench/peer_compare.sh).
//
// It keeps what the load generator checks (the rules engine, the protocol's
// parsing and replies, state_hash) and drops everything else: no storage, no
// durability, no game registry or locks, no rate limits, no metrics, no
// HTTP routing. One io_context per thread, each connection on one thread (no
// strands), one game per connection, answers written at once. So
// "tilecrush costs N times the floor" is the price of what tilecrush adds:
// durability, identity, concurrency control and limits.
//
//   floor_server [--port N] [--threads N]
// Prints "floor listening on ws://127.0.0.1:PORT/ws" when ready.
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/views.hpp"

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using namespace tilecrush;

namespace {

class FloorSession : public std::enable_shared_from_this<FloorSession> {
 public:
  explicit FloorSession(tcp::socket socket) : ws_(std::move(socket)) {}

  void run() {
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->do_read();
    });
  }

 private:
  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->on_message();
    });
  }

  void on_message() {
    const auto data = buffer_.cdata();
    const std::string_view text(static_cast<const char*>(data.data()), data.size());
    send(answer(text));
    buffer_.consume(buffer_.size());
    do_read();
  }

  std::string answer(std::string_view text) {
    protocol::ParseResult parsed = protocol::parse_client_message(text);
    if (!parsed.ok()) {
      return protocol::dump(protocol::error_reply(parsed.id, parsed.error));
    }
    const protocol::Command& command = *parsed.command;
    if (const auto* hello = std::get_if<protocol::Hello>(&command)) {
      return protocol::dump(protocol::welcome(parsed.id, 1, hello->name, "floor"));
    }
    if (const auto* cmd = std::get_if<protocol::NewGame>(&command)) {
      game::GameSetup setup = cmd->setup;
      if (setup.seed.empty()) setup.seed = "floor-" + std::to_string(++games_);
      if (setup.ranked()) setup.board_key = game::BoardSecret{};  // a fixed key
      game::CreateResult created = game::create_game(setup);
      if (!created.game) {
        return protocol::dump(
            protocol::error_reply(parsed.id, protocol::ErrorCode::bad_request, created.error));
      }
      game_ = std::move(created.game);
      game_id_ = "g" + std::to_string(games_);
      protocol::GameViewMeta meta;
      meta.game_id = game_id_;
      return protocol::dump(protocol::game_reply(parsed.id, protocol::game_view(*game_, meta)));
    }
    if (const auto* cmd = std::get_if<protocol::MoveCommand>(&command)) {
      if (!game_ || cmd->game_id != game_id_) {
        return protocol::dump(
            protocol::error_reply(parsed.id, protocol::ErrorCode::not_found, "no such game"));
      }
      game::EventList events;
      const game::Outcome outcome = game_->apply(cmd->move, events);
      if (!outcome.ok()) {
        return protocol::dump(
            protocol::error_reply(parsed.id, protocol::error_code(outcome.status), outcome.reason));
      }
      return protocol::events_reply_text(parsed.id, game_id_, *game_, events);
    }
    if (std::holds_alternative<protocol::Ping>(command)) {
      return protocol::dump(protocol::pong(parsed.id));
    }
    return protocol::dump(
        protocol::error_reply(parsed.id, protocol::ErrorCode::not_allowed, "not in the floor"));
  }

  void send(std::string message) {
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return;
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->do_write();
                    });
  }

  websocket::stream<tcp::socket> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  std::unique_ptr<game::Game> game_;
  std::string game_id_;
  std::uint64_t games_ = 0;
};

// Accepts on its own thread's context; hands sockets out round-robin.
class FloorListener {
 public:
  FloorListener(net::io_context& accept_context, std::vector<net::io_context*> contexts,
                unsigned short port)
      : acceptor_(accept_context, tcp::endpoint(net::ip::make_address("127.0.0.1"), port)),
        contexts_(std::move(contexts)) {}

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

  void accept() {
    net::io_context& target = *contexts_[next_++ % contexts_.size()];
    acceptor_.async_accept(target, [this](beast::error_code ec, tcp::socket socket) {
      if (!ec) {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<FloorSession>(std::move(socket))->run();
      }
      accept();
    });
  }

 private:
  tcp::acceptor acceptor_;
  std::vector<net::io_context*> contexts_;
  std::size_t next_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 0;
  unsigned threads = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--port") {
      port = static_cast<unsigned short>(std::atoi(argv[i + 1]));
    } else if (flag == "--threads") {
      threads = static_cast<unsigned>(std::max(1, std::atoi(argv[i + 1])));
    } else {
      std::cerr << "usage: floor_server [--port N] [--threads N]\n";
      return 2;
    }
  }
  std::vector<std::unique_ptr<net::io_context>> contexts;
  std::vector<net::io_context*> pointers;
  for (unsigned i = 0; i < threads; ++i) {
    contexts.push_back(std::make_unique<net::io_context>(1));
    pointers.push_back(contexts.back().get());
  }
  FloorListener listener(*contexts[0], pointers, port);
  listener.accept();
  std::cout << "floor listening on ws://127.0.0.1:" << listener.port() << "/ws" << std::endl;
  std::vector<std::thread> runners;
  for (unsigned i = 1; i < threads; ++i) {
    runners.emplace_back([&context = *contexts[i]] {
      auto guard = net::make_work_guard(context);
      context.run();
    });
  }
  contexts[0]->run();
  for (auto& t : runners) t.join();
}
