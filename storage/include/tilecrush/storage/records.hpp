// The values storage reads and writes, one header per area: players
// (player_records.hpp), games (game_records.hpp), competitions, boards'
// keys and organisers (competition_records.hpp), leaderboards
// (leaderboard_records.hpp), rooms finished and open (room_records.hpp),
// and write outcomes (write_results.hpp). This header includes them all.
//
// Every time is in milliseconds since the Unix epoch (UTC), given by the
// caller: storage never reads the clock for data it keeps.
//
// Thread safety: plain values.
#pragma once

#include "tilecrush/storage/competition_records.hpp"
#include "tilecrush/storage/game_records.hpp"
#include "tilecrush/storage/leaderboard_records.hpp"
#include "tilecrush/storage/player_records.hpp"
#include "tilecrush/storage/room_records.hpp"
#include "tilecrush/storage/write_results.hpp"
