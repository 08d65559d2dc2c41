// The engine's enum names (game/include/tilecrush/game/types.hpp
// lists): every value's text, in declaration order, the way back, and the
// fallback a value cast from a number out of range is given. The texts are
// part of the protocol and of the stored rows: they never change.
#include <gtest/gtest.h>

#include <string>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/types.hpp"

namespace tilecrush::game {
namespace {

// The texts of values 0..last, space-separated; each must parse back to
// its value when `parse` is given.
template <class Enum, class Parse>
std::string names_through(Enum last, Parse parse) {
  std::string out;
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    const Enum value = static_cast<Enum>(i);
    const std::string_view name = to_string(value);
    if constexpr (!std::is_same_v<Parse, std::nullptr_t>) {
      EXPECT_EQ(parse(name), std::optional<Enum>(value)) << name;
    }
    out += (out.empty() ? "" : " ") + std::string(name);
  }
  return out;
}

// The lists are read at compile time too.
constexpr EnumNames kSample(OverReason::no_moves, {"a", "b"});
static_assert(name_of(kSample, OverReason::no_moves, "x") == "b");
static_assert(name_of(kSample, OverReason::cleared, "x") == "x");
static_assert(value_named(kSample, "a") == OverReason::none);
static_assert(!value_named(kSample, "c"));

TEST(EnumNames, EveryValueHasItsTextAndParsesBack) {
  EXPECT_EQ(names_through(Mode::hidden, parse_mode), "same match3 hidden");
  EXPECT_EQ(names_through(OverReason::closed, parse_over_reason),
            "none no_moves cleared out_of_moves resigned closed");
  EXPECT_EQ(names_through(MoveKind::unselect, nullptr), "click swap peek select unselect");
}

TEST(EnumNames, UnknownTextsAndValuesFallBack) {
  EXPECT_EQ(parse_mode("Same"), std::nullopt);
  EXPECT_EQ(parse_mode(""), std::nullopt);
  EXPECT_EQ(parse_over_reason("closed "), std::nullopt);
  EXPECT_EQ(to_string(static_cast<Mode>(200)), "same");
  EXPECT_EQ(to_string(static_cast<OverReason>(200)), "none");
  EXPECT_EQ(to_string(static_cast<MoveKind>(200)), "click");
}

}  // namespace
}  // namespace tilecrush::game
