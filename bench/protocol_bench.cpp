// Reading a client's move: parse_client_message (whose fast path takes a
// plain click or swap without a JSON document) against the full parser
// alone, and a message the fast path leaves to the full parser.
#include <benchmark/benchmark.h>

#include <string>

#include "move_fast_path.hpp"
#include "tilecrush/protocol/commands.hpp"

namespace {

using namespace tilecrush::protocol;

// What the load generators send (game ids are 22 characters).
const std::string kClick =
    R"({"type":"click","game_id":"g-7kQ2x9Lm4Rt8Vw1Zb3Nc","x":4,"y":11,"id":1207})";
const std::string kSwap =
    R"({"type":"swap","game_id":"g-7kQ2x9Lm4Rt8Vw1Zb3Nc","a":[3,4],"b":[4,4],"id":88})";
const std::string kPreview =
    R"({"type":"preview","game_id":"g-7kQ2x9Lm4Rt8Vw1Zb3Nc","x":4,"y":11,"id":1207})";

void BM_ParseClick(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_client_message(kClick));
}
BENCHMARK(BM_ParseClick);

void BM_ParseClickFull(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(detail::parse_full(kClick));
}
BENCHMARK(BM_ParseClickFull);

void BM_ParseSwap(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_client_message(kSwap));
}
BENCHMARK(BM_ParseSwap);

void BM_ParseSwapFull(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(detail::parse_full(kSwap));
}
BENCHMARK(BM_ParseSwapFull);

// Not a move: the fast path's refusal costs this much on top of the full parse.
void BM_ParsePreview(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_client_message(kPreview));
}
BENCHMARK(BM_ParsePreview);

}  // namespace

BENCHMARK_MAIN();
