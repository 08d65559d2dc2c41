// The leaderboard pages of the HTTP API: a casual (or rules-version-1)
// board's, by offset and around a player, and the single path every
// leaderboard page takes (competitions' too): validators, caching, and the
// rendered pages kept per board revision (protocol.md, "Caching
// leaderboard pages").
#include "http/api_json.hpp"
#include "http/cache_lifetimes.hpp"
#include "http/http_api.hpp"
#include "ops/clock.hpp"
#include "tilecrush/game/presets.hpp"
#include "tilecrush/protocol/http_bodies.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;
using namespace api;

// If-None-Match: "*" or a comma-separated list of entity tags, compared
// weakly (a W/ prefix is ignored), as RFC 9110 asks of GET.
bool etag_listed(std::string_view header, std::string_view etag) {
  while (!header.empty()) {
    const std::size_t comma = header.find(',');
    std::string_view tag = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) tag.remove_prefix(1);
    while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t')) tag.remove_suffix(1);
    if (tag == "*") return true;
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

// mode, preset (which must exist) and seed: the board a leaderboard is for.
std::optional<storage::BoardKey> board_key(const protocol::RequestTarget& target,
                                           protocol::HttpError& error) {
  auto mode = protocol::string_param(target, "mode", true);
  auto preset = protocol::string_param(target, "preset", true);
  auto seed = protocol::string_param(target, "seed", true);
  for (auto* p : {&mode, &preset, &seed}) {
    if (!p->ok()) {
      error = *p->error;
      return std::nullopt;
    }
  }
  const auto parsed_mode = game::parse_mode(*mode.value);
  if (!parsed_mode) {
    error = {400, ErrorCode::bad_request, "unknown mode"};
    return std::nullopt;
  }
  if (!game::find_preset(*parsed_mode, *preset.value)) {
    error = {400, ErrorCode::bad_request, "unknown preset for this mode"};
    return std::nullopt;
  }
  // rules_version=1: the boards of version-1 games (dealt from the seed
  // alone); otherwise the casual board of that label.
  const auto version = protocol::int_param(target, "rules_version", game::kRulesVersion,
                                           game::kMinRulesVersion, game::kRulesVersion);
  if (!version.ok()) {
    error = *version.error;
    return std::nullopt;
  }
  return storage::BoardKey{*parsed_mode, *preset.value, *seed.value,
                           version.value == 1 ? std::string(storage::kScopeV1) : std::string()};
}

// The page as protocol shows it: the board's label, and the competition's id
// on a competition's board.
protocol::LeaderboardPage page_view(const storage::BoardKey& board,
                                    const std::optional<std::string>& competition,
                                    const storage::LeaderboardPage& page) {
  protocol::LeaderboardPage view{board.mode, board.preset, board.seed, competition, page.total, {}};
  view.entries.reserve(page.entries.size());
  for (const storage::LeaderboardEntry& e : page.entries) {
    view.entries.push_back({e.rank, e.player, e.score, e.move_count, e.duration_ms, e.attempts,
                            e.game_id, iso_time(e.finished_at)});
  }
  return view;
}

}  // namespace

std::string HttpApi::etag_safe(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const bool safe = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
                      (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '-' || ch == '_' || ch == '+';
    out += safe ? ch : '_';
  }
  return out;
}

std::string HttpApi::page_etag(const storage::BoardRevision& at) const {
  // The version: a new release may write the same page differently.
  return "\"lb-" + std::to_string(at.revision) + "-" + std::to_string(at.entries) + "-" +
         etag_version_ + "\"";
}

HttpAnswer HttpApi::board_page(const ApiRequest& request, const PageRequest& what,
                               const PageReader& read) {
  // One primary-key read says whether the caller's copy, or ours, is the
  // board as it is now.
  const storage::BoardRevision now = db_.leaderboard_revision(what.board);
  return cached_page(request, {what.closed, what.always_exists, what.cache_key}, now,
                     "player not on this leaderboard",
                     [&]() -> std::optional<std::pair<storage::BoardRevision, std::string>> {
                       const std::optional<storage::LeaderboardPage> page = read();
                       if (!page) return std::nullopt;
                       return std::pair{storage::BoardRevision{page->total, page->revision},
                                        protocol::dump(protocol::leaderboard_body(
                                            page_view(what.board, what.competition, *page)))};
                     });
}

HttpAnswer HttpApi::cached_page(const ApiRequest& request, const CachedPage& what,
                                const storage::BoardRevision& now, std::string_view missing,
                                const PageRenderer& render) {
  auto answer = [&](std::string etag, std::string body, bool modified) {
    HttpAnswer out = modified ? HttpAnswer(200, std::move(body)) : HttpAnswer(304, {});
    out.cache_control = what.closed ? kClosedBoardCache : kOpenBoardCache;
    out.etag = std::move(etag);
    return out;
  };
  std::string etag = page_etag(now);
  const bool theirs = !request.if_none_match.empty() && etag_listed(request.if_none_match, etag);
  std::optional<std::string> kept = pages_->find(what.cache_key, now);
  if (theirs && (kept || what.always_exists)) return answer(std::move(etag), {}, false);
  if (kept) return answer(std::move(etag), std::move(*kept), true);

  auto rendered = render();
  if (!rendered) return error_answer(404, ErrorCode::not_found, missing);
  // The page may be of a later revision than `now`: its own is its ETag.
  auto& [at, body] = *rendered;
  etag = page_etag(at);
  pages_->store(what.cache_key, at, body);
  const bool current = !request.if_none_match.empty() && etag_listed(request.if_none_match, etag);
  return answer(std::move(etag), std::move(body), !current);
}

HttpAnswer HttpApi::leaderboard(const ApiRequest& request, const protocol::RequestTarget& target) {
  protocol::HttpError error;
  const auto board = board_key(target, error);
  if (!board) return error_answer(error);
  const auto limit = protocol::int_param(target, "limit", 20, 1, 100);
  if (!limit.ok()) return error_answer(*limit.error);
  const auto offset = protocol::int_param(target, "offset", 0, 0, INT64_MAX / 2);
  if (!offset.ok()) return error_answer(*offset.error);
  const PageRequest what{
      *board, false, true,
      PageCache::key_of({"page", board->scope, game::to_string(board->mode), board->preset,
                         board->seed, std::to_string(limit.value), std::to_string(offset.value)})};
  return board_page(request, what, [&] {
    return std::optional(db_.leaderboard(*board, limit.value, offset.value));
  });
}

HttpAnswer HttpApi::leaderboard_around(const ApiRequest& request,
                                       const protocol::RequestTarget& target) {
  protocol::HttpError error;
  const auto board = board_key(target, error);
  if (!board) return error_answer(error);
  const auto player = protocol::string_param(target, "player", true, 32);
  if (!player.ok()) return error_answer(*player.error);
  const auto radius = protocol::int_param(target, "radius", 5, 0, 50);
  if (!radius.ok()) return error_answer(*radius.error);
  const PageRequest what{
      *board, false, false,
      PageCache::key_of({"around", board->scope, game::to_string(board->mode), board->preset,
                         board->seed, *player.value, std::to_string(radius.value)})};
  return board_page(request, what,
                    [&] { return db_.leaderboard_around(*board, *player.value, radius.value); });
}

}  // namespace tilecrush::server
