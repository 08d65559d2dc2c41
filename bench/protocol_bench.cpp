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

// One message through one parser: the entry point (fast path first) or the
// full parser alone.
void BM_Parse(benchmark::State& state, ParseResult (*parse)(std::string_view),
              const std::string& text) {
  for (auto _ : state) benchmark::DoNotOptimize(parse(text));
}

BENCHMARK_CAPTURE(BM_Parse, click, &parse_client_message, kClick);
BENCHMARK_CAPTURE(BM_Parse, click_full, &detail::parse_full, kClick);
BENCHMARK_CAPTURE(BM_Parse, swap, &parse_client_message, kSwap);
BENCHMARK_CAPTURE(BM_Parse, swap_full, &detail::parse_full, kSwap);
// Not a move: what the fast path's refusal adds to the full parse.
BENCHMARK_CAPTURE(BM_Parse, preview, &parse_client_message, kPreview);
BENCHMARK_CAPTURE(BM_Parse, preview_full, &detail::parse_full, kPreview);

}  // namespace

BENCHMARK_MAIN();
