#include "play/players.hpp"

#include "ops/clock.hpp"
#include "play/ids.hpp"
#include "play/recovery_code.hpp"
#include "tilecrush/protocol/views.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::server {

using protocol::ErrorCode;

Players::Players(storage::Database& db, net::thread_pool& pool, NowFn now)
    : db_(db), pool_(pool), now_(std::move(now)) {}

void Players::handle(const RequestPtr& req, const protocol::Hello& cmd) {
  if (req->state().player_id) {
    return req->fail(ErrorCode::not_allowed, "already said hello on this connection");
  }
  net::post(pool_, [this, req, cmd]() {
    // The connection's state is written on its own thread.
    auto welcome = [req](std::int64_t id, std::string name, std::string token,
                         nlohmann::json running) {
      net::post(req->conn()->executor(), [req, id, name, token, running = std::move(running)]() {
        req->state().player_id = id;
        req->state().player_name = name;
        nlohmann::json answer = protocol::welcome(req->id(), id, name, token);
        answer["running"] = running;
        req->answer(std::move(answer));
      });
    };
    auto refuse = [req](ErrorCode code, std::string message) { req->fail(code, message); };
    // A recovery code instead of a token: another device of a known name.
    if (cmd.recovery) return recover(cmd, welcome, refuse);
    std::optional<storage::PlayerRecord> player;
    try {
      player = db_.find_player_by_name(cmd.name);
    } catch (const std::exception&) {
      return refuse(ErrorCode::internal, "storage unavailable");
    }
    if (player) {
      if (!cmd.token) return refuse(ErrorCode::unauthorized, "name taken");
      bool owned = false;
      try {
        owned = owns_name(*player, *cmd.token);
      } catch (const std::exception&) {
        return refuse(ErrorCode::internal, "storage unavailable");
      }
      if (!owned) return refuse(ErrorCode::unauthorized, "wrong token for this name");
      nlohmann::json running;
      try {
        running = running_list(player->id);
      } catch (const std::exception&) {
        return refuse(ErrorCode::internal, "storage unavailable");
      }
      return welcome(player->id, player->name, *cmd.token, std::move(running));
    }
    // A new name: a fresh secret, whatever token the client sent.
    std::string token = random_token();
    db_.create_player({cmd.name, storage::hash_token(token), now_()},
                      [welcome, refuse, name = cmd.name, token](const storage::WriteResult& r) {
                        // A new player has no game yet.
                        if (r.ok()) return welcome(r.id, name, token, nlohmann::json::array());
                        if (r.status == storage::WriteStatus::name_taken) {
                          return refuse(ErrorCode::unauthorized, "name taken");
                        }
                        refuse(ErrorCode::internal, "could not save the player");
                      });
  });
}

nlohmann::json Players::running_list(std::int64_t player_id) {
  const std::vector<storage::RunningAttempt> found =
      db_.running_attempts(player_id, now_(), kRunningListed, kRunningScanned);
  std::vector<protocol::RunningView> views;
  views.reserve(found.size());
  for (const storage::RunningAttempt& a : found) {
    views.push_back({a.game_id, a.competition, a.mode, a.preset, a.attempt, a.ranked, a.score,
                     a.move_count, iso_time(a.created_at), iso_time(a.closes_at)});
  }
  return protocol::running_list(views);
}

void Players::handle(const RequestPtr& req, const protocol::Running&) {
  const std::int64_t player_id = *req->state().player_id;
  net::post(pool_, [this, req, player_id]() {
    nlohmann::json list;
    try {
      list = running_list(player_id);
    } catch (const std::exception&) {
      return req->fail(ErrorCode::internal, "storage unavailable");
    }
    req->answer(protocol::running_reply(req->id(), std::move(list)));
  });
}

// Recovery codes: a name survives its browser (docs/protocol.md, "Recovery
// codes"): `recovery_code`, and `hello` with `recovery`.

bool Players::owns_name(const storage::PlayerRecord& player, std::string_view token) {
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

void Players::recover(const protocol::Hello& cmd, WelcomeFn welcome, RefuseFn refuse) {
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
            return net::post(pool_, [this, welcome, id = r.player_id, name = r.name, token]() {
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

void Players::handle(const RequestPtr& req, const protocol::RecoveryCode&) {
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
