#include "room_load_member.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace tilecrush::bench {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

RoomMember::RoomMember(RoomMemberObserver& observer, Strand strand, int slot_in, bool spectator_in,
                       std::string name_in)
    : slot(slot_in),
      spectator(spectator_in),
      name(std::move(name_in)),
      rng(static_cast<std::uint32_t>(std::hash<std::string>{}(name))),
      observer_(observer),
      ws_(strand),
      timer_(strand) {}

void RoomMember::connect(unsigned short port) {
  // Loopback only: the tool never targets another host.
  const net::ip::tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), port);
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
  beast::get_lowest_layer(ws_).async_connect(
      endpoint, [self = shared_from_this()](beast::error_code ec) {
        if (ec) return self->observer_.on_failure(*self, "connect: " + ec.message());
        beast::get_lowest_layer(self->ws_).expires_never();
        self->ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
        self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code hec) {
          if (hec) return self->observer_.on_failure(*self, "handshake: " + hec.message());
          self->read_next();
          self->observer_.on_connected(*self);
        });
      });
}

void RoomMember::send(std::string text) {
  if (closing_) return;
  queue_.push_back(std::move(text));
  if (queue_.size() == 1) write_next();
}

void RoomMember::write_next() {
  ws_.text(true);
  ws_.async_write(net::buffer(queue_.front()),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    if (ec) {
                      if (!self->closing_)
                        self->observer_.on_failure(*self, "write: " + ec.message());
                      self->queue_.clear();
                      return;
                    }
                    self->queue_.pop_front();
                    if (!self->queue_.empty() && !self->closing_) self->write_next();
                  });
}

void RoomMember::read_next() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      if (!self->closing_) self->observer_.on_failure(*self, "read: " + ec.message());
      return;
    }
    const std::string text = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    self->observer_.on_message(*self, text);
    self->read_next();
  });
}

void RoomMember::close() {
  if (closing_) return;
  closing_ = true;
  timer_.cancel();
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace tilecrush::bench
