#include <benchmark/benchmark.h>

#include "tilecrush/game/game.hpp"

namespace {

using namespace tilecrush::game;

void BM_SameCreateHard(benchmark::State& state) {
  GameSetup setup;
  setup.mode = Mode::same;
  setup.preset = "hard";
  setup.seed = "bench";
  for (auto _ : state) benchmark::DoNotOptimize(create_game(setup));
}
BENCHMARK(BM_SameCreateHard);

}  // namespace

BENCHMARK_MAIN();
