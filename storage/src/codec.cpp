#include "codec.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

// A name no table of this build holds: a corrupt or foreign file.
template <class Enum>
Enum known_or_throw(std::optional<Enum> value, const char* what, std::string_view text) {
  if (value) return *value;
  throw StorageError(std::string("unknown ") + what + " in database: " + std::string(text));
}

constexpr std::array kKinds = {game::MoveKind::click, game::MoveKind::swap, game::MoveKind::peek,
                               game::MoveKind::select, game::MoveKind::unselect};
// Indexed like kKinds.
constexpr std::string_view kKindChars = "cwpsu";
constexpr int kMaxCoordinate = 63;

char coordinate_char(int value) {
  if (value < 0 || value > kMaxCoordinate) {
    throw StorageError("move coordinate out of range: " + std::to_string(value));
  }
  return static_cast<char>('0' + value);
}

int coordinate_value(char c) {
  const int value = c - '0';
  if (value < 0 || value > kMaxCoordinate) {
    throw StorageError(std::string("bad move coordinate in database: ") + c);
  }
  return value;
}

constexpr game::EnumNames kGameStateNames(GameState::over, {"playing", "over"});
constexpr game::EnumNames kWriteStatusNames(WriteStatus::failed,
                                            {"ok", "name_taken", "not_found", "conflict", "invalid",
                                             "closed", "failed"});

}  // namespace

std::string_view mode_text(game::Mode mode) {
  return game::to_string(mode);
}

game::Mode parse_mode_text(std::string_view text) {
  return known_or_throw(game::parse_mode(text), "mode", text);
}

std::string encode_move(const game::Move& move) {
  std::string text(kMoveChars, '.');
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    if (kKinds[i] == move.kind) text[0] = kKindChars[i];
  }
  text[1] = coordinate_char(move.a.x);
  text[2] = coordinate_char(move.a.y);
  if (move.kind == game::MoveKind::swap) {
    text[3] = coordinate_char(move.b.x);
    text[4] = coordinate_char(move.b.y);
  }
  return text;
}

std::vector<game::Move> decode_moves(std::string_view text) {
  if (text.size() % kMoveChars != 0) throw StorageError("move list of a wrong length in database");
  std::vector<game::Move> moves;
  moves.reserve(text.size() / kMoveChars);
  for (std::size_t at = 0; at < text.size(); at += kMoveChars) {
    const std::string_view m = text.substr(at, kMoveChars);
    const auto kind = kKindChars.find(m[0]);
    if (kind == std::string_view::npos) {
      throw StorageError(std::string("unknown move kind in database: ") + m[0]);
    }
    game::Move move;
    move.kind = kKinds[kind];
    move.a = {coordinate_value(m[1]), coordinate_value(m[2])};
    if (move.kind == game::MoveKind::swap) {
      move.b = {coordinate_value(m[3]), coordinate_value(m[4])};
    } else if (m[3] != '.' || m[4] != '.') {
      throw StorageError("one-point move with a second point in database");
    }
    moves.push_back(move);
  }
  return moves;
}

std::string encode_move_time(std::int64_t offset_ms) {
  std::int64_t value = std::clamp<std::int64_t>(offset_ms, 0, kMaxMoveTime);
  std::string text(kMoveTimeChars, '0');
  for (int i = kMoveTimeChars - 1; i >= 0; --i) {
    text[static_cast<std::size_t>(i)] = static_cast<char>('0' + (value & 63));
    value >>= 6;
  }
  return text;
}

std::vector<std::int64_t> decode_move_times(std::string_view text) {
  if (text.size() % kMoveTimeChars != 0) {
    throw StorageError("move times of a wrong length in database");
  }
  std::vector<std::int64_t> times;
  times.reserve(text.size() / kMoveTimeChars);
  for (std::size_t at = 0; at < text.size(); at += kMoveTimeChars) {
    std::int64_t value = 0;
    for (std::size_t i = at; i < at + kMoveTimeChars; ++i) {
      const int digit = text[i] - '0';
      if (digit < 0 || digit > 63) {
        throw StorageError(std::string("bad move time in database: ") + text[i]);
      }
      value = value * 64 + digit;
    }
    times.push_back(value);
  }
  return times;
}

std::string_view over_reason_text(game::OverReason reason) {
  return game::to_string(reason);
}

game::OverReason parse_over_reason(std::string_view text) {
  return known_or_throw(game::parse_over_reason(text), "over reason", text);
}

std::string_view game_state_text(GameState state) {
  return game::name_of(kGameStateNames, state, "playing");
}

GameState parse_game_state(std::string_view text) {
  return known_or_throw(game::value_named(kGameStateNames, text), "game state", text);
}

WriteResult write_ok(std::int64_t id) {
  return WriteResult{WriteStatus::ok, id, {}};
}

WriteResult write_error(WriteStatus status, std::string message) {
  return WriteResult{status, 0, std::move(message)};
}

}  // namespace tilecrush::storage::detail

std::string_view tilecrush::storage::to_string(WriteStatus status) {
  return game::name_of(detail::kWriteStatusNames, status, "failed");
}
