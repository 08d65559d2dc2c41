// tilecrush_verify's library: checking a competition's results export
// (read by export_reader.hpp) by replaying its entries with the rules
// engine and checking their order (README.md in this folder). No server, no
// database: only tilecrush_game and nlohmann_json.
//
// Nothing here throws on bad input: every problem is a message.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "export_reader.hpp"
#include "tilecrush/game/game.hpp"

namespace tilecrush::verify {

// Exit codes of the tool.
inline constexpr int kExitAgree = 0;     // every entry replays to its claim
inline constexpr int kExitDisagree = 1;  // a disagreement, or the key is not the committed one
inline constexpr int kExitUnusable = 2;  // bad arguments, unreadable export, nothing to verify

enum class Verdict { ok, mismatch, refused, malformed };

struct EntryCheck {
  Verdict verdict = Verdict::ok;
  std::string line;  // the entry's output line, without a newline
};

// Replays one entry on `setup` and compares its score and move count.
EntryCheck check_entry(const game::GameSetup& setup, const Entry& entry);

// The rank order, from the entries' fields alone (docs/rules.md,
// "Ranking"): the ranked entries first, ranked 1, 2, 3, ... in the order
// listed, each strictly ahead of the next by score descending, then fewer
// moves (same, match3) or a shorter duration (hidden), then the earlier
// finish, then the lower player id; then the unranked (disqualified) ones;
// no player twice. One line per problem ("ORDER     ..."); empty: in order.
std::vector<std::string> check_order(game::Mode mode, const std::vector<Entry>& entries);

// The whole tool: `args` without the program name. Writes the report to
// `out` and problems to `err`; returns the exit code.
int run(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace tilecrush::verify
