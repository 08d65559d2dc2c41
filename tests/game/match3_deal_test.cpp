// Match-3 start positions (rules.md "Match-3"): seed 003's test vectors,
// custom board stabilisation, refill order and the dealt board.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "board_ops.hpp"
#include "match3_board.hpp"
#include "match3_test_util.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::game {
namespace {

using namespace match3_test;

// ---- Seed 003: its printed 9 x 9 board is a test vector. ----
// The J matrix is transposed against the player's view: J row r is our
// column x = r and J column c is our row y = c, so J's gravity "to the
// right" pulls toward y = H - 1, as ours does.
//
// The article's three printed matrices side by side, one J row a line:
// `Board`; `gravity Board`; and, on the gravity board, the explosion mask
// `3 <: +/ ((runs &. |:) >. runs)"2 Board ="_ 0 }. i. K` (1: explodes).
constexpr std::string_view kSeed003 = R"(
024054442 002454442 000001110
132151234 132151234 000000000
155311043 015531143 000000000
243504355 024354355 000000000
012045355 001245355 000000000
034404310 000344431 000011100
001512404 000151244 000001000
324441313 324441313 001111000
512515052 051251552 000001000
)";
enum Seed003 { kBoard, kGravity, kMask };

// One of kSeed003's matrices as our board.
Board seed003(Seed003 which) {
  std::istringstream table{std::string(kSeed003)};
  Board b(9, 9);
  for (int r = 0; r < 9; ++r) {
    std::array<std::string, 3> matrices;
    for (std::string& m : matrices) table >> m;
    for (int c = 0; c < 9; ++c) b.set(r, c, static_cast<std::uint8_t>(matrices[which].at(c) - '0'));
  }
  return b;
}

// rules.md's gravity read cell by cell: each column's filled cells, from the
// bottom up, take the lowest free rows in turn; every cell that changes row
// is listed as {x, from_y, to_y}, columns left to right, each bottom up.
Board column_gravity(const Board& before, std::vector<std::array<int, 3>>& moves) {
  Board after(before.width(), before.height());
  for (int x = 0; x < before.width(); ++x) {
    int to = before.height();
    for (int from = before.height() - 1; from >= 0; --from) {
      if (before.at(x, from) == 0) continue;
      after.set(x, --to, before.at(x, from));
      if (to != from) moves.push_back({x, from, to});
    }
  }
  return after;
}

TEST(Match3Seed003, GravityGivesThePrintedBoard) {
  const Board printed = seed003(kGravity);
  Board b = seed003(kBoard);
  std::vector<std::array<int, 3>> moves, expected_moves;
  EXPECT_EQ(column_gravity(b, expected_moves), printed);
  ops::apply_gravity(b, moves);
  EXPECT_EQ(b, printed);
  EXPECT_EQ(moves, expected_moves);
}

// Match-3, Same Game and hidden colours all fall through ops::apply_gravity.
TEST(Match3, GravityKeepsEachColumnsOrderAndListsEveryMovedCell) {
  std::mt19937 rng(8);
  for (int i = 0; i < 2000; ++i) {
    Board a(std::uniform_int_distribution<int>(1, 32)(rng),
            std::uniform_int_distribution<int>(1, 32)(rng));
    const int holes = std::uniform_int_distribution<int>(0, 6)(rng);
    for (auto& c : a.cells()) {
      c = std::uniform_int_distribution<int>(0, 6)(rng) < holes
              ? 0
              : static_cast<std::uint8_t>(std::uniform_int_distribution<int>(1, 12)(rng));
    }
    std::vector<std::array<int, 3>> moves{{9, 9, 9}}, expected_moves{{9, 9, 9}};  // appends
    const Board expected = column_gravity(a, expected_moves);
    ops::apply_gravity(a, moves);
    ASSERT_EQ(a, expected);
    ASSERT_EQ(moves, expected_moves);
  }
}

TEST(Match3Seed003, RunsAreThePrintedExplosionMask) {
  const Board b = seed003(kGravity);
  const Board printed = seed003(kMask);
  match3::Mask mask;
  int expected = 0;
  EXPECT_EQ(match3::mark_runs(b, mask), 12);
  for (int x = 0; x < 9; ++x) {
    for (int y = 0; y < 9; ++y) {
      EXPECT_EQ(mask[static_cast<std::size_t>(y * 9 + x)], printed.at(x, y)) << x << "," << y;
      expected += printed.at(x, y);
    }
  }
  EXPECT_EQ(expected, 12);
}

// Seed 003's `update =. (explode @: gravity) ^:_`, written as the article
// does on the J layout (m[x][y]): per colour, the longest row or column run
// through each cell; cells with 3 or more explode.
Board j_update(Board b) {
  const int w = b.width();
  const int h = b.height();
  for (;;) {
    const Board before = b;
    std::vector<std::array<int, 3>> ignored;
    b = column_gravity(b, ignored);
    std::vector<int> longest(static_cast<std::size_t>(w * h), 0);
    auto run_len = [&](int x, int y, int dx, int dy) {
      const std::uint8_t v = b.at(x, y);
      int n = 1;
      for (int i = 1; b.contains(x + i * dx, y + i * dy) && b.at(x + i * dx, y + i * dy) == v; ++i)
        ++n;
      for (int i = 1; b.contains(x - i * dx, y - i * dy) && b.at(x - i * dx, y - i * dy) == v; ++i)
        ++n;
      return n;
    };
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (b.at(x, y) != 0)
          longest[y * w + x] = std::max(run_len(x, y, 1, 0), run_len(x, y, 0, 1));
      }
    }
    for (int i = 0; i < w * h; ++i) {
      if (longest[static_cast<std::size_t>(i)] >= 3) b.cells()[static_cast<std::size_t>(i)] = 0;
    }
    if (b == before) return b;
  }
}

TEST(Match3Seed003, CustomBoardWithoutRefillStabilisesLikeUpdate) {
  const Board start = seed003(kBoard);
  auto g = make(board_setup(start, false));
  EXPECT_EQ(g->board(), j_update(start));
  EXPECT_EQ(g->score(), 0);  // stabilising scores nothing
  EXPECT_EQ(g->colors(), 5);

  std::mt19937 rng(3);
  for (int i = 0; i < 300; ++i) {
    Board b(std::uniform_int_distribution<int>(3, 12)(rng),
            std::uniform_int_distribution<int>(3, 12)(rng));
    for (auto& c : b.cells())
      c = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 4)(rng));
    b.set(0, 0, 1);
    auto game = make(board_setup(b, false));
    ASSERT_TRUE(game);
    ASSERT_EQ(game->board(), j_update(b)) << "board " << i;
  }
}

TEST(Match3, CustomBoardWithRefillStabilisesFullAndWithoutRuns) {
  const Board start = seed003(kBoard);
  auto a = make(board_setup(start, true));
  auto b = make(board_setup(start, true));
  EXPECT_EQ(a->board(), b->board());
  EXPECT_EQ(a->board().filled_count(), 81);
  EXPECT_FALSE(match3::has_run(a->board()));
  EXPECT_EQ(a->score(), 0);
  EXPECT_EQ(a->colors(), 5);
  EXPECT_LE(a->board().max_color(), 5);  // K = the board's highest colour
}

TEST(Match3, RefillOrderIsColumnsLeftToRightThenTopToBottom) {
  // Holes that a refill with 12 colours fills without making a run.
  const Board start = board_of({"1.3.", "2.4.", "3.51", "45c2"});
  auto g = make(board_setup(start, true));
  Board expected = start;
  Rng rng = Rng::from_material("tilecrush/v1/match3/4x4x12/custom");
  for (const Point p : {Point{1, 0}, {1, 1}, {1, 2}, {3, 0}, {3, 1}})
    expected.set(p.x, p.y, rng.color(12));
  ASSERT_FALSE(match3::has_run(expected));
  EXPECT_EQ(g->board(), expected);
}

// ---- Dealing ----
// The documented deal (match3_board.cpp), rewritten from its description.
Board reference_deal(int w, int h, int k, Rng& rng, bool* fell_back = nullptr) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    Board b(w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        std::vector<int> allowed;
        for (int c = 1; c <= k; ++c) {
          const bool row = x >= 2 && b.at(x - 1, y) == c && b.at(x - 2, y) == c;
          const bool col = y >= 2 && b.at(x, y - 1) == c && b.at(x, y - 2) == c;
          if (!row && !col) allowed.push_back(c);
        }
        b.set(x, y, static_cast<std::uint8_t>(allowed[rng.bounded(allowed.size())]));
      }
    }
    if (match3::has_valid_swap(b)) return b;
  }
  if (fell_back) *fell_back = true;
  return match3::deal_fallback(w, h, k, rng);
}

void expect_good_start(const Game& g) {
  const Board& b = g.board();
  ASSERT_EQ(b.filled_count(), b.width() * b.height());
  ASSERT_FALSE(match3::has_run(b));
  ASSERT_TRUE(match3::has_valid_swap(b));
  ASSERT_FALSE(g.over());
}

TEST(Match3Deal, TenThousandSeedsPerPresetGiveNoRunAndAValidSwap) {
  for (const Preset& p : presets(Mode::match3)) {
    for (int i = 0; i < 10000; ++i) {
      auto g = make(preset_setup(p.name, std::to_string(i)));
      ASSERT_EQ(g->width(), p.width);
      ASSERT_EQ(g->height(), p.height);
      expect_good_start(*g);
      ASSERT_LE(g->board().max_color(), p.colors);
    }
  }
}

TEST(Match3Deal, FollowsTheDocumentedAlgorithm) {
  for (const Preset& p : presets(Mode::match3)) {
    for (int i = 0; i < 200; ++i) {
      auto g = make(preset_setup(p.name, "ref" + std::to_string(i)));
      Rng rng = Rng::from_material("tilecrush/v1/match3/" + std::string(p.name) + "/ref" +
                                   std::to_string(i));
      ASSERT_EQ(g->board(), reference_deal(p.width, p.height, p.colors, rng));
    }
  }
}

TEST(Match3Deal, CustomSizesIncludingTinyBoardsWithManyColours) {
  for (int w = 3; w <= 32; w += (w < 6 ? 1 : 13)) {
    for (int h = 3; h <= 32; h += (h < 6 ? 1 : 13)) {
      for (int k = 3; k <= 12; ++k) {
        for (int s = 0; s < (w * h <= 16 ? 400 : 10); ++s) {
          auto g = make(test::dealt_setup(Mode::match3, std::to_string(s), w, h, k));
          expect_good_start(*g);
        }
      }
    }
  }
}

TEST(Match3Deal, FallbackAfterSixtyFourDealsWithoutASwap) {
  // 3 x 3 with 12 colours: about one seed in 5,000 needs the fallback.
  for (const char* seed : {"fallback10582", "fallback11034"}) {
    auto g = make(test::dealt_setup(Mode::match3, seed, 3, 3, 12));
    expect_good_start(*g);
    Rng rng = Rng::from_material(std::string("tilecrush/v1/match3/3x3x12/") + seed);
    bool fell_back = false;
    EXPECT_EQ(g->board(), reference_deal(3, 3, 12, rng, &fell_back));
    EXPECT_TRUE(fell_back);
    const std::set<std::uint8_t> colours(g->board().cells().begin(), g->board().cells().end());
    EXPECT_EQ(colours.size(), 2U);
  }
}

TEST(Match3Deal, FallbackPatternIsValidOnEverySize) {
  Rng rng(9);
  for (int w = 3; w <= 32; ++w) {
    for (int h = 3; h <= 32; ++h) {
      const Board b = match3::deal_fallback(w, h, 3 + (w + h) % 10, rng);
      ASSERT_FALSE(match3::has_run(b));
      ASSERT_TRUE(match3::swap_makes_run(b, {2, 0}, {2, 1}));
      ASSERT_NE(b.at(0, 0), b.at(2, 0));
    }
  }
}

TEST(Match3Deal, SameSeedSameBoardAndPinnedValues) {
  std::set<std::uint64_t> boards;  // state hashes: boards, at move 0 and score 0
  for (int i = 0; i < 10; ++i) {
    auto a = make(preset_setup("classic", "s" + std::to_string(i)));
    auto b = make(preset_setup("classic", "s" + std::to_string(i)));
    EXPECT_EQ(a->board(), b->board());
    boards.insert(a->state_hash());
  }
  EXPECT_EQ(boards.size(), 10U);
  // Rules version 1: what these seeds produce must never change.
  EXPECT_EQ(hash_hex(make(preset_setup("classic", "golden"))->state_hash()), "3229ea5f83f929a8");
  EXPECT_EQ(hash_hex(make(preset_setup("big", "golden"))->state_hash()), "08b6726fdfcb0b5d");
  EXPECT_EQ(hash_hex(make(preset_setup("crush", "golden"))->state_hash()), "41dbe95d462501a3");
}

}  // namespace
}  // namespace tilecrush::game
