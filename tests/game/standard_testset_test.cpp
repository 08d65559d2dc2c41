// The SameGame standard test set as 20 custom boards, each played to the end.
#include "standard_testset.hpp"

#include <gtest/gtest.h>

#include <iostream>

#include "game_test_util.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::game {
namespace {

const std::string kTestData = TILECRUSH_TEST_DATA_DIR;
// Total of GreedyPlaysEveryPositionToTheEnd over the 20 positions.
constexpr std::int64_t kGreedyTotal = 4502;

// The test's own Same Game groups: for every group, its first cell in
// row-major order and its size.
struct OwnGroup {
  Point first;
  int size;
};

std::vector<OwnGroup> own_groups(const Board& board) {
  const int w = board.width(), h = board.height();
  std::vector<char> seen(board.cells().size(), 0);
  std::vector<OwnGroup> groups;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (seen[static_cast<std::size_t>(y * w + x)] || board.at(x, y) == 0) continue;
      const std::uint8_t color = board.at(x, y);
      std::vector<Point> stack = {{x, y}};
      seen[static_cast<std::size_t>(y * w + x)] = 1;
      int size = 0;
      while (!stack.empty()) {
        const Point p = stack.back();
        stack.pop_back();
        ++size;
        for (const Point n :
             {Point{p.x - 1, p.y}, Point{p.x + 1, p.y}, Point{p.x, p.y - 1}, Point{p.x, p.y + 1}}) {
          if (!board.contains(n.x, n.y) || board.at(n.x, n.y) != color) continue;
          char& s = seen[static_cast<std::size_t>(n.y * w + n.x)];
          if (s) continue;
          s = 1;
          stack.push_back(n);
        }
      }
      groups.push_back({{x, y}, size});
    }
  }
  return groups;
}

TEST(StandardTestset, TextAndJsonHoldTheSame20Boards) {
  const std::vector<Board> txt = test::load_standard_testset(kTestData);
  const std::vector<Board> json = test::parse_standard_json(
      test::read_text_file(test::standard_testset_dir(kTestData) + "/standard_testset.json"));
  ASSERT_EQ(txt.size(), static_cast<std::size_t>(test::kStandardPositions));
  ASSERT_EQ(json.size(), txt.size());
  for (std::size_t i = 0; i < txt.size(); ++i) EXPECT_EQ(txt[i], json[i]) << "position " << i + 1;
  // Position 1's top row in the file is "3 1 1 4 1 0 4 0 4 4 1 1 0 2 3".
  EXPECT_EQ(test::rows_of(txt[0]).front(), "422521515522134");
  EXPECT_EQ(test::rows_of(txt[0]).back(), "212122332112543");
}

TEST(StandardTestset, ParserRefusesMalformedBlocks) {
  EXPECT_TRUE(test::parse_standard_txt("1 2 3\n").empty());
  EXPECT_TRUE(test::parse_standard_txt("x").empty());
  EXPECT_TRUE(test::parse_standard_json("{\"boards\": [[[9]]]}").empty());
}

TEST(StandardTestset, LoadsAsCustom15x15Boards) {
  for (const Board& board : test::load_standard_testset(kTestData)) {
    CreateResult created = create_game(test::board_setup(Mode::same, board));
    ASSERT_TRUE(created.game) << created.error;
    EXPECT_EQ(created.game->width(), 15);
    EXPECT_EQ(created.game->height(), 15);
    EXPECT_EQ(created.game->colors(), 5);
    EXPECT_EQ(created.game->board(), board) << "a full board needs no settling";
    EXPECT_FALSE(created.game->setup().ranked());
  }
}

// Greedy by the test's own groups: the largest, the first in row-major order
// on ties. The total depends only on the rules, so it is pinned.
TEST(StandardTestset, GreedyPlaysEveryPositionToTheEnd) {
  const std::vector<Board> boards = test::load_standard_testset(kTestData);
  ASSERT_EQ(boards.size(), 20u);
  std::int64_t total = 0;
  int cleared = 0;
  std::string per_position;
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const GameSetup setup = test::board_setup(Mode::same, boards[i]);
    auto game = create_game(setup).game;
    ASSERT_TRUE(game);
    std::int64_t points = 0;
    while (!game->over()) {
      const std::vector<OwnGroup> groups = own_groups(game->board());
      const OwnGroup* best = &groups.front();
      for (const OwnGroup& g : groups) {
        if (g.size > best->size) best = &g;
      }
      ASSERT_GE(best->size, 2);
      Hint hint;
      ASSERT_TRUE(game->hint(hint).ok());
      Preview preview;
      ASSERT_TRUE(game->preview(hint.move.a, preview).ok());
      ASSERT_EQ(static_cast<int>(preview.cells.size()), best->size)
          << "the hint is not a largest group";
      EventList events;
      ASSERT_TRUE(game->apply(test::click(best->first.x, best->first.y), events).ok());
      points += static_cast<std::int64_t>(best->size - 2) * (best->size - 2);
    }
    for (const OwnGroup& g : own_groups(game->board())) ASSERT_EQ(g.size, 1);
    const bool clear = game->board().empty();
    EXPECT_EQ(game->over_reason(), clear ? OverReason::cleared : OverReason::no_moves);
    EXPECT_EQ(game->score(), points + (clear ? 1000 : 0)) << "position " << i + 1;
    ReplayResult replayed = replay(setup, game->moves());
    ASSERT_TRUE(replayed.game) << replayed.error;
    EXPECT_EQ(replayed.game->state_hash(), game->state_hash());
    total += game->score();
    cleared += clear ? 1 : 0;
    per_position += " " + std::to_string(game->score()) + "/" + std::to_string(game->move_count());
  }
  std::cout << "[ greedy   ] score/moves per position:" << per_position << "\n"
            << "[ greedy   ] total " << total << ", cleared " << cleared << " of 20\n";
  EXPECT_EQ(total, kGreedyTotal);
}

}  // namespace
}  // namespace tilecrush::game
