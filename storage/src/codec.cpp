#include "codec.hpp"

#include <array>
#include <string>
#include <utility>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

template <class Enum, std::size_t N>
Enum parse_by_name(const std::array<Enum, N>& values, std::string_view text,
                   std::string_view (*name)(Enum), const char* what) {
  for (const Enum value : values) {
    if (name(value) == text) return value;
  }
  throw StorageError(std::string("unknown ") + what + " in database: " + std::string(text));
}

constexpr std::array kModes = {game::Mode::same, game::Mode::match3, game::Mode::hidden};
constexpr std::array kKinds = {game::MoveKind::click, game::MoveKind::swap, game::MoveKind::peek,
                               game::MoveKind::select, game::MoveKind::unselect};
constexpr std::array kReasons = {game::OverReason::none, game::OverReason::no_moves,
                                 game::OverReason::cleared, game::OverReason::out_of_moves,
                                 game::OverReason::resigned};
constexpr std::array kStates = {GameState::playing, GameState::over};

}  // namespace

std::string_view mode_text(game::Mode mode) { return game::to_string(mode); }

game::Mode parse_mode_text(std::string_view text) {
  return parse_by_name(kModes, text, &mode_text, "mode");
}

std::string_view move_kind_text(game::MoveKind kind) { return game::to_string(kind); }

game::MoveKind parse_move_kind(std::string_view text) {
  return parse_by_name(kKinds, text, &move_kind_text, "move kind");
}

std::string_view over_reason_text(game::OverReason reason) { return game::to_string(reason); }

game::OverReason parse_over_reason(std::string_view text) {
  return parse_by_name(kReasons, text, &over_reason_text, "over reason");
}

std::string_view game_state_text(GameState state) {
  return state == GameState::over ? "over" : "playing";
}

GameState parse_game_state(std::string_view text) {
  return parse_by_name(kStates, text, &game_state_text, "game state");
}

WriteResult write_ok(std::int64_t id) { return WriteResult{WriteStatus::ok, id, {}}; }

WriteResult write_error(WriteStatus status, std::string message) {
  return WriteResult{status, 0, std::move(message)};
}

}  // namespace tilecrush::storage::detail

std::string_view tilecrush::storage::to_string(WriteStatus status) {
  switch (status) {
    case WriteStatus::ok: return "ok";
    case WriteStatus::name_taken: return "name_taken";
    case WriteStatus::not_found: return "not_found";
    case WriteStatus::conflict: return "conflict";
    case WriteStatus::invalid: return "invalid";
    case WriteStatus::closed: return "closed";
    case WriteStatus::failed: return "failed";
  }
  return "failed";
}
