// How long browsers and shared caches may keep the public pages of the HTTP
// API (their Cache-Control; docs/protocol.md names each). An answer that
// sets none is sent with "no-store" (net/http_session.cpp).
//
// Thread safety: constants.
#pragma once

#include <string_view>

namespace tilecrush::server::api {

// Leaderboard pages, competitions' and seasons' included. Boards still open
// change with every finished game: a short while, so that a burst of
// readers costs one answer each couple of seconds. A closed board changes
// only by a disqualification.
constexpr std::string_view kOpenBoardCache = "public, max-age=2";
constexpr std::string_view kClosedBoardCache = "public, max-age=3600";

// The archive. Its first page changes when a competition closes (the
// dailies at midnight UTC) and, for a little while after a close, as the
// games still running then are ended and counted: a short life. A page
// after a cursor holds only boards closed before it, which change only when
// an entry is disqualified (or a just-closed board's last games are
// counted, within seconds): browsers and caches may keep it for minutes.
constexpr std::string_view kFirstArchivePageCache = "public, max-age=30";
constexpr std::string_view kOlderArchivePageCache = "public, max-age=300";

}  // namespace tilecrush::server::api
