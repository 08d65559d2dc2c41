// Server -> client messages other than events and rooms: GameView and the
// direct replies of protocol.md.
//
// Every direct reply carries `id`: the request's id, or null when it had
// none (ParseResult::id already is null then). Pushed messages have no `id`.
//
// Thread safety: free functions; the Game passed in must not be modified
// concurrently.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/errors.hpp"

namespace tilecrush::protocol {

// What a GameView needs beyond the Game itself.
struct GameViewMeta {
  std::string game_id;
  std::int64_t elapsed_ms = 0;  // hidden mode: time since the first move (0 before it)
  // Whether the game feeds its board's leaderboard: a preset game without
  // practice options, except past a competition's counted attempts.
  bool ranked = false;
  std::optional<std::string> competition{};  // the competition whose board it is on
  std::int64_t attempt = 0;                  // its counted attempt there (0: none)
  std::optional<std::string> commitment{};   // SHA-256 of the board's key, hex
};

// GameView of docs/protocol.md: game_id, mode, preset (null for custom),
// seed, ranked, width, height, colors, board (rows top first, from
// Game::visible_board(), so -1 for every cell the player may not see),
// score, move_count, moves_left (or null), over, rules_version (the setup's),
// state_hash, competition (or null), attempt (or null), commitment (or
// null); hidden mode adds peeks, selected ([[x, y], ...]) and elapsed_ms.
nlohmann::json game_view(const game::Game& game, const GameViewMeta& meta);

// The board of a GameView's `board` rows (rows of cells, top row first), for
// JSON a server produced: tests and tools that keep their own copy of a
// game. Throws nlohmann::json::exception on rows of another shape; a
// client's board is read by parse_client_message, which refuses instead.
game::Board board_from_rows(const nlohmann::json& rows);

// {type: "welcome", id, player: {id, name}, token}
nlohmann::json welcome(const nlohmann::json& id, const nlohmann::json& player_id,
                       std::string_view name, std::string_view token);
// One running competition attempt, as `welcome.running` and the `running`
// answer list them: {game_id, competition, mode, preset, attempt, ranked,
// score, move_count, started_at, closes_at} (times: ISO 8601 UTC with
// milliseconds, formatted by the caller). Its members are written under
// their own names: a member's name is its JSON field's (renaming one
// changes the wire format).
struct RunningView {
  std::string game_id;
  std::string competition;
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::int64_t attempt = 1;
  bool ranked = false;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  std::string started_at;
  std::string closes_at;
};
// The array of RunningView objects, in the given order.
nlohmann::json running_list(const std::vector<RunningView>& games);
// {type: "running", id, running: [...]}
nlohmann::json running_reply(const nlohmann::json& id, nlohmann::json list);
// {type: "game", id, game: view}
nlohmann::json game_reply(const nlohmann::json& id, nlohmann::json view);
// {type: "preview", id, game_id, cells: [[x, y], ...], points}
nlohmann::json preview_reply(const nlohmann::json& id, std::string_view game_id,
                             const game::Preview& preview);
// {type: "hint", id, game_id, click: [x, y]} or {..., swap: [[x, y], [x, y]]}
nlohmann::json hint_reply(const nlohmann::json& id, std::string_view game_id,
                          const game::Hint& hint);
// {type: "pong", id}
nlohmann::json pong(const nlohmann::json& id);
// {type: "recovery_code", id, code}
nlohmann::json recovery_code_reply(const nlohmann::json& id, std::string_view code);
// {type: "error", id, code, message}; id is null when the request had none
// or it could not be read.
nlohmann::json error_reply(const nlohmann::json& id, ErrorCode code, std::string_view message);
nlohmann::json error_reply(const nlohmann::json& id, const Error& error);
// `moved`: the room `code` is served by node `node`; reconnect to
// /ws?room=<code>&node=<node> and send the request again.
nlohmann::json moved_reply(const nlohmann::json& id, std::string_view code, std::string_view node);

// Compact text of a message. Never throws: a string that is not valid UTF-8
// (only possible through a server bug) has its bad bytes replaced by U+FFFD.
std::string dump(const nlohmann::json& message);

}  // namespace tilecrush::protocol
