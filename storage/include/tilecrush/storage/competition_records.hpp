// The values of competitions: boards' secret keys, competitions,
// organisers and the flags on entries.
//
// Every time is in milliseconds since the Unix epoch (UTC), given by the
// caller: storage never reads the clock for data it keeps.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/player_records.hpp"

namespace tilecrush::storage {

// A board's secret key (rules version 2) and when it may be revealed.
struct BoardRecord {
  std::string scope;  // "" casual, else the competition's id
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  game::BoardSecret key{};
  std::string commitment;  // game::commitment(key)
  std::int64_t created_at = 0;
  // The key may be published from then on; nullopt: never (casual boards).
  std::optional<std::int64_t> closes_at;
};

using OrganiserId = std::int64_t;

struct OrganiserRecord {
  OrganiserId id = 0;
  std::string name;        // unique ignoring ASCII case
  std::string token_hash;  // hash_token(token)
  std::int64_t created_at = 0;
};

// A competition: one board (mode, preset, seed label, key) open from
// opens_at to closes_at. The built-in dailies are competitions too.
struct CompetitionRecord {
  std::string id;
  std::string name;
  game::Mode mode = game::Mode::same;
  std::string preset;
  std::string seed;
  std::int64_t opens_at = 0;
  std::int64_t closes_at = 0;
  std::optional<int> attempts;  // nullopt: unlimited
  bool first_counts = false;    // else the best attempt counts
  bool unlisted = false;
  bool daily = false;
  std::optional<OrganiserId> organiser_id;  // nullopt: the operator's (dailies)
  std::string organiser_name;               // filled by reads
  std::int64_t created_at = 0;
  // Set once the closing work is done: games still running ended, every
  // entry replayed again.
  bool closed = false;
  std::string commitment;  // filled by reads, from the board
};

// Listings: public competitions by where `now` falls in their window, and
// (to_close) every competition past its close whose closing work is not done.
enum class CompetitionState : std::uint8_t { upcoming, open, closed, to_close };

// One page of an organiser's own competitions (every state, unlisted ones
// included), newest first, and how many they have in all.
struct OrganiserCompetitions {
  std::int64_t total = 0;
  std::vector<CompetitionRecord> competitions;
};

// A mark on a competition entry: "disqualified" (by its organiser or the
// operator, out of the ranking) or "replay_failed" (found at the close).
struct EntryFlag {
  std::string competition_id;
  PlayerId player_id = 0;
  std::string player;  // filled by reads
  std::string flag;
  std::string game_id;
  std::string reason;
  std::int64_t at = 0;
};

}  // namespace tilecrush::storage
