// Random identifiers and secrets. Uses the operating system's random source
// (std::random_device reads getrandom on Linux): never predictable.
//
// Thread safety: all functions are thread-safe.
#pragma once

#include <string>

namespace tilecrush::server {

// A 128-bit secret as 32 lowercase hex digits.
std::string random_token();
// A game id: 16 lowercase hex digits (64 bits).
std::string random_game_id();
// A seed for a game started without one: 10 characters of [a-z2-9].
std::string random_seed();
// A competition id, also the code of an unlisted one's link: 12
// characters of [a-z2-9] (60 bits: not guessable).
std::string random_competition_id();
// A room code easy to read aloud: 6 characters without 0/O/1/I/L/U.
std::string random_room_code();

}  // namespace tilecrush::server
