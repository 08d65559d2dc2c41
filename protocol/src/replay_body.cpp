#include "tilecrush/protocol/replay_body.hpp"

#include "tilecrush/game/hash.hpp"
#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/http_bodies.hpp"

namespace tilecrush::protocol {

namespace {

nlohmann::json step_json(const game::Game& game, nlohmann::json move, const game::EventList& events,
                         std::optional<std::int64_t> t_ms) {
  return {{"move", std::move(move)},
          {"events", events_to_json(events)},
          {"score", game.score()},
          {"move_count", game.move_count()},
          {"over", game.over()},
          {"state_hash", game::hash_hex(game.state_hash())},
          {"t_ms", t_ms ? nlohmann::json(*t_ms) : nlohmann::json(nullptr)}};
}

}  // namespace

std::optional<nlohmann::json> replay_body(const ReplayInput& input) {
  game::CreateResult created = game::create_game(input.setup);
  if (!created.game) return std::nullopt;
  game::Game& game = *created.game;
  nlohmann::json start = game_view(game, input.meta);
  nlohmann::json steps = nlohmann::json::array();
  bool valid = true;
  // The pace is known only with one offset per move (older games have none).
  const bool paced = input.move_times.size() == input.moves.size();
  std::optional<std::int64_t> t_ms;
  if (paced) t_ms = 0;
  for (std::size_t i = 0; i < input.moves.size(); ++i) {
    const game::Move& move = input.moves[i];
    if (paced) t_ms = input.move_times[i];
    game::EventList events;
    if (!game.apply(move, events).ok()) {
      valid = false;
      break;
    }
    steps.push_back(step_json(game, move_json(move), events, t_ms));
  }
  if (valid && !game.over() &&
      (input.over_reason == game::OverReason::resigned ||
       input.over_reason == game::OverReason::closed)) {
    game::EventList events;
    const game::Outcome ended =
        input.over_reason == game::OverReason::resigned ? game.resign(events) : game.close(events);
    if (ended.ok()) steps.push_back(step_json(game, nullptr, events, t_ms));
  }
  valid = valid && game.over() && game.score() == input.score;
  return nlohmann::json{{"game_id", input.meta.game_id},
                        {"player", input.player},
                        {"start", std::move(start)},
                        {"steps", std::move(steps)},
                        {"valid", valid}};
}

}  // namespace tilecrush::protocol
