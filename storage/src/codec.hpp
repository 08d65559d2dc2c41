// How engine enums are spelled in the database, and back.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/game_records.hpp"
#include "tilecrush/storage/write_results.hpp"

namespace tilecrush::storage::detail {

// The parse functions throw StorageError on text this build never writes
// (a corrupt or foreign file).
std::string_view mode_text(game::Mode mode);
game::Mode parse_mode_text(std::string_view text);

// A game's move list is stored as text, kMoveChars characters a move: the
// kind ('c' click, 'w' swap, 'p' peek, 's' select, 'u' unselect), then ax,
// ay, bx, by, each as the character '0' + value, with '.' for the absent
// second point of a one-point move. Fixed width keeps appending a move and
// taking the last one back single SQL expressions (|| and substr), and
// plain characters keep the column readable and its length exact.
inline constexpr int kMoveChars = 5;
// Throws StorageError for a coordinate outside 0..63 (never a legal move).
std::string encode_move(const game::Move& move);
// Throws StorageError for text encode_move never writes.
std::vector<game::Move> decode_moves(std::string_view text);

// Each move's time offset from the game's start (created_at), in ms, is
// stored beside the move list as text, kMoveTimeChars characters a move:
// the offset in base 64, most significant digit first, each digit the
// character '0' + value. Fixed width, for the same reasons as the moves;
// six digits reach 64^6 - 1 ms (about 795 days), and a later offset is
// stored as that maximum. A NULL column is a game stored before offsets
// existed (its moves have none).
inline constexpr int kMoveTimeChars = 6;
inline constexpr std::int64_t kMaxMoveTime = (std::int64_t{1} << (6 * kMoveTimeChars)) - 1;
// Clamps to 0..kMaxMoveTime.
std::string encode_move_time(std::int64_t offset_ms);
// Throws StorageError for text encode_move_time never writes.
std::vector<std::int64_t> decode_move_times(std::string_view text);

std::string_view over_reason_text(game::OverReason reason);
game::OverReason parse_over_reason(std::string_view text);

std::string_view game_state_text(GameState state);
GameState parse_game_state(std::string_view text);

WriteResult write_ok(std::int64_t id = 0);
WriteResult write_error(WriteStatus status, std::string message);

}  // namespace tilecrush::storage::detail
