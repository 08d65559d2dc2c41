#include "game_service.hpp"

#include "ids.hpp"
#include "room_service.hpp"
#include "tilecrush/protocol/views.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;

// Compares two hashes without an early exit.
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

GameService::GameService(storage::Database& db, Metrics& metrics, NowFn now, BoardKeys& keys,
                         Competitions& competitions)
    : db_(db),
      metrics_(metrics),
      now_(std::move(now)),
      keys_(keys),
      competitions_(competitions),
      db_pool_(std::make_unique<net::thread_pool>(2)) {}

void GameService::post_to_pool(std::function<void()> work) {
  net::post(*db_pool_, std::move(work));
}

GameService::~GameService() {
  stop();
}

void GameService::stop() {
  if (db_pool_) db_pool_->join();
}

void GameService::answer(const RequestPtr& req, const nlohmann::json& message) {
  answer_text(req, protocol::dump(message));
}

void GameService::answer_text(const RequestPtr& req, std::string text) {
  const auto elapsed = std::chrono::steady_clock::now() - req->start;
  metrics_.observe_latency_us(static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()));
  req->reply.send(std::move(text));
}

void GameService::fail(const RequestPtr& req, ErrorCode code, std::string_view message) {
  metrics_.error(protocol::to_string(code));
  answer(req, protocol::error_reply(req->id, code, message));
}

void GameService::on_binary(const std::shared_ptr<Connection>&, Reply reply) {
  metrics_.message("invalid");
  metrics_.error("bad_request");
  reply.send(protocol::dump(
      protocol::error_reply(nullptr, ErrorCode::bad_request, "binary frames are not supported")));
}

void GameService::on_close(const std::shared_ptr<Connection>& conn) {
  if (rooms_) rooms_->on_disconnect(conn);
}

void GameService::on_message(const std::shared_ptr<Connection>& conn, std::string text,
                             bool rate_limited, Reply reply, std::function<void()> done) {
  auto req = std::make_shared<Request>(
      Request{conn, nullptr, std::move(reply), std::chrono::steady_clock::now(), std::move(done)});
  protocol::ParseResult parsed = protocol::parse_client_message(text);
  req->id = std::move(parsed.id);
  // Whatever happens below, the connection may read its next message once
  // the request has changed what it will change; handlers that wait for
  // storage reads call done themselves.
  auto finish_now = [&req]() { req->release(); };
  if (rate_limited) {
    metrics_.message("other");
    fail(req, ErrorCode::rate_limited, "too many messages; slow down");
    return finish_now();
  }
  if (!parsed.ok()) {
    metrics_.message("invalid");
    fail(req, parsed.error.code, parsed.error.message);
    return finish_now();
  }
  const protocol::Command& command = *parsed.command;
  metrics_.message(protocol::type_name(command));
  if (!std::holds_alternative<protocol::Hello>(command) && !conn->state().player_id) {
    fail(req, ErrorCode::unauthorized, "say hello first");
    return finish_now();
  }
  std::visit([this, &req](const auto& cmd) { handle(req, cmd); }, command);
}

void GameService::handle(const RequestPtr& req, const protocol::Ping&) {
  answer(req, protocol::pong(req->id));
  req->release();
}

void GameService::handle(const RequestPtr& req, const protocol::Hello& cmd) {
  if (req->conn->state().player_id) {
    fail(req, ErrorCode::not_allowed, "already said hello on this connection");
    return req->release();
  }
  net::post(*db_pool_, [this, req, cmd]() {
    auto welcome = [this, req](std::int64_t id, std::string name, std::string token) {
      net::post(req->conn->executor(), [this, req, id, name, token]() {
        req->conn->state().player_id = id;
        req->conn->state().player_name = name;
        answer(req, protocol::welcome(req->id, id, name, token));
        req->release();
      });
    };
    auto refuse = [this, req](ErrorCode code, std::string message) {
      fail(req, code, message);
      req->release();
    };
    std::optional<storage::PlayerRecord> player;
    try {
      player = db_.find_player_by_name(cmd.name);
    } catch (const std::exception&) {
      return refuse(ErrorCode::internal, "storage unavailable");
    }
    if (player) {
      if (!cmd.token) return refuse(ErrorCode::unauthorized, "name taken");
      if (!same_secret(storage::hash_token(*cmd.token), player->token_hash)) {
        return refuse(ErrorCode::unauthorized, "wrong token for this name");
      }
      return welcome(player->id, player->name, *cmd.token);
    }
    // A new name: a fresh secret, whatever token the client sent.
    std::string token = random_token();
    db_.create_player(cmd.name, storage::hash_token(token), now_(),
                      [welcome, refuse, name = cmd.name, token](const storage::WriteResult& r) {
                        if (r.ok()) return welcome(r.id, name, token);
                        if (r.status == storage::WriteStatus::name_taken) {
                          return refuse(ErrorCode::unauthorized, "name taken");
                        }
                        refuse(ErrorCode::internal, "could not save the player");
                      });
  });
}

void GameService::handle(const RequestPtr& req, const protocol::CreateRoom& cmd) {
  if (!rooms_) return fail(req, ErrorCode::not_allowed, "rooms are not available"), req->release();
  rooms_->create(req, cmd);
}

void GameService::handle(const RequestPtr& req, const protocol::JoinRoom& cmd) {
  if (!rooms_) return fail(req, ErrorCode::not_allowed, "rooms are not available"), req->release();
  rooms_->join(req, cmd);
}

void GameService::handle(const RequestPtr& req, const protocol::LeaveRoom& cmd) {
  if (!rooms_) return fail(req, ErrorCode::not_allowed, "rooms are not available"), req->release();
  rooms_->leave(req, cmd);
}

void GameService::handle(const RequestPtr& req, const protocol::StartRoom& cmd) {
  if (!rooms_) return fail(req, ErrorCode::not_allowed, "rooms are not available"), req->release();
  rooms_->start(req, cmd);
}

std::size_t GameService::evict_idle(std::chrono::milliseconds idle) {
  return games_.evict_idle(now_() - idle.count());
}

}  // namespace tilecrush::server
