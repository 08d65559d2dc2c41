#include "dispatch/dispatcher.hpp"

#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

using protocol::ErrorCode;

void Dispatcher::on_message(const std::shared_ptr<Connection>& conn, std::string text,
                            bool rate_limited, Reply reply) {
  // Parsed even when refused for its rate: the refusal echoes its id.
  protocol::ParseResult parsed = protocol::parse_client_message(text);
  auto req = std::make_shared<Request>(conn, std::move(parsed.id), std::move(reply), metrics_);
  if (rate_limited) {
    metrics_.message("other");
    return req->fail(ErrorCode::rate_limited, "too many messages; slow down");
  }
  if (!parsed.ok()) {
    metrics_.message("invalid");
    return req->fail(parsed.error.code, parsed.error.message);
  }
  const protocol::Command& command = *parsed.command;
  metrics_.message(protocol::type_name(command));
  if (!std::holds_alternative<protocol::Hello>(command) && !conn->state().player_id) {
    return req->fail(ErrorCode::unauthorized, "say hello first");
  }
  route(req, command);
}

void Dispatcher::route(const RequestPtr& req, const protocol::Command& command) {
  std::visit(
      [this, &req](const auto& cmd) {
        using T = std::decay_t<decltype(cmd)>;
        if constexpr (std::is_same_v<T, protocol::Ping>) {
          req->answer(protocol::pong(req->id()));
        } else if constexpr (std::is_same_v<T, protocol::CreateRoom> ||
                             std::is_same_v<T, protocol::JoinRoom> ||
                             std::is_same_v<T, protocol::LeaveRoom> ||
                             std::is_same_v<T, protocol::StartRoom>) {
          if (!rooms_) return req->fail(ErrorCode::not_allowed, "rooms are not available");
          rooms_->handle(req, cmd);
        } else {
          games_.handle(req, cmd);
        }
      },
      command);
}

void Dispatcher::on_binary(const std::shared_ptr<Connection>&, Reply reply) {
  metrics_.message("invalid");
  metrics_.error("bad_request");
  reply.send(protocol::dump(
      protocol::error_reply(nullptr, ErrorCode::bad_request, "binary frames are not supported")));
}

void Dispatcher::on_close(const std::shared_ptr<Connection>& conn) {
  if (rooms_) rooms_->on_disconnect(conn);
}

}  // namespace tilecrush::server
