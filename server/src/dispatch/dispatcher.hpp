// The /ws message handler: parses each message, refuses what must be
// refused (rate, parse errors, anything before hello), and routes each
// command down to the one part that handles it: the game service (hello and
// single-player games) or the rooms. It owns no state of its own.
//
// The Request it creates is the message's RAII handle: the connection reads
// its next message when the last handler holding it lets go (request.hpp).
//
// Thread safety: on_message(), on_binary() and on_close() run on the calling
// connection's thread; the parts it calls are thread-safe.
#pragma once

#include "net/connection.hpp"
#include "ops/metrics.hpp"
#include "play/game_service.hpp"
#include "rooms/room_manager.hpp"

namespace tilecrush::server {

class Dispatcher final : public MessageHandler {
 public:
  // `rooms` may be null: room commands are then refused (not_allowed).
  Dispatcher(GameService& games, RoomManager* rooms, Metrics& metrics)
      : games_(games), rooms_(rooms), metrics_(metrics) {}

  void on_message(const std::shared_ptr<Connection>& conn, std::string text, bool rate_limited,
                  Reply reply) override;
  void on_binary(const std::shared_ptr<Connection>& conn, Reply reply) override;
  void on_close(const std::shared_ptr<Connection>& conn) override;

 private:
  void route(const RequestPtr& req, const protocol::Command& command);

  GameService& games_;
  RoomManager* rooms_;
  Metrics& metrics_;
};

}  // namespace tilecrush::server
