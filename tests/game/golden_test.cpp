// Golden boards: what a seed deals is part of rules version 1 (rules.md), so
// any change to the dealt board of any preset of any mode must fail here.
// A board is pinned as "<FNV-1a 64 of its cells, hex>:<its top row>".
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "game_test_util.hpp"
#include "reference_rng.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/game/rng.hpp"

namespace tilecrush::game {
namespace {

std::string digest(const Board& board) {
  const auto& cells = board.cells();
  std::string top;
  for (int x = 0; x < board.width(); ++x) {
    const int c = board.at(x, 0);
    top += static_cast<char>(c < 10 ? '0' + c : 'a' + c - 10);
  }
  const std::string bytes(cells.begin(), cells.end());
  return hash_hex(fnv1a64(bytes)) + ":" + top;
}

struct Golden {
  Mode mode;
  const char* preset;
  const char* seed;
  const char* expected;
};

constexpr const char* kSeeds[] = {"golden-1", "2026-01-01", "x"};

// clang-format off
// Every preset of every mode, with each of kSeeds.
const std::vector<Golden> kGoldens = {
  {Mode::same, "easy", "golden-1", "cc0a17e59a2a6f9f:2213233312"},
  {Mode::same, "easy", "2026-01-01", "b8c2516d74c8282a:1121321113"},
  {Mode::same, "easy", "x", "0471eed2dff8a4e3:1113331321"},
  {Mode::same, "normal", "golden-1", "f21a3a671356736f:331312223434211"},
  {Mode::same, "normal", "2026-01-01", "e1c047d38bc208b4:422223343423432"},
  {Mode::same, "normal", "x", "1e2c6c288bf6b96f:314434342122244"},
  {Mode::same, "hard", "golden-1", "13565dbda63c9acd:13545434422552233244"},
  {Mode::same, "hard", "2026-01-01", "e05f0abecc207e66:41523553331141125543"},
  {Mode::same, "hard", "x", "09a2f84f8f0d4394:13524334511554233453"},
  {Mode::same, "classic", "golden-1", "fdf6ebb6a75ccf0f:153222233142531"},
  {Mode::same, "classic", "2026-01-01", "1fb5f7440ee8a56a:212414314141142"},
  {Mode::same, "classic", "x", "9a1aab68fd33bcf8:532342543112552"},
  {Mode::match3, "classic", "golden-1", "da8aeb0f1a9e013a:62231611"},
  {Mode::match3, "classic", "2026-01-01", "073630e336e0ee9e:21152562"},
  {Mode::match3, "classic", "x", "3f0ba64eb0bfef86:33234252"},
  {Mode::match3, "big", "golden-1", "bc4373e399c9d795:4314121475"},
  {Mode::match3, "big", "2026-01-01", "ef93d178b7f13c15:6477572535"},
  {Mode::match3, "big", "x", "d9ced1d49ff68ab0:2573163443"},
  {Mode::match3, "crush", "golden-1", "66ecc87b69907447:511521422"},
  {Mode::match3, "crush", "2026-01-01", "a4490a66ad65bc66:115334353"},
  {Mode::match3, "crush", "x", "32daa03a12dbf1c5:531225313"},
  {Mode::hidden, "classic", "golden-1", "636535003071c8f8:2121133222"},
  {Mode::hidden, "classic", "2026-01-01", "cc00e1f5df74f38c:1122213332"},
  {Mode::hidden, "classic", "x", "35fef5ad36e6c448:2231233223"},
  {Mode::hidden, "large", "golden-1", "51c107bfd9677f58:211411212131323"},
  {Mode::hidden, "large", "2026-01-01", "8c78212f7f1952f7:223244113443112"},
  {Mode::hidden, "large", "x", "c05977b82d27708b:312233144414224"},
};
// clang-format on

// Same Game, custom 7 x 9 x 6, seed "x".
constexpr const char* kCustomSame = "81476f181b13ee93:1254125";
// Same Game hard "golden-1" played by SameGamePlayedFirstClickable.
constexpr const char* kPlayedHard = "98 moves, score 163, ef250bafe5ce1e8f";
// Match-3 classic "golden-1" played by Match3PlayedFirstValidSwap: pins the
// refills, which continue from the dealing generator.
constexpr const char* kPlayedMatch3 = "30 moves, score 1540, eff0e1ce4427fd77";

Board dealt(Mode mode, const char* preset, const char* seed) {
  CreateResult created = create_game(test::preset_setup(mode, preset, seed));
  EXPECT_TRUE(created.game) << to_string(mode) << "/" << preset << "/" << seed << ": "
                            << created.error;
  return created.game ? created.game->board() : Board();
}

// The mode's rows of kGoldens: one for each of its presets and kSeeds.
void check_goldens(Mode mode) {
  std::string all;  // the table as it would be now, printed when one is missing
  bool missing = false;
  for (const Preset& p : presets(mode)) {
    for (const char* seed : kSeeds) {
      const std::string name(p.name);
      const std::string got = digest(dealt(mode, name.c_str(), seed));
      all += "    {Mode::" + std::string(to_string(mode)) + ", \"" + name + "\", \"" + seed +
             "\", \"" + got + "\"},\n";
      const Golden* want = nullptr;
      for (const Golden& g : kGoldens) {
        if (g.mode == mode && g.preset == name && std::string(g.seed) == seed) want = &g;
      }
      if (want == nullptr) {
        missing = true;
        continue;
      }
      EXPECT_EQ(got, want->expected) << to_string(mode) << "/" << name << "/" << seed;
    }
  }
  EXPECT_FALSE(missing) << "goldens missing; its rows would be:\n" << all;
  const auto rows = std::count_if(kGoldens.begin(), kGoldens.end(),
                                  [mode](const Golden& g) { return g.mode == mode; });
  EXPECT_EQ(static_cast<std::size_t>(rows), presets(mode).size() * std::size(kSeeds));
}

TEST(Golden, SameGameBoards) {
  check_goldens(Mode::same);
}

TEST(Golden, Match3Boards) {
  check_goldens(Mode::match3);
}
TEST(Golden, HiddenBoards) {
  check_goldens(Mode::hidden);
}

// Same Game and hidden mode deal row-major from the top row, each cell
// 1 + bounded(K), from the generator seeded by
// "tilecrush/v1/<mode>/<preset or WxHxK>/<seed>".
Board reference_deal(const std::string& material, int w, int h, int k) {
  test::RefRng rng = test::RefRng::from_material(material);
  Board board(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x)
      board.set(x, y, static_cast<std::uint8_t>(1 + rng.bounded(static_cast<std::uint64_t>(k))));
  }
  return board;
}

TEST(Golden, UniformDealsAsDocumented) {
  for (const Mode mode : {Mode::same, Mode::hidden}) {
    const std::string prefix = "tilecrush/v1/" + std::string(to_string(mode)) + "/";
    for (const Preset& p : presets(mode)) {
      for (const char* seed : kSeeds) {
        const std::string name(p.name);
        EXPECT_EQ(dealt(mode, name.c_str(), seed),
                  reference_deal(prefix + name + "/" + seed, p.width, p.height, p.colors))
            << to_string(mode) << "/" << name << "/" << seed;
      }
    }
  }
  auto game = create_game(test::dealt_setup(Mode::same, "x", 7, 9, 6)).game;
  ASSERT_TRUE(game);
  EXPECT_EQ(game->board(), reference_deal("tilecrush/v1/same/7x9x6/x", 7, 9, 6));
  EXPECT_EQ(digest(game->board()), kCustomSame);
}

// A whole game played by a policy that depends on the rules only: always the
// first clickable cell in row-major order. Pins scoring, gravity and
// compression over many moves.
TEST(Golden, SameGamePlayedFirstClickable) {
  auto game = create_game(test::same_setup("hard", "golden-1")).game;
  ASSERT_TRUE(game);
  while (!game->over()) {
    bool moved = false;
    for (int y = 0; y < game->height() && !moved; ++y) {
      for (int x = 0; x < game->width() && !moved; ++x) {
        EventList events;
        moved = game->apply(test::click(x, y), events).ok();
      }
    }
    ASSERT_TRUE(moved);
  }
  const std::string got = std::to_string(game->move_count()) + " moves, score " +
                          std::to_string(game->score()) + ", " + hash_hex(game->state_hash());
  EXPECT_EQ(got, kPlayedHard);
}

// Swaps tried in a fixed order (row-major, right then down) until one is
// accepted, to the end of the move budget.
TEST(Golden, Match3PlayedFirstValidSwap) {
  auto game = create_game(test::preset_setup(Mode::match3, "classic", "golden-1")).game;
  ASSERT_TRUE(game);
  while (!game->over()) {
    bool moved = false;
    for (int y = 0; y < game->height() && !moved; ++y) {
      for (int x = 0; x < game->width() && !moved; ++x) {
        for (const Point to : {Point{x + 1, y}, Point{x, y + 1}}) {
          EventList events;
          if (!moved) moved = game->apply(Move{MoveKind::swap, {x, y}, to}, events).ok();
        }
      }
    }
    ASSERT_TRUE(moved);
  }
  const std::string got = std::to_string(game->move_count()) + " moves, score " +
                          std::to_string(game->score()) + ", " + hash_hex(game->state_hash());
  EXPECT_EQ(got, kPlayedMatch3);
}

}  // namespace
}  // namespace tilecrush::game
