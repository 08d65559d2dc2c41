// What a game costs in memory (issue "Memory stays small"): for every mode
// and preset, N games dealt on the preset and played for up to M moves
// (random legal moves, the same for every run), then the heap they hold,
// per game, from glibc's own count of allocated bytes (mallinfo2) before
// and after: the engine's board, move list, undo snapshots and whatever
// else a Game keeps. Goal: at most 4 KB for a 15x15 Same Game after 60
// moves (the server's LiveGame adds its id, names and a few fields).
//
//   game_memory_bench [--games N] [--moves M]
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tilecrush/game/game.hpp"
#include "tilecrush/game/presets.hpp"

namespace {

using namespace tilecrush::game;

std::size_t heap_in_use() {
  return mallinfo2().uordblks;
}

struct Row {
  double bytes_per_game = 0;
  double moves_per_game = 0;
};

Row measure(Mode mode, std::string_view preset, int games, int moves, bool ranked) {
  std::vector<std::unique_ptr<Game>> held;
  held.reserve(static_cast<std::size_t>(games));
  std::mt19937 pick(12345);
  EventList events;
  std::int64_t played = 0;
  const std::size_t before = heap_in_use();
  for (int i = 0; i < games; ++i) {
    GameSetup setup;
    setup.mode = mode;
    setup.preset = std::string(preset);
    setup.seed = "memory-" + std::to_string(i);
    // A practice option makes the game unranked (match-3 then keeps undo).
    if (!ranked && mode == Mode::match3) setup.refill = false;
    auto game = create_game(setup).game;
    if (!game) {
      std::fprintf(stderr, "cannot deal %s\n", std::string(preset).c_str());
      std::exit(1);
    }
    for (int m = 0; m < moves && !game->over(); ++m) {
      const std::vector<Move> legal = game->legal_moves();
      if (legal.empty()) break;
      events.clear();
      game->apply(legal[pick() % legal.size()], events);
    }
    played += game->move_count();
    held.push_back(std::move(game));
  }
  events = EventList{};
  const std::size_t after = heap_in_use();
  // The vector of pointers is the bench's, not the games'.
  const double overhead = static_cast<double>(held.capacity() * sizeof(held[0]));
  return {(static_cast<double>(after - before) - overhead) / games,
          static_cast<double>(played) / games};
}

}  // namespace

int main(int argc, char** argv) {
  int games = 2000;
  int moves = 60;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--games") == 0) {
      games = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--moves") == 0) {
      moves = std::atoi(argv[i + 1]);
    }
  }
  if (games < 1 || moves < 0) {
    std::fprintf(stderr, "usage: game_memory_bench [--games N>=1] [--moves M>=0]\n");
    return 2;
  }
  std::printf("%d games per row, up to %d random legal moves each\n\n", games, moves);
  std::printf("| mode | preset | board | ranked | moves played (mean) | bytes per game |\n");
  std::printf("|---|---|---|---|---:|---:|\n");
  for (const Mode mode : {Mode::same, Mode::match3, Mode::hidden}) {
    for (const Preset& p : presets(mode)) {
      for (const bool ranked : {true, false}) {
        // Only match-3 differs between ranked and practice (undo).
        if (!ranked && mode != Mode::match3) continue;
        if (!ranked && !p.refill) continue;
        const Row r = measure(mode, p.name, games, moves, ranked);
        std::printf("| %s | %s | %dx%dx%d | %s | %.1f | %.0f |\n",
                    std::string(to_string(mode)).c_str(), std::string(p.name).c_str(), p.width,
                    p.height, p.colors, ranked ? "yes" : "no", r.moves_per_game, r.bytes_per_game);
      }
    }
  }
  return 0;
}
