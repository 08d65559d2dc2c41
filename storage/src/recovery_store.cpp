#include "codec.hpp"
#include "stores.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kSetRecoveryHash = R"sql(
UPDATE players SET recovery_hash = ?2 WHERE id = ?1
)sql";

constexpr std::string_view kSelectRecovery = R"sql(
SELECT id, name, recovery_hash FROM players
)sql";
constexpr std::string_view kSelectForRecovery = kJoined<kSelectRecovery, kWhereNameIsSqlite>;
constexpr std::string_view kSelectForRecoveryPg = kJoined<kSelectRecovery, kWhereNameIsPg>;

constexpr std::string_view kForgetOldFailures = R"sql(
DELETE FROM recovery_failures WHERE player_id = ?1 AND at <= ?2
)sql";
constexpr std::string_view kCountFailures = R"sql(
SELECT count(*) FROM recovery_failures WHERE player_id = ?1
)sql";
constexpr std::string_view kRecordFailure = R"sql(
INSERT INTO recovery_failures (player_id, at) VALUES (?1, ?2)
)sql";
constexpr std::string_view kForgetFailures = R"sql(
DELETE FROM recovery_failures WHERE player_id = ?1
)sql";

constexpr std::string_view kInsertDeviceToken = R"sql(
INSERT INTO device_tokens (player_id, token_hash, created_at) VALUES (?1, ?2, ?3)
)sql";
// Keeps the newest ?2 device tokens of the player: the one just added is
// the newest (ids only grow), so it always stays.
constexpr std::string_view kDropOldDeviceTokens = R"sql(
DELETE FROM device_tokens WHERE player_id = ?1 AND id NOT IN
  (SELECT id FROM device_tokens WHERE player_id = ?1 ORDER BY id DESC LIMIT ?2)
)sql";
constexpr std::string_view kSelectDeviceTokens = R"sql(
SELECT token_hash FROM device_tokens WHERE player_id = ?1 ORDER BY id
)sql";
constexpr std::string_view kHasRecovery = R"sql(
SELECT count(*) FROM players WHERE id = ?1 AND recovery_hash IS NOT NULL
)sql";

}  // namespace

WriteResult update_recovery_hash(Connection& c, PlayerId player, const std::string& code_hash) {
  c.run(kSetRecoveryHash, player, code_hash);
  if (c.changes() == 0) return write_error(WriteStatus::not_found, "no such player");
  return write_ok(player);
}

RecoveryResult try_recovery(Connection& c, const RecoveryAttempt& attempt) {
  // Failures are counted, then compared with the limit: tries of one name
  // on several nodes count one after the other.
  c.lock_keys({recovery_lock(attempt.name)});
  RecoveryResult out;
  std::optional<std::string> stored;
  {
    auto q = c.query(c.postgres() ? kSelectForRecoveryPg : kSelectForRecovery);
    q->bind(1, attempt.name);
    if (!q->step()) {
      out.outcome = RecoveryOutcome::wrong_code;
      return out;
    }
    out.player_id = q->get_int(0);
    out.name = q->get_text(1);
    if (!q->is_null(2)) stored = q->get_text(2);
  }
  c.run(kForgetOldFailures, out.player_id, attempt.at - attempt.window_ms);
  const std::int64_t failures = c.first_row(kCountFailures, read_int, out.player_id).value_or(0);
  if (failures >= attempt.max_failures) {
    out.outcome = RecoveryOutcome::locked;
    return out;
  }
  // The hash is compared even when no code is set, so that "no code" and
  // "another code" take the same path.
  const bool right = stored && same_hash(*stored, attempt.code_hash);
  if (!right) {
    c.run(kRecordFailure, out.player_id, attempt.at);
    out.outcome = RecoveryOutcome::wrong_code;
    return out;
  }
  c.run(kForgetFailures, out.player_id);
  c.run(kInsertDeviceToken, out.player_id, attempt.device_token_hash, attempt.at);
  c.run(kDropOldDeviceTokens, out.player_id, attempt.max_device_tokens);
  out.outcome = RecoveryOutcome::recovered;
  return out;
}

std::vector<std::string> select_device_tokens(Connection& c, PlayerId player) {
  return c.rows(kSelectDeviceTokens, read_text, player);
}

bool select_has_recovery(Connection& c, PlayerId player) {
  return c.first_row(kHasRecovery, read_int, player).value_or(0) > 0;
}

}  // namespace tilecrush::storage::detail
