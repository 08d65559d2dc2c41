// Which rooms this process owns among several nodes on one database.
//
// PostgreSQL: a claim is a session-level advisory lock on a session of its
// own, so a node that dies (or whose session breaks) loses every claim at
// once, and PostgreSQL lets another node claim those rooms. A broken
// session is noticed by check() (or by the next claim) and bumps
// generation(): the owner of the claims must then give up every room it
// holds, since another node may have taken them. SQLite is one node: every
// claim succeeds.
//
// Thread safety: every method may be called from any thread; the session is
// used under a mutex (claims are rare: creating, taking over, ending rooms).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "connection.hpp"

namespace tilecrush::storage::detail {

class RoomClaims {
 public:
  // `url` empty: SQLite, where everything may be claimed.
  explicit RoomClaims(std::string url);
  ~RoomClaims();
  RoomClaims(const RoomClaims&) = delete;
  RoomClaims& operator=(const RoomClaims&) = delete;

  // True when the room is (now) this process's; false when another holds
  // it or the database cannot be reached.
  bool claim(std::string_view code);
  void release(std::string_view code);
  // Checks the session; a lost one drops every claim (generation + 1).
  void check();
  std::uint64_t generation() const;

 private:
  // With mutex_ held: the session, opened when there is none; null when the
  // database cannot be reached.
  Connection* session();
  void lose_session();

  const std::string url_;
  mutable std::mutex mutex_;
  std::unique_ptr<Connection> connection_;
  std::set<std::string, std::less<>> held_;
  std::uint64_t generation_ = 1;
};

// The advisory lock key of a room code: its bytes (codes are 6 characters)
// under a tag no other lock of storage uses.
std::int64_t room_lock_key(std::string_view code);

}  // namespace tilecrush::storage::detail
