// The set of live WebSocket sessions, for shutdown and for broadcasting.
//
// Thread safety: all methods are thread-safe (one mutex, never held during I/O).
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tilecrush::server {

class WebsocketSession;

class SessionRegistry {
 public:
  void add(const std::shared_ptr<WebsocketSession>& session);
  void remove(const WebsocketSession* session);
  std::vector<std::shared_ptr<WebsocketSession>> snapshot() const;
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const WebsocketSession*, std::weak_ptr<WebsocketSession>> sessions_;
};

}  // namespace tilecrush::server
