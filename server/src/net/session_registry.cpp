#include "net/session_registry.hpp"

namespace tilecrush::server {

void SessionRegistry::add(const std::shared_ptr<WebsocketSession>& session) {
  std::lock_guard lock(mutex_);
  sessions_[session.get()] = session;
}

void SessionRegistry::remove(const WebsocketSession* session) {
  std::lock_guard lock(mutex_);
  sessions_.erase(session);
}

std::vector<std::shared_ptr<WebsocketSession>> SessionRegistry::snapshot() const {
  std::vector<std::shared_ptr<WebsocketSession>> out;
  std::lock_guard lock(mutex_);
  out.reserve(sessions_.size());
  for (const auto& [key, weak] : sessions_) {
    if (auto s = weak.lock()) out.push_back(std::move(s));
  }
  return out;
}

std::size_t SessionRegistry::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

}  // namespace tilecrush::server
