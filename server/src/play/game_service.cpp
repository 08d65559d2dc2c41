#include "play/game_service.hpp"

#include "ops/clock.hpp"
#include "play/ids.hpp"
#include "tilecrush/protocol/views.hpp"
#include "tilecrush/storage/token_hash.hpp"

namespace tilecrush::server {
namespace {

using protocol::ErrorCode;

}  // namespace

GameService::GameService(storage::Database& db, Metrics& metrics, NowFn now, BoardKeys& keys,
                         Competitions& competitions)
    : db_(db),
      metrics_(metrics),
      now_(std::move(now)),
      keys_(keys),
      competitions_(competitions),
      db_pool_(std::make_unique<net::thread_pool>(2)),
      shared_db_(db.settings().backend == "postgresql") {}

void GameService::post_to_pool(std::function<void()> work) {
  net::post(*db_pool_, std::move(work));
}

GameService::~GameService() {
  stop();
}

void GameService::stop() {
  if (db_pool_) db_pool_->join();
}

void GameService::subscribe(GameObserver& observer) {
  observers_.push_back(&observer);
}

void GameService::unsubscribe(GameObserver& observer) {
  std::erase(observers_, &observer);
}

void GameService::notify_progress(LiveGame& live, const game::EventList& events) {
  for (GameObserver* o : observers_) o->on_game_progress(live, events);
}

void GameService::retire(const std::shared_ptr<LiveGame>& live) {
  live->retired = true;
  games_.erase(live->id, live.get());
}

void GameService::handle(const RequestPtr& req, const protocol::Hello& cmd) {
  if (req->state().player_id) {
    return req->fail(ErrorCode::not_allowed, "already said hello on this connection");
  }
  net::post(*db_pool_, [this, req, cmd]() {
    // The connection's state is written on its own thread.
    auto welcome = [req](std::int64_t id, std::string name, std::string token,
                         nlohmann::json running) {
      net::post(req->conn()->executor(), [req, id, name, token, running = std::move(running)]() {
        req->state().player_id = id;
        req->state().player_name = name;
        nlohmann::json answer = protocol::welcome(req->id(), id, name, token);
        answer["running"] = running;
        req->answer(std::move(answer));
      });
    };
    auto refuse = [req](ErrorCode code, std::string message) { req->fail(code, message); };
    // A recovery code instead of a token: another device of a known name.
    if (cmd.recovery) return recover(cmd, welcome, refuse);
    std::optional<storage::PlayerRecord> player;
    try {
      player = db_.find_player_by_name(cmd.name);
    } catch (const std::exception&) {
      return refuse(ErrorCode::internal, "storage unavailable");
    }
    if (player) {
      if (!cmd.token) return refuse(ErrorCode::unauthorized, "name taken");
      bool owned = false;
      try {
        owned = owns_name(*player, *cmd.token);
      } catch (const std::exception&) {
        return refuse(ErrorCode::internal, "storage unavailable");
      }
      if (!owned) return refuse(ErrorCode::unauthorized, "wrong token for this name");
      nlohmann::json running;
      try {
        running = running_list(player->id);
      } catch (const std::exception&) {
        return refuse(ErrorCode::internal, "storage unavailable");
      }
      return welcome(player->id, player->name, *cmd.token, std::move(running));
    }
    // A new name: a fresh secret, whatever token the client sent.
    std::string token = random_token();
    db_.create_player(cmd.name, storage::hash_token(token), now_(),
                      [welcome, refuse, name = cmd.name, token](const storage::WriteResult& r) {
                        // A new player has no game yet.
                        if (r.ok()) return welcome(r.id, name, token, nlohmann::json::array());
                        if (r.status == storage::WriteStatus::name_taken) {
                          return refuse(ErrorCode::unauthorized, "name taken");
                        }
                        refuse(ErrorCode::internal, "could not save the player");
                      });
  });
}

nlohmann::json GameService::running_list(std::int64_t player_id) {
  const std::vector<storage::RunningAttempt> found =
      db_.running_attempts(player_id, now_(), kRunningListed, kRunningScanned);
  std::vector<protocol::RunningView> views;
  views.reserve(found.size());
  for (const storage::RunningAttempt& a : found) {
    views.push_back({a.game_id, a.competition, a.mode, a.preset, a.attempt, a.ranked, a.score,
                     a.move_count, iso_time(a.created_at), iso_time(a.closes_at)});
  }
  return protocol::running_list(views);
}

void GameService::handle(const RequestPtr& req, const protocol::Running&) {
  const std::int64_t player_id = *req->state().player_id;
  net::post(*db_pool_, [this, req, player_id]() {
    nlohmann::json list;
    try {
      list = running_list(player_id);
    } catch (const std::exception&) {
      return req->fail(ErrorCode::internal, "storage unavailable");
    }
    req->answer(protocol::running_reply(req->id(), std::move(list)));
  });
}

std::size_t GameService::evict_idle(std::chrono::milliseconds idle) {
  return games_.evict_idle(now_() - idle.count());
}

}  // namespace tilecrush::server
