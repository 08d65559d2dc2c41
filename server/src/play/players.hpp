// Players: hello (a new name, a known name with its token, another device
// with a recovery code), the running attempts a player is shown, and new
// recovery codes (docs/protocol.md, "Recovery codes").
//
// Thread safety: thread-safe. handle() runs on the calling connection's
// thread; the storage reads run on the pool it is given, and the
// connection's state is written on the connection's own thread.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "net/net.hpp"
#include "play/request.hpp"
#include "tilecrush/protocol/commands.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class Players {
 public:
  using NowFn = std::function<std::int64_t()>;

  Players(storage::Database& db, net::thread_pool& pool, NowFn now);

  void handle(const RequestPtr& req, const protocol::Hello& cmd);
  void handle(const RequestPtr& req, const protocol::Running& cmd);
  // A new recovery code for the signed-in player.
  void handle(const RequestPtr& req, const protocol::RecoveryCode& cmd);

  // What `welcome.running` and the `running` answer list (protocol.md,
  // "Running attempts"): at most this many attempts, found among the
  // player's this many latest games.
  static constexpr std::int64_t kRunningListed = 20;
  static constexpr std::int64_t kRunningScanned = 1000;

 private:
  // id, name, token, and the player's running attempts (welcome.running).
  using WelcomeFn = std::function<void(std::int64_t, std::string, std::string, nlohmann::json)>;
  using RefuseFn = std::function<void(protocol::ErrorCode, std::string)>;
  // hello with `recovery`, on the storage pool: checks the code and stores
  // a new device token, then calls `welcome` with the player and that
  // token, or `refuse`.
  void recover(const protocol::Hello& cmd, WelcomeFn welcome, RefuseFn refuse);
  // Whether `token` is one of the player's (its first token or a device
  // token). Reads storage: call it on the pool. Throws on storage faults.
  bool owns_name(const storage::PlayerRecord& player, std::string_view token);
  // The player's running attempts as the protocol lists them (a storage
  // read: call it on the pool). Throws StorageError.
  nlohmann::json running_list(std::int64_t player_id);

  storage::Database& db_;
  net::thread_pool& pool_;
  NowFn now_;
};

}  // namespace tilecrush::server
