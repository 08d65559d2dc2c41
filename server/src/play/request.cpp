#include "play/request.hpp"

#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {

void Answer::send(const nlohmann::json& message) {
  send_text(protocol::dump(message));
}

void Answer::send_text(std::string text) {
  const auto elapsed = std::chrono::steady_clock::now() - start_;
  metrics_->observe_latency_us(static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()));
  reply_.send(std::move(text));
}

void Answer::fail(protocol::ErrorCode code, std::string_view message) {
  metrics_->error(protocol::to_string(code));
  send(protocol::error_reply(id_, code, message));
}

void Answer::moved(std::string_view room, std::string_view node) {
  metrics_->error(protocol::to_string(protocol::ErrorCode::moved));
  send(protocol::moved_reply(id_, room, node));
}

Request::~Request() {
  conn_->read_next();
}

}  // namespace tilecrush::server
