// Recovery codes (docs/protocol.md, "Recovery codes"): how they are made,
// read back as typed, and limited.
//
// A code is 20 characters of Crockford's base-32 alphabet (digits and
// capital letters without I, L, O and U), 100 bits from OpenSSL's
// RAND_bytes, shown in four groups of five: "7KQ2M-XW4DP-HB9RT-6VCNA".
// What a person types is read leniently: ASCII letters in either case,
// spaces and dashes anywhere, O read as 0 and I or L as 1. The canonical
// form (20 characters, no dashes) is what is hashed and stored.
//
// Thread safety: pure functions, except new_recovery_code(), which reads the
// OS random source through OpenSSL and may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::server {

inline constexpr std::size_t kRecoveryCodeChars = 20;
// Failed tries allowed per name within the window (a sliding window).
inline constexpr std::int64_t kRecoveryMaxFailures = 5;
inline constexpr std::chrono::minutes kRecoveryWindow{15};
// Device tokens a player keeps (one per recovery); the oldest go first.
inline constexpr std::int64_t kMaxDeviceTokens = 8;

// A new code as shown (with dashes); nullopt when the random source fails.
std::optional<std::string> new_recovery_code();

// The canonical form of a typed code, or nullopt when it cannot be one.
std::optional<std::string> canonical_recovery_code(std::string_view typed);

}  // namespace tilecrush::server
