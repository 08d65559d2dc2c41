// Recovery codes: a name survives its browser (docs/protocol.md, "Recovery
// codes"). The GameService's part of them: `recovery_code` and `hello`
// with `recovery`.
#include "play/game_service.hpp"
#include "play/ids.hpp"
#include "play/recovery_code.hpp"
#include "tilecrush/protocol/views.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::server {

using protocol::ErrorCode;

bool GameService::owns_name(const storage::PlayerRecord& player, std::string_view token) {
  const std::string presented = storage::hash_token(token);
  if (storage::same_hash(presented, player.token_hash)) return true;
  // Every device token is compared, a match or not: the time taken does not
  // say which one matched.
  bool owned = false;
  for (const std::string& device : db_.device_token_hashes(player.id)) {
    owned = storage::same_hash(presented, device) || owned;
  }
  return owned;
}

void GameService::recover(const protocol::Hello& cmd, WelcomeFn welcome, RefuseFn refuse) {
  const std::string token = random_token();
  storage::RecoveryAttempt attempt;
  attempt.name = cmd.name;
  // A spelling that cannot be a code is a wrong code all the same (counted):
  // an empty hash matches nothing.
  if (const auto canonical = canonical_recovery_code(*cmd.recovery)) {
    attempt.code_hash = storage::hash_token(*canonical);
  }
  attempt.device_token_hash = storage::hash_token(token);
  attempt.at = now_();
  attempt.window_ms = std::chrono::milliseconds(kRecoveryWindow).count();
  attempt.max_failures = kRecoveryMaxFailures;
  attempt.max_device_tokens = kMaxDeviceTokens;
  // The outcome is committed before anyone hears of it: a failure counted,
  // or the device token stored (the welcome is durable, like a new name's).
  db_.recover_player(
      std::move(attempt), [this, welcome = std::move(welcome), refuse = std::move(refuse),
                           token](const storage::RecoveryResult& r) {
        switch (r.outcome) {
          case storage::RecoveryOutcome::recovered:
            // The running attempts are read on the storage pool, not on the
            // writer thread that runs this callback. The recovery is
            // committed (a device token stored): it is never refused now,
            // or a retry would store another token for nothing; a list that
            // cannot be read is sent empty (the client may ask `running`).
            return net::post(*db_pool_, [this, welcome, id = r.player_id, name = r.name, token]() {
              nlohmann::json running = nlohmann::json::array();
              try {
                running = running_list(id);
              } catch (const std::exception&) {
                running = nlohmann::json::array();
              }
              welcome(id, name, token, std::move(running));
            });
          case storage::RecoveryOutcome::wrong_code:
            return refuse(ErrorCode::unauthorized, "wrong recovery code for this name");
          case storage::RecoveryOutcome::locked:
            return refuse(ErrorCode::rate_limited,
                          "too many wrong recovery codes for this name; try again later");
          case storage::RecoveryOutcome::failed:
            break;
        }
        refuse(ErrorCode::internal, "could not check the recovery code");
      });
}

void GameService::handle(const RequestPtr& req, const protocol::RecoveryCode&) {
  const std::int64_t player = *req->state().player_id;
  auto code = new_recovery_code();
  if (!code) return req->fail(ErrorCode::internal, "no random source for a recovery code");
  const std::string hash = storage::hash_token(*canonical_recovery_code(*code));
  // Answered once the hash is committed: the code shown is the one that works.
  db_.set_recovery_code(
      player, hash,
      [answer = req->defer(), code = std::move(*code)](const storage::WriteResult& r) {
        if (r.ok()) return answer->send(protocol::recovery_code_reply(answer->id(), code));
        answer->fail(ErrorCode::internal, "could not save the recovery code");
      });
}

}  // namespace tilecrush::server
