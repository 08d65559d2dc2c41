#include "move_fast_path.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "parse_game_setup.hpp"

namespace tilecrush::protocol::detail {
namespace {

// Coordinates of at most 9 digits always fit in 32 bits; longer ones (and
// so every refusal for range) go to the full parser.
constexpr std::size_t kMaxCoordinateDigits = 9;
// An integer id of at most 18 digits fits in the unsigned 64 bits the full
// parser reads it into.
constexpr std::size_t kMaxIdDigits = 18;

enum Key : unsigned { kType, kGameId, kX, kY, kA, kB, kId, kMoveCount, kKeyCount };

constexpr std::array<std::pair<std::string_view, Key>, kKeyCount> kKeys{{
    {"type", kType},
    {"game_id", kGameId},
    {"x", kX},
    {"y", kY},
    {"a", kA},
    {"b", kB},
    {"id", kId},
    {"move_count", kMoveCount},
}};

constexpr std::array<std::pair<std::string_view, game::MoveKind>, 5> kKinds{{
    {"click", game::MoveKind::click},
    {"swap", game::MoveKind::swap},
    {"peek", game::MoveKind::peek},
    {"select", game::MoveKind::select},
    {"unselect", game::MoveKind::unselect},
}};

// A cursor over the text; every read returns false on anything outside the
// plain form, and the caller then gives up.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool at_end() const { return p_ == end_; }
  bool next_is(char c) {
    skip_space();
    return p_ != end_ && *p_ == c;
  }
  bool take(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  // A string of printable ASCII with no escape: its bytes are its value.
  bool string(std::string_view& out) {
    skip_space();
    if (p_ == end_ || *p_ != '"') return false;
    const char* start = ++p_;
    while (p_ != end_ && *p_ != '"') {
      const auto c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c > 0x7e || c == '\\') return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }
  // An integer as JSON writes it (no leading zero, no fraction, no
  // exponent) of at most `max_digits` digits; `negative_ok` allows a sign.
  bool integer(std::int64_t& out, std::size_t max_digits, bool negative_ok) {
    skip_space();
    bool negative = false;
    if (p_ != end_ && *p_ == '-') {
      if (!negative_ok) return false;
      negative = true;
      ++p_;
    }
    const char* start = p_;
    std::int64_t value = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      // Give up before a digit too many is multiplied in: 19 digits can
      // overflow the 64 bits.
      if (static_cast<std::size_t>(p_ - start) == max_digits) return false;
      value = value * 10 + (*p_ - '0');
      ++p_;
    }
    const auto digits = static_cast<std::size_t>(p_ - start);
    if (digits == 0 || (digits > 1 && *start == '0')) return false;
    // A fraction or an exponent makes it another number.
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
    out = negative ? -value : value;
    return true;
  }
  bool point(game::Point& out) {
    std::int64_t x = 0;
    std::int64_t y = 0;
    if (!take('[') || !integer(x, kMaxCoordinateDigits, true) || !take(',') ||
        !integer(y, kMaxCoordinateDigits, true) || !take(']')) {
      return false;
    }
    out = {static_cast<int>(x), static_cast<int>(y)};
    return true;
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace

std::optional<ParseResult> parse_move_fast(std::string_view text) {
  Scanner in(text);
  if (!in.take('{')) return std::nullopt;
  unsigned seen = 0;
  std::optional<game::MoveKind> kind;
  std::string_view game_id;
  std::int64_t x = 0;
  std::int64_t y = 0;
  game::Point a;
  game::Point b;
  nlohmann::json id;
  std::optional<std::int64_t> move_count;
  for (bool first = true;; first = false) {
    if (!first && !in.take(',')) {
      if (!in.take('}')) return std::nullopt;
      break;
    }
    std::string_view name;
    if (!in.string(name) || !in.take(':')) return std::nullopt;
    std::optional<Key> key;
    for (const auto& [wire, k] : kKeys) {
      if (wire == name) key = k;
    }
    // An unknown key, or a key twice: the full parser knows what that means.
    if (!key || (seen & (1u << *key)) != 0) return std::nullopt;
    seen |= 1u << *key;
    bool read = false;
    switch (*key) {
      case kType: {
        std::string_view type;
        read = in.string(type);
        for (const auto& [wire, k] : kKinds) {
          if (wire == type) kind = k;
        }
        read = read && kind.has_value();
        break;
      }
      case kGameId:
        read = in.string(game_id) && !game_id.empty() && game_id.size() <= kKeyRule.max_chars;
        break;
      case kX:
        read = in.integer(x, kMaxCoordinateDigits, true);
        break;
      case kY:
        read = in.integer(y, kMaxCoordinateDigits, true);
        break;
      case kA:
        read = in.point(a);
        break;
      case kB:
        read = in.point(b);
        break;
      case kId: {
        // A string id, or a non-negative integer; the rest (null, negative,
        // fractions, escapes) is read by the full parser.
        std::string_view text_id;
        std::int64_t number = 0;
        if (in.next_is('"')) {
          read = in.string(text_id) && text_id.size() <= kMaxIdChars;
          id = std::string(text_id);
        } else {
          read = in.integer(number, kMaxIdDigits, false);
          id = static_cast<std::uint64_t>(number);
        }
        break;
      }
      case kMoveCount: {
        // A non-negative count of at most 9 digits (always within the
        // parser's 0..2^31-1); null, a sign or more digits go to the full
        // parser.
        std::int64_t count = 0;
        read = in.integer(count, kMaxCoordinateDigits, false);
        move_count = count;
        break;
      }
      case kKeyCount:
        break;
    }
    if (!read) return std::nullopt;
  }
  in.skip_space();
  if (!in.at_end() || !kind) return std::nullopt;

  const bool swap = *kind == game::MoveKind::swap;
  const unsigned needed =
      (1u << kType) | (1u << kGameId) | (swap ? (1u << kA) | (1u << kB) : (1u << kX) | (1u << kY));
  if ((seen & ~((1u << kId) | (1u << kMoveCount))) != needed) return std::nullopt;

  MoveCommand move;
  move.game_id = std::string(game_id);
  move.move.kind = *kind;
  move.seen = move_count;
  if (swap) {
    move.move.a = a;
    move.move.b = b;
  } else {
    move.move.a = {static_cast<int>(x), static_cast<int>(y)};
  }
  ParseResult result;
  result.id = std::move(id);
  result.command = std::move(move);
  return result;
}

}  // namespace tilecrush::protocol::detail
