// The JSON HTTP API under /api/ and /metrics (protocol.md, "HTTP API").
//
// Thread safety: handle() may be called from any thread; answers are
// computed on the API's own thread pool (storage reads block there, never on
// the network threads) and delivered through the callback.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "http/page_cache.hpp"
#include "net/http_session.hpp"
#include "ops/metrics.hpp"
#include "play/competitions.hpp"
#include "tilecrush/protocol/competition_bodies.hpp"
#include "tilecrush/protocol/http_query.hpp"
#include "tilecrush/storage/database.hpp"

namespace tilecrush::server {

class HttpApi {
 public:
  using NowFn = std::function<std::int64_t()>;

  HttpApi(storage::Database& db, Metrics& metrics, NowFn now, std::string version,
          Competitions& competitions, const std::string& operator_token);
  ~HttpApi();

  void handle(ApiRequest request, std::function<void(HttpAnswer)> done);
  // Synchronous forms, for tests and the thread pool.
  HttpAnswer answer(const ApiRequest& request);
  HttpAnswer answer(const std::string& target) {
    return answer(ApiRequest{"GET", target, {}, {}, {}});
  }
  void stop();
  // The rendered leaderboard pages kept (read-only: the gauges of /metrics).
  const PageCache& page_cache() const { return *pages_; }

 private:
  // Who sent a request: the operator, an organiser, or nobody known.
  struct Caller {
    bool is_operator = false;
    std::optional<storage::OrganiserRecord> organiser;
    bool known() const { return is_operator || organiser.has_value(); }
  };
  Caller caller_of(const ApiRequest& request);

  HttpAnswer health() const;
  HttpAnswer daily(const protocol::RequestTarget& target);
  HttpAnswer leaderboard(const ApiRequest& request, const protocol::RequestTarget& target);
  HttpAnswer leaderboard_around(const ApiRequest& request, const protocol::RequestTarget& target);
  HttpAnswer player(const std::string& name);
  // `authorization`: the request's header; a player's token gives that
  // player their own game's moves before they are public.
  HttpAnswer finished_game(const std::string& game_id, bool verify, std::string_view authorization);
  // GET /api/games/{id}/replay: the game's steps, once its moves are public
  // (to its own player, with their token, before).
  HttpAnswer game_replay(const std::string& game_id, std::string_view authorization);
  // Whether a finished game's moves are still secret to the public, and when
  // they are published (a competition board's close; nullopt: never, or at
  // once).
  struct MovesSecrecy {
    bool secret = false;
    std::optional<std::int64_t> revealed_at;
  };
  MovesSecrecy moves_secrecy(const storage::GameRecord& record);
  // True when `authorization` is "Bearer <token>" with one of the player's
  // tokens (the first, or a device's).
  bool is_player_token(std::string_view authorization, storage::PlayerId player);

  // A player's history (history_api.cpp): GET /api/players/{name}/games
  // and .../calendar. The player named, and what `authorization` lets see
  // of them (their own token: everything; else closed boards only);
  // nullopt for an unknown name.
  std::optional<storage::PlayerRecord> history_subject(const std::string& name,
                                                       std::string_view authorization,
                                                       storage::HistoryView& view);
  HttpAnswer player_games(const ApiRequest& request, const std::string& name,
                          const protocol::RequestTarget& target);
  HttpAnswer player_calendar(const ApiRequest& request, const std::string& name,
                             const protocol::RequestTarget& target);

  // Competitions (competition_api.cpp).
  HttpAnswer competitions_route(const ApiRequest& request, const protocol::RequestTarget& target);
  HttpAnswer list_competitions(const protocol::RequestTarget& target);
  HttpAnswer create_competition(const ApiRequest& request);
  HttpAnswer one_competition(const storage::CompetitionRecord& c,
                             const protocol::RequestTarget& target);
  HttpAnswer competition_leaderboard(const storage::CompetitionRecord& c, const ApiRequest& request,
                                     const protocol::RequestTarget& target, bool around);
  HttpAnswer competition_results(const storage::CompetitionRecord& c,
                                 const protocol::RequestTarget& target);
  HttpAnswer disqualify(const storage::CompetitionRecord& c, const ApiRequest& request);
  // GET /api/organiser/competitions: the caller's own competitions.
  HttpAnswer organiser_competitions(const ApiRequest& request,
                                    const protocol::RequestTarget& target);
  // GET /api/archive: closed public competitions, paged (archive_api.cpp).
  HttpAnswer archive(const protocol::RequestTarget& target);
  // Every leaderboard page (leaderboard_api.cpp). Pages may be kept by
  // browsers, nginx or a CDN: validated by an ETag made of the board's
  // revision, for a short while on open boards and for long on closed ones
  // (protocol.md, "Caching leaderboard pages"). board_page() answers 304
  // when If-None-Match names the board's current ETag, else the rendering
  // kept from an earlier read at that revision, else what read() gives,
  // rendered by protocol::leaderboard_body(); read() gives nullopt for a page
  // that does not exist (a player not on the board: 404).
  struct PageRequest {
    storage::BoardKey board;
    bool closed = false;
    bool always_exists = true;                 // pages by offset exist whatever the board holds
    std::string cache_key;                     // PageCache::key_of() of what the page shows
    std::optional<std::string> competition{};  // a competition's board: its id, in the page
  };
  using PageReader = std::function<std::optional<storage::LeaderboardPage>()>;
  HttpAnswer board_page(const ApiRequest& request, const PageRequest& what, const PageReader& read);
  std::string page_etag(const storage::BoardRevision& at) const;
  // What board_page() does for any page kept per revision (a board's, a
  // season's): `now` the revision as read before, render() the page read
  // and rendered with the revision it was read at, or nullopt for a page
  // that does not exist (404 not_found with `missing`).
  struct CachedPage {
    bool closed = false;
    bool always_exists = true;
    std::string cache_key;
  };
  using PageRenderer =
      std::function<std::optional<std::pair<storage::BoardRevision, std::string>>()>;
  HttpAnswer cached_page(const ApiRequest& request, const CachedPage& what,
                         const storage::BoardRevision& now, std::string_view missing,
                         const PageRenderer& render);

  // Seasons (season_api.cpp): GET /api/seasons?mode=, GET
  // /api/seasons/{period}?mode=&limit=&offset= and GET
  // /api/seasons/{period}/around?mode=&player=&radius=.
  HttpAnswer seasons_route(const ApiRequest& request, const protocol::RequestTarget& target);
  HttpAnswer season_index(const protocol::RequestTarget& target);
  HttpAnswer season_standings(const ApiRequest& request, const protocol::RequestTarget& target,
                              const std::string& period, bool around);
  static std::string etag_safe(std::string_view text);

  // The competition as shown at `now`, its key once it has closed.
  protocol::CompetitionView competition_view(const storage::CompetitionRecord& c, std::int64_t now);
  // The same with the key already known (the archive reads it with the row).
  protocol::CompetitionView competition_view(const storage::CompetitionRecord& c, std::int64_t now,
                                             std::optional<std::string> key);
  // The hex of a competition's board key from its close on; nullopt before
  // (and when storage fails to give it).
  std::optional<std::string> published_key(const storage::CompetitionRecord& c, std::int64_t now);

  storage::Database& db_;
  Metrics& metrics_;
  NowFn now_;
  std::string version_;
  std::string etag_version_;  // version_ with only ETag-safe characters
  std::unique_ptr<PageCache> pages_;
  std::int64_t started_at_;
  Competitions& competitions_;
  std::string operator_token_hash_;  // empty: no operator over HTTP
  std::unique_ptr<net::thread_pool> pool_;
};

}  // namespace tilecrush::server
