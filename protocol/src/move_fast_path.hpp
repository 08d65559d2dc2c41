// A move read without building a JSON document: most messages a server
// reads are clicks and swaps of one shape, and parsing them into nlohmann's
// DOM costs a dozen allocations each.
//
// parse_move_fast() recognises only the plainest form of a move: one flat
// object whose keys are `type` (click, swap, peek, select, unselect),
// `game_id`, `x` and `y` (or `a` and `b` for a swap) and optionally `id`
// and `move_count`,
// each at most once, strings of printable ASCII without escapes, integers
// without fraction or exponent. For such a text it returns exactly what the
// full parser returns (same command, same id, of the same JSON type); for
// anything else it returns nullopt and the full parser decides, refusals
// included. A deliberate speed twin of that slow path (parse_full below):
// MoveFastPath.AgreesWithTheFullParser (tests/protocol/move_fast_path_test.cpp)
// and the fuzz target `fuzz_protocol` check the two agree.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string_view>

#include "tilecrush/protocol/commands.hpp"

namespace tilecrush::protocol::detail {

std::optional<ParseResult> parse_move_fast(std::string_view text);

// parse_client_message() without the fast path: what parse_move_fast() must
// agree with.
ParseResult parse_full(std::string_view text);

}  // namespace tilecrush::protocol::detail
