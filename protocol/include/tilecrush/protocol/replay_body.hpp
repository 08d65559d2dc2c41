// The body of GET /api/games/{game_id}/replay (protocol.md, "Replays"): a
// finished game played again from its start, move by move, with the very
// events live play sent, so that a client animates a replay with the code
// that animates a game.
//
// Thread safety: free functions over values.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::protocol {

struct ReplayInput {
  std::string player{};  // name
  game::GameSetup setup{};
  std::vector<game::Move> moves{};
  // Each move's offset from the game's start in ms, parallel to `moves`;
  // empty when unknown (a game stored before offsets existed).
  std::vector<std::int64_t> move_times{};
  // How the stored game ended: resigned and closed add a last step.
  game::OverReason over_reason = game::OverReason::none;
  std::int64_t score = 0;  // the stored final score
  GameViewMeta meta{};     // for the start view (game_id, ranked, competition, ...)
};

// {game_id, player, start: GameView (the board as its player first saw it:
// hidden cells -1), steps: [{move: ["click", x, y] | ... | null, events,
// score, move_count, over, state_hash, t_ms}], valid}. A resigned game, or
// one ended by its competition's close, ends with a step whose move is null
// and whose only event is its game_over. t_ms: the move's offset from the
// game's start (the null-move step: its last move's, 0 without moves); null
// on every step when move_times does not hold one per move. `valid`: every move was accepted and
// the replay ends at the stored score. nullopt when the setup cannot be
// dealt; a refused move ends the steps there (valid false).
std::optional<nlohmann::json> replay_body(const ReplayInput& input);

}  // namespace tilecrush::protocol
