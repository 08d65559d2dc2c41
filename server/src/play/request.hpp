// One client message while it is handled, and the answer it is owed.
//
// A Request lives as long as some handler still holds it (RequestPtr): while
// its game is looked up, loaded, locked and changed. When the last holder
// lets go, its destructor tells the connection to read its next message, so
// no path, early return or exception can forget to (RAII). Work that only
// waits for storage (a move waiting for its commit) does not keep the
// Request: it takes the Answer out with defer(), and the connection reads on
// while the answer waits, answers still leaving in request order.
//
// Thread safety: a Request is used by one thread at a time (handlers pass it
// along); answer(), fail() and the Answer may be used from any thread.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "net/connection.hpp"
#include "ops/metrics.hpp"
#include "tilecrush/protocol/errors.hpp"

namespace tilecrush::server {

// The answer slot of one request, with what an answer needs: the request's
// id (echoed, also by errors) and its arrival time (the latency metric).
class Answer {
 public:
  Answer(Reply reply, nlohmann::json id, Metrics& metrics)
      : reply_(std::move(reply)),
        id_(std::move(id)),
        metrics_(&metrics),
        start_(std::chrono::steady_clock::now()) {}

  const nlohmann::json& id() const { return id_; }
  // Each sends the answer; a later call sends nothing.
  void send(const nlohmann::json& message);
  void send_text(std::string text);
  void fail(protocol::ErrorCode code, std::string_view message);
  // `moved`: the room is served by node `node`.
  void moved(std::string_view room, std::string_view node);

 private:
  Reply reply_;
  nlohmann::json id_;
  Metrics* metrics_;
  std::chrono::steady_clock::time_point start_;
};

class Request {
 public:
  Request(std::shared_ptr<Connection> conn, nlohmann::json id, Reply reply, Metrics& metrics)
      : conn_(std::move(conn)),
        answer_(std::make_shared<Answer>(std::move(reply), std::move(id), metrics)) {}
  // The connection reads its next message.
  ~Request();
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  const std::shared_ptr<Connection>& conn() const { return conn_; }
  ConnectionState& state() const { return conn_->state(); }
  const nlohmann::json& id() const { return answer_->id(); }

  void answer(const nlohmann::json& message) { answer_->send(message); }
  void answer_text(std::string text) { answer_->send_text(std::move(text)); }
  void fail(protocol::ErrorCode code, std::string_view message) { answer_->fail(code, message); }
  void moved(std::string_view room, std::string_view node) { answer_->moved(room, node); }
  // The answer, for whoever sends it after this request is done.
  std::shared_ptr<Answer> defer() const { return answer_; }

 private:
  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Answer> answer_;
};

using RequestPtr = std::shared_ptr<Request>;

}  // namespace tilecrush::server
