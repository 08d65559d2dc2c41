// GET /api/archive (docs/protocol.md, "Archive"): every closed public
// competition, the dailies included, latest close first, paged by an opaque
// cursor, each with its key, field size and winner.
#include <algorithm>
#include <array>

#include "http/api_json.hpp"
#include "http/cache_lifetimes.hpp"
#include "http/http_api.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/protocol/archive_body.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;
using namespace api;

constexpr std::array<std::string_view, 4> kParams = {"limit", "before", "mode", "kind"};

}  // namespace

HttpAnswer HttpApi::archive(const protocol::RequestTarget& target) {
  for (const auto& [name, value] : target.query) {
    if (std::find(kParams.begin(), kParams.end(), name) == kParams.end()) {
      return error_answer(400, ErrorCode::bad_request,
                          "unknown parameter (limit, before, mode, kind)");
    }
  }
  const auto limit = protocol::int_param(target, "limit", 20, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const auto before = protocol::string_param(target, "before", false, 96);
  if (!before.ok()) return error_answer(*before.error);
  const auto mode = protocol::string_param(target, "mode", false, 16);
  if (!mode.ok()) return error_answer(*mode.error);
  const auto kind = protocol::string_param(target, "kind", false, 16);
  if (!kind.ok()) return error_answer(*kind.error);

  storage::ArchiveQuery query;
  query.now = now_();
  query.limit = limit.value;
  if (before.value) {
    const auto cursor = protocol::parse_archive_cursor(*before.value);
    if (!cursor) return error_answer(400, ErrorCode::bad_request, "before must be a next cursor");
    query.before = storage::ArchiveCursor{cursor->closes_at, cursor->id};
  }
  if (mode.value) {
    query.mode = game::parse_mode(*mode.value);
    if (!query.mode) {
      return error_answer(400, ErrorCode::bad_request, "mode must be same, match3 or hidden");
    }
  }
  if (kind.value) {
    if (*kind.value == "daily") {
      query.kind = storage::ArchiveKind::daily;
    } else if (*kind.value == "organised") {
      query.kind = storage::ArchiveKind::organised;
    } else {
      return error_answer(400, ErrorCode::bad_request, "kind must be daily or organised");
    }
  }

  const storage::ArchivePage page = db_.archive(query);
  std::vector<protocol::ArchiveItem> items;
  items.reserve(page.competitions.size());
  for (const storage::ArchiveEntry& e : page.competitions) {
    // Every listed competition has closed: its key is public, and comes
    // with the row (no read per row).
    protocol::ArchiveItem item{
        .competition = competition_view(e.competition, query.now, game::to_hex(e.key)),
        .entries = e.entries};
    if (e.winner) {
      item.winner = e.winner->player;
      item.winner_score = e.winner->score;
    }
    items.push_back(std::move(item));
  }
  std::optional<protocol::ArchiveCursor> next;
  if (page.next) next = protocol::ArchiveCursor{page.next->closes_at, page.next->id};
  HttpAnswer out = ok_json(protocol::archive_body(items, next));
  out.cache_control = before.value ? kOlderArchivePageCache : kFirstArchivePageCache;
  return out;
}

}  // namespace tilecrush::server
