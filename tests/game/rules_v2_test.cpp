// Rules version 2 (docs/rules.md): a board with a key is dealt from
// HMAC-SHA-256(key, material) through the SHA-256 counter stream; a board
// without one is dealt exactly as in version 1. The expected boards below
// come from an independent implementation of the text (Python's hashlib and
// hmac), not from this engine.
#include <gtest/gtest.h>

#include <string>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/rng.hpp"

namespace tilecrush::game {
namespace {

BoardSecret counting_key() {
  BoardSecret key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  return key;
}

std::string cells_text(const Game& game) {
  std::string out;
  for (std::uint8_t c : game.board().cells()) out += static_cast<char>('0' + c);
  return out;
}

GameSetup keyed(Mode mode, std::string preset, std::string seed, BoardSecret key) {
  GameSetup setup;
  setup.mode = mode;
  setup.preset = std::move(preset);
  setup.seed = std::move(seed);
  setup.rules_version = 2;
  setup.board_key = key;
  return setup;
}

TEST(RulesV2, KeyedBoardsMatchTheIndependentReference) {
  auto hidden = create_game(keyed(Mode::hidden, "classic", "2026-11-24", counting_key()));
  ASSERT_TRUE(hidden.game) << hidden.error;
  EXPECT_EQ(cells_text(*hidden.game),
            "2321232233231312221223332313332221332133111333321312331122223132121132121323122122"
            "312312313112133313");
  auto same = create_game(keyed(Mode::same, "classic", "2026-11-24", counting_key()));
  ASSERT_TRUE(same.game) << same.error;
  EXPECT_EQ(cells_text(*same.game),
            "25451233234545423524135334422452541433335421241451532245525333554222323311241144314"
            "55531525232533251111432242533214341433245355154523525222325121211321124544415443434"
            "22152333152413312443122521442323125521314424553123321325413");
}

TEST(RulesV2, TheKeyDecidesTheBoardAndTheSeedAloneDoesNot) {
  BoardSecret other = counting_key();
  other[31] ^= 1;
  for (Mode mode : {Mode::same, Mode::match3, Mode::hidden}) {
    const std::string preset = "classic";
    auto a = create_game(keyed(mode, preset, "label", counting_key()));
    auto b = create_game(keyed(mode, preset, "label", other));
    GameSetup v1 = keyed(mode, preset, "label", counting_key());
    v1.board_key.reset();
    v1.rules_version = 1;
    auto c = create_game(v1);
    ASSERT_TRUE(a.game && b.game && c.game);
    EXPECT_NE(a.game->board(), b.game->board()) << to_string(mode);
    EXPECT_NE(a.game->board(), c.game->board()) << to_string(mode);
  }
}

TEST(RulesV2, BoardsWithoutAKeyAreDealtAsInVersion1) {
  for (Mode mode : {Mode::same, Mode::match3, Mode::hidden}) {
    GameSetup v1;
    v1.mode = mode;
    v1.preset = "classic";
    v1.seed = "public";
    v1.rules_version = 1;
    GameSetup v2 = v1;
    v2.rules_version = 2;
    auto a = create_game(v1);
    auto b = create_game(v2);
    ASSERT_TRUE(a.game && b.game);
    EXPECT_EQ(a.game->board(), b.game->board()) << to_string(mode);
  }
}

TEST(RulesV2, KeysOnlyOnVersion2PresetBoardsWithoutPracticeOptions) {
  GameSetup setup = keyed(Mode::match3, "classic", "s", counting_key());
  setup.refill = false;
  EXPECT_FALSE(create_game(setup).game);
  setup = keyed(Mode::hidden, "classic", "s", counting_key());
  setup.compress = true;
  EXPECT_FALSE(create_game(setup).game);
  setup = keyed(Mode::same, "", "s", counting_key());
  setup.width = setup.height = 5;
  setup.colors = 3;
  EXPECT_FALSE(create_game(setup).game);
  setup = keyed(Mode::same, "classic", "s", counting_key());
  setup.rules_version = 1;
  EXPECT_FALSE(create_game(setup).game);
  setup.rules_version = 3;
  EXPECT_FALSE(create_game(setup).game);
  setup.rules_version = 0;
  setup.board_key.reset();
  EXPECT_FALSE(create_game(setup).game);
}

TEST(RulesV2, KeyedMatch3RefillsReplayExactlyAndRefuseUndo) {
  auto created = create_game(keyed(Mode::match3, "classic", "replay", counting_key()));
  ASSERT_TRUE(created.game);
  Game& game = *created.game;
  EventList events;
  for (int i = 0; i < 20 && !game.over(); ++i) {
    const auto moves = game.legal_moves();
    ASSERT_FALSE(moves.empty());
    ASSERT_TRUE(game.apply(moves[static_cast<std::size_t>(i) % moves.size()], events).ok());
  }
  EXPECT_FALSE(game.undo().ok());
  auto again = replay(game.setup(), game.moves());
  ASSERT_TRUE(again.game) << again.error;
  EXPECT_EQ(again.game->board(), game.board());
  EXPECT_EQ(again.game->score(), game.score());
  EXPECT_EQ(again.game->state_hash(), game.state_hash());
}

TEST(RulesV2, AKeyedStreamCopiedMidBlockContinuesIdentically) {
  Rng a = Rng::keyed(sha256("stream"));
  for (int i = 0; i < 6; ++i) a.next();
  Rng b = a;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(a.next(), b.next());
  Rng c = Rng::keyed(sha256("stream"));
  Rng d = Rng::keyed(sha256("streams"));
  EXPECT_NE(c.next(), d.next());
}

}  // namespace
}  // namespace tilecrush::game
