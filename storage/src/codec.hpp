// How engine enums are spelled in the database, and back.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/records.hpp"

namespace tilecrush::storage::detail {

// The parse functions throw StorageError on text this build never writes
// (a corrupt or foreign file).
std::string_view mode_text(game::Mode mode);
game::Mode parse_mode_text(std::string_view text);

std::string_view move_kind_text(game::MoveKind kind);
game::MoveKind parse_move_kind(std::string_view text);

std::string_view over_reason_text(game::OverReason reason);
game::OverReason parse_over_reason(std::string_view text);

std::string_view game_state_text(GameState state);
GameState parse_game_state(std::string_view text);

WriteResult write_ok(std::int64_t id = 0);
WriteResult write_error(WriteStatus status, std::string message);

}  // namespace tilecrush::storage::detail
