// Match-3 engine speed. Goal: a swap with its whole cascade on `classic`
// (validation, waves, refill, events, game-over check) <= 1 us median.
//
// apply() changes the game, so every timed swap needs a fresh copy. The
// copies are made while the timer is paused, a batch at a time, so that
// neither cloning nor the pause itself is measured; BM_Match3Clone times a
// clone on its own.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include "tilecrush/game/game.hpp"

namespace {

using namespace tilecrush::game;

constexpr int kBatch = 256;

// keyed: a rules-version-2 board with a key (refills from the SHA-256
// stream); otherwise the public version-1 generator (xoshiro256**).
GameSetup classic(const std::string& seed, bool keyed = false) {
  GameSetup setup;
  setup.mode = Mode::match3;
  setup.preset = "classic";
  setup.seed = seed;
  if (keyed) setup.board_key = BoardSecret{7, 1, 2, 3};
  return setup;
}

Move hint_of(const Game& game) {
  Hint hint;
  game.hint(hint);
  return hint.move;
}

int waves_of(const EventList& events) {
  int waves = 0;
  for (const Event& e : events) waves += std::holds_alternative<RemoveEvent>(e) ? 1 : 0;
  return waves;
}

// One fixed ranked game whose hinted swap cascades (the first seed
// "cascade<i>" giving two waves or more), applied to fresh clones; Arg 1:
// a keyed board (rules version 2).
void BM_Match3SwapClassic(benchmark::State& state) {
  const bool keyed = state.range(0) != 0;
  state.SetLabel(keyed ? "keyed" : "public");
  std::unique_ptr<Game> game;
  for (int i = 0;; ++i) {
    game = create_game(classic("cascade" + std::to_string(i), keyed)).game;
    auto trial = game->clone();
    EventList trial_events;
    trial->apply(hint_of(*game), trial_events);
    if (waves_of(trial_events) >= 2) break;
  }
  const Move move = hint_of(*game);
  std::vector<std::unique_ptr<Game>> copies(kBatch);
  EventList events;
  events.reserve(64);
  for (auto _ : state) {
    state.PauseTiming();
    for (auto& c : copies) c = game->clone();
    state.ResumeTiming();
    for (auto& c : copies) {
      events.clear();
      benchmark::DoNotOptimize(c->apply(move, events));
    }
  }
  state.counters["per_swap"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kBatch,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["events"] = static_cast<double>(events.size());
  state.counters["waves"] = waves_of(events);
}
BENCHMARK(BM_Match3SwapClassic)->Arg(0)->Arg(1);

// The distribution over many positions: 4,096 seeds, each the hinted swap
// of its start board, and the next three moves, timed one by one (the clock
// read, ~20-40 ns, is included). Reports the median and the 99th percentile.
void BM_Match3SwapClassicMedian(benchmark::State& state) {
  std::vector<std::unique_ptr<Game>> games;
  for (int i = 0; i < 1024; ++i) {
    auto g = create_game(classic("median" + std::to_string(i))).game;
    for (int step = 0; step < 4 && !g->over(); ++step) {
      games.push_back(g->clone());
      EventList events;
      g->apply(hint_of(*g), events);
    }
  }
  std::vector<Move> moves;
  for (const auto& g : games) moves.push_back(hint_of(*g));
  std::vector<double> ns;
  ns.reserve(games.size() * 8);
  EventList events;
  events.reserve(64);
  std::vector<std::unique_ptr<Game>> copies(games.size());
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t i = 0; i < games.size(); ++i) copies[i] = games[i]->clone();
    state.ResumeTiming();
    for (std::size_t i = 0; i < games.size(); ++i) {
      events.clear();
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(copies[i]->apply(moves[i], events));
      const auto t1 = std::chrono::steady_clock::now();
      ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
  }
  std::sort(ns.begin(), ns.end());
  state.counters["swaps"] = static_cast<double>(ns.size());
  state.counters["median_ns"] = ns[ns.size() / 2];
  state.counters["p99_ns"] = ns[ns.size() * 99 / 100];
}
BENCHMARK(BM_Match3SwapClassicMedian)->Iterations(8);

void BM_Match3Clone(benchmark::State& state) {
  const auto game = create_game(classic("bench")).game;
  for (auto _ : state) benchmark::DoNotOptimize(game->clone());
}
BENCHMARK(BM_Match3Clone);

void BM_Match3LegalMovesClassic(benchmark::State& state) {
  const auto game = create_game(classic("bench")).game;
  std::size_t n = 0;
  for (auto _ : state) {
    auto moves = game->legal_moves();
    n = moves.size();
    benchmark::DoNotOptimize(moves);
  }
  state.counters["moves"] = static_cast<double>(n);
}
BENCHMARK(BM_Match3LegalMovesClassic);

void BM_Match3HintClassic(benchmark::State& state) {
  const auto game = create_game(classic("bench")).game;
  for (auto _ : state) {
    Hint hint;
    benchmark::DoNotOptimize(game->hint(hint));
  }
}
BENCHMARK(BM_Match3HintClassic);

// Validation, seeding and the deal of a start board.
void BM_Match3CreateClassic(benchmark::State& state) {
  const bool keyed = state.range(0) != 0;
  state.SetLabel(keyed ? "keyed" : "public");
  int i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(create_game(classic(std::to_string(i++), keyed)));
}
BENCHMARK(BM_Match3CreateClassic)->Arg(0)->Arg(1);

void BM_Match3CreateBig(benchmark::State& state) {
  GameSetup setup = classic("");
  setup.preset = "big";
  int i = 0;
  for (auto _ : state) {
    setup.seed = std::to_string(i++);
    benchmark::DoNotOptimize(create_game(setup));
  }
}
BENCHMARK(BM_Match3CreateBig);

}  // namespace

BENCHMARK_MAIN();
