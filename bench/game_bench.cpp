// Engine benchmarks. Goals (Release, one core): a Same Game click with its
// events on `hard` <= 300 ns median; replaying a whole ~60-move Same Game
// <= 30 us. Run with --benchmark_min_time=0.2 for a quick pass.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "standard_testset.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/presets.hpp"

namespace {

using namespace tilecrush::game;

std::unique_ptr<Game> make(Mode mode, const std::string& preset, const std::string& seed) {
  GameSetup setup;
  setup.mode = mode;
  setup.preset = preset;
  setup.seed = seed;
  return create_game(setup).game;
}

// Arg 0: the hint's click (a largest group); arg 1: the first legal click
// (a typical small group).
Move pick_click(const Game& game, std::int64_t which) {
  if (which == 0) {
    Hint hint;
    game.hint(hint);
    return hint.move;
  }
  return game.legal_moves().front();
}

std::size_t group_size(const Game& game, const Move& move) {
  Preview preview;
  game.preview(move.a, preview);
  return preview.cells.size();
}

// apply() alone: fresh clones are made in batches outside the timed region.
void BM_SameClickHard(benchmark::State& state) {
  const auto base = make(Mode::same, "hard", "bench");
  const Move move = pick_click(*base, state.range(0));
  constexpr std::size_t kBatch = 512;
  std::vector<std::unique_ptr<Game>> batch;
  std::size_t next = kBatch;
  EventList events;
  events.reserve(8);
  for (auto _ : state) {
    if (next == kBatch) {
      state.PauseTiming();
      batch.clear();
      for (std::size_t i = 0; i < kBatch; ++i) batch.push_back(base->clone());
      next = 0;
      state.ResumeTiming();
    }
    events.clear();
    benchmark::DoNotOptimize(batch[next++]->apply(move, events));
  }
  state.counters["group"] = static_cast<double>(group_size(*base, move));
}
BENCHMARK(BM_SameClickHard)->Arg(0)->Arg(1);

// Times `move` and its undo on `game`, over and over; its group's size is
// the "group" counter.
void time_click_undo(benchmark::State& state, Game& game, const Move& move) {
  EventList events;
  events.reserve(8);
  for (auto _ : state) {
    events.clear();
    benchmark::DoNotOptimize(game.apply(move, events));
    benchmark::DoNotOptimize(game.undo());
  }
  state.counters["group"] = static_cast<double>(group_size(game, move));
}

// A click and its undo on one game: the steady state of a long-lived game.
void BM_SameClickUndoHard(benchmark::State& state) {
  const auto game = make(Mode::same, "hard", "bench");
  time_click_undo(state, *game, pick_click(*game, state.range(0)));
}
BENCHMARK(BM_SameClickUndoHard)->Arg(0)->Arg(1);

// The same at the undo's worst place: 15 moves after the last snapshot
// (undo_checkpoints.hpp), so the undo replays 15 clicks.
void BM_SameClickUndoHardDeep(benchmark::State& state) {
  const auto game = make(Mode::same, "hard", "bench");
  EventList events;
  for (int i = 0; i < 15; ++i) {
    events.clear();
    game->apply(pick_click(*game, 1), events);
  }
  time_click_undo(state, *game, pick_click(*game, state.range(0)));
}
BENCHMARK(BM_SameClickUndoHardDeep)->Arg(0)->Arg(1);

void BM_SamePreviewHard(benchmark::State& state) {
  const auto game = make(Mode::same, "hard", "bench");
  const Move move = pick_click(*game, state.range(0));
  Preview preview;
  for (auto _ : state) {
    benchmark::DoNotOptimize(game->preview(move.a, preview));
    benchmark::DoNotOptimize(preview.cells.data());
  }
}
BENCHMARK(BM_SamePreviewHard)->Arg(0)->Arg(1);

void BM_SameHintHard(benchmark::State& state) {
  const auto game = make(Mode::same, "hard", "bench");
  Hint hint;
  for (auto _ : state) benchmark::DoNotOptimize(game->hint(hint));
}
BENCHMARK(BM_SameHintHard);

void BM_SameLegalMovesHard(benchmark::State& state) {
  const auto game = make(Mode::same, "hard", "bench");
  for (auto _ : state) benchmark::DoNotOptimize(game->legal_moves());
  state.counters["moves"] = static_cast<double>(game->legal_moves().size());
}
BENCHMARK(BM_SameLegalMovesHard);

// A whole game played by the hint, then replayed from setup and move list.
// classic / "replay-1" takes exactly 60 moves with that policy.
void BM_SameReplay(benchmark::State& state) {
  GameSetup setup;
  setup.mode = Mode::same;
  setup.preset = "classic";
  setup.seed = "replay-1";
  auto game = create_game(setup).game;
  EventList events;
  while (!game->over()) {
    Hint hint;
    game->hint(hint);
    events.clear();
    game->apply(hint.move, events);
  }
  const std::vector<Move> moves = game->moves();
  for (auto _ : state) benchmark::DoNotOptimize(replay(setup, moves));
  state.counters["moves"] = static_cast<double>(moves.size());
  state.counters["score"] = static_cast<double>(game->score());
}
BENCHMARK(BM_SameReplay)->Unit(benchmark::kMicrosecond);

void BM_Create(benchmark::State& state, Mode mode, std::string preset) {
  GameSetup setup;
  setup.mode = mode;
  setup.preset = preset;
  std::uint64_t n = 0;
  for (auto _ : state) {
    setup.seed = "create-" + std::to_string(n++ % 1024);
    benchmark::DoNotOptimize(create_game(setup));
  }
}

// All 20 standard positions (custom 15 x 15 boards), each played to the end
// by always taking the hint.
void BM_StandardSetGreedy(benchmark::State& state) {
  const std::vector<Board> boards =
      tilecrush::game::test::load_standard_testset(TILECRUSH_TEST_DATA_DIR);
  if (boards.size() != 20) {
    state.SkipWithError("standard test set not found");
    return;
  }
  std::int64_t total = 0, moves = 0;
  EventList events;
  for (auto _ : state) {
    total = 0;
    moves = 0;
    for (const Board& board : boards) {
      GameSetup setup;
      setup.mode = Mode::same;
      setup.seed = "standard";
      setup.board = board;
      auto game = create_game(setup).game;
      while (!game->over()) {
        Hint hint;
        game->hint(hint);
        events.clear();
        game->apply(hint.move, events);
      }
      total += game->score();
      moves += game->move_count();
    }
  }
  state.counters["total_score"] = static_cast<double>(total);
  state.counters["moves"] = static_cast<double>(moves);
}
BENCHMARK(BM_StandardSetGreedy)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  // One create benchmark per preset of every mode that can deal boards.
  for (const Mode mode : {Mode::same, Mode::match3, Mode::hidden}) {
    for (const Preset& p : presets(mode)) {
      const std::string preset(p.name);
      if (!make(mode, preset, "probe")) continue;
      const std::string name = "BM_Create/" + std::string(to_string(mode)) + "/" + preset;
      benchmark::RegisterBenchmark(name.c_str(), BM_Create, mode, preset);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
