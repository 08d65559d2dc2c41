#include "codec.hpp"
#include "row_columns.hpp"
#include "stores.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

constexpr std::string_view kInsertPlayer = R"sql(
INSERT INTO players (name, token_hash, created_at) VALUES (?1, ?2, ?3)
)sql";

constexpr std::string_view kCountPlayedGame = R"sql(
UPDATE players SET games_played = games_played + 1 WHERE id = ?1
)sql";

constexpr std::string_view kSelectPlayers = R"sql(
SELECT id, name, token_hash, created_at, games_played FROM players
)sql";
constexpr std::string_view kWhereIdIs = R"sql(
WHERE id = ?1
)sql";
constexpr std::string_view kSelectByName = kJoined<kSelectPlayers, kWhereNameIsSqlite>;
constexpr std::string_view kSelectByNamePg = kJoined<kSelectPlayers, kWhereNameIsPg>;
constexpr std::string_view kSelectById = kJoined<kSelectPlayers, kWhereIdIs>;

// Columns of kSelectByName(Pg) and kSelectById.
constexpr auto read_player =
    read_columns<&PlayerRecord::id, &PlayerRecord::name, &PlayerRecord::token_hash,
                 &PlayerRecord::created_at, &PlayerRecord::games_played>;

}  // namespace

WriteResult insert_account(Connection& c, std::string_view sql, const NewAccount& account) {
  if (account.name.empty()) return write_error(WriteStatus::invalid, "empty name");
  try {
    c.run(sql, account.name, account.token_hash, account.created_at);
  } catch (const StorageError& e) {
    if (is_unique_violation(e.sqlite_code())) {
      return write_error(WriteStatus::name_taken, "name taken: " + account.name);
    }
    throw;
  }
  return write_ok(c.last_insert_rowid());
}

WriteResult insert_player(Connection& c, const NewAccount& account) {
  return insert_account(c, kInsertPlayer, account);
}

void count_played_game(Connection& c, PlayerId player) {
  c.run_later(kCountPlayedGame, player);
}

std::optional<PlayerRecord> select_player_by_name(Connection& c, std::string_view name) {
  return c.first_row(c.postgres() ? kSelectByNamePg : kSelectByName, read_player, name);
}

std::optional<PlayerRecord> select_player_by_id(Connection& c, PlayerId id) {
  return c.first_row(kSelectById, read_player, id);
}

}  // namespace tilecrush::storage::detail
