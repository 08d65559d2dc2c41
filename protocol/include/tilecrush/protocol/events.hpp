// Engine events -> protocol.md's event objects and the messages that carry
// them (`events` replies, `room_events` pushes).
//
// Each message has two forms: a nlohmann::json builder, and a *_text()
// function that writes the same message straight into a string without
// building a JSON tree (the per-move hot path). For equal inputs the text is
// byte-for-byte what dump(builder(...)) gives: keys in ascending order, no
// spaces. The *_text() writers are deliberate speed twins of their builders,
// which are the slow path they must equal: Events.TextEqualsBuilderByteForByte
// and Events.TextOfARealMove (tests/protocol/events_test.cpp) and the fuzz
// target `fuzz_engine` (after every accepted request) hold them equal.
//
// Thread safety: free functions; the Game passed in must not be modified
// concurrently (call them on the game's strand).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "tilecrush/game/events.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::protocol {

// One event: {"kind": ..., fields of protocol.md}. `remove` carries `wave`
// only when it is > 0 (match-3); `spawn` always does. With
// hide_peek_colour, a `peek` event's `color` is -1, the board's value for a
// cell the viewer may not see (spectators of hidden games).
nlohmann::json event_to_json(const game::Event& event, bool hide_peek_colour = false);
nlohmann::json events_to_json(const game::EventList& events, bool hide_peek_colour = false);

// {type: "events", id, game_id, move_count, score, over, state_hash, events}
// for the game after the events were applied. `id` is echoed (null when the
// request had none).
nlohmann::json events_reply(const nlohmann::json& id, std::string_view game_id,
                            const game::Game& game, const game::EventList& events);
std::string events_reply_text(const nlohmann::json& id, std::string_view game_id,
                              const game::Game& game, const game::EventList& events);

// Push to spectators: {type: "room_events", code, player, move_count,
// state_hash, events}; peek colours are always hidden.
nlohmann::json room_events(std::string_view code, std::string_view player, const game::Game& game,
                           const game::EventList& events);
std::string room_events_text(std::string_view code, std::string_view player, const game::Game& game,
                             const game::EventList& events);

}  // namespace tilecrush::protocol
