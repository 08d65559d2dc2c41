// Checking a results export: each entry replayed to its claim, and the
// order of the entries (verify.hpp).
#include "verify.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tilecrush::verify {

namespace {

// "#3 carol" or "#- mallory" for an entry without a rank.
std::string who(const Entry& e) {
  return "#" + (e.rank ? std::to_string(*e.rank) : std::string("-")) + " " + printable(e.player);
}

std::string flags_suffix(const Entry& e) {
  if (e.flags.empty()) return {};
  std::string out = " (";
  for (std::size_t i = 0; i < e.flags.size(); ++i) {
    out += (i ? ", " : "") + printable(e.flags[i]);
  }
  return out + ")";
}

}  // namespace

std::vector<std::string> check_order(game::Mode mode, const std::vector<Entry>& entries) {
  std::vector<std::string> problems;
  const bool by_time = mode == game::Mode::hidden;
  const char* tiebreak = by_time ? "a shorter time" : "fewer moves";
  std::int64_t next_rank = 1;
  const Entry* previous = nullptr;  // the ranked entry listed just before
  bool unranked_seen = false;
  std::vector<std::int64_t> players;
  for (const Entry& e : entries) {
    const bool disqualified =
        std::find(e.flags.begin(), e.flags.end(), "disqualified") != e.flags.end();
    if (std::find(players.begin(), players.end(), e.player_id) != players.end()) {
      problems.push_back("ORDER     " + who(e) + ": player id " + std::to_string(e.player_id) +
                         " has another entry");
    }
    players.push_back(e.player_id);
    if (!e.rank) {
      unranked_seen = true;
      if (!disqualified) {
        problems.push_back("ORDER     " + who(e) + " has no rank but is not disqualified");
      }
      continue;
    }
    if (disqualified) {
      problems.push_back("ORDER     " + who(e) + " is disqualified but ranked");
    }
    if (unranked_seen) {
      problems.push_back("ORDER     " + who(e) + " is listed after an entry without a rank");
    }
    if (*e.rank != next_rank) {
      problems.push_back("ORDER     " + who(e) + " should be ranked " + std::to_string(next_rank));
    }
    ++next_rank;
    if (previous) {
      const Entry& a = *previous;
      const std::int64_t ta = by_time ? a.duration_ms : a.move_count;
      const std::int64_t tb = by_time ? e.duration_ms : e.move_count;
      std::string why;
      if (a.score != e.score) {
        if (a.score < e.score) why = "a higher score";
      } else if (ta != tb) {
        if (tb < ta) why = std::string("the same score with ") + tiebreak;
      } else if (a.finished_at != e.finished_at) {
        if (e.finished_at < a.finished_at) why = "the same score and tie-break, finished earlier";
      } else if (e.player_id <= a.player_id) {
        why = "a tie on everything else, registered earlier (a lower player id)";
      }
      if (!why.empty()) {
        problems.push_back("ORDER     " + who(e) + " must rank above " + who(a) + ": " + why);
      }
    }
    previous = &e;
  }
  return problems;
}

EntryCheck check_entry(const game::GameSetup& setup, const Entry& entry) {
  const std::string game = "game " + printable(entry.game_id);
  const std::string flags = flags_suffix(entry);
  const MovesResult parsed = parse_moves(entry.moves);
  if (!parsed.ok()) {
    return {Verdict::malformed,
            "MALFORMED " + who(entry) + " " + parsed.error + " (" + game + ")" + flags};
  }
  const game::ReplayResult replayed = game::replay(setup, parsed.moves);
  if (!replayed.game) {
    return {Verdict::refused,
            "REFUSED   " + who(entry) + " " + replayed.error + " (" + game + ")" + flags};
  }
  const std::int64_t score = replayed.game->score();
  const std::int64_t count = replayed.game->move_count();
  const auto moves_text = [](std::int64_t n) { return std::to_string(n) + " moves"; };
  if (score == entry.score && count == entry.move_count) {
    return {Verdict::ok, "ok        " + who(entry) + " " + std::to_string(score) + " (" +
                             moves_text(count) + ") " + game + flags};
  }
  std::string claim, replay;
  if (score != entry.score && count != entry.move_count) {
    claim = std::to_string(entry.score) + " in " + moves_text(entry.move_count);
    replay = std::to_string(score) + " in " + moves_text(count);
  } else if (score != entry.score) {
    claim = std::to_string(entry.score);
    replay = std::to_string(score);
  } else {
    claim = moves_text(entry.move_count);
    replay = moves_text(count);
  }
  return {Verdict::mismatch, "MISMATCH  " + who(entry) + " claims " + claim + ", replay gives " +
                                 replay + " (" + game + ")" + flags};
}

}  // namespace tilecrush::verify
