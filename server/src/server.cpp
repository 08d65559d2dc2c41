#include "server.hpp"

#include <sched.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "net/reply_inbox.hpp"
#include "net/websocket_session.hpp"
#include "ops/clock.hpp"
#include "ops/heap.hpp"
#include "ops/prometheus_text.hpp"
#include "rooms/room_manager.hpp"

#ifndef TILECRUSH_VERSION
#define TILECRUSH_VERSION "dev"
#endif

namespace tilecrush::server {

namespace {

// The static folder's files, or none (a warning when the folder is named
// and missing).
std::unique_ptr<StaticFiles> static_files_of(const Config& config) {
  std::error_code ec;
  if (!config.static_dir.empty() && std::filesystem::is_directory(config.static_dir, ec)) {
    return std::make_unique<StaticFiles>(config.static_dir);
  }
  if (!config.static_dir.empty()) {
    std::cerr << "warning: static folder " << config.static_dir << " not found; / serves nothing\n";
  }
  return nullptr;
}

// The answers a committed batch completes reach each network thread in one
// drain (ReplyInbox's gathering), not one wake-up an answer.
class GatheredReplies final : public storage::CompletionObserver {
 public:
  void completions_begin() noexcept override { ReplyInbox::begin_gathering(); }
  void completions_end() noexcept override { ReplyInbox::end_gathering(); }
};
GatheredReplies gathered_replies;  // stateless: outlives every Database

// The database's options; a SQLite file's folder is created first.
storage::Options storage_options(const Config& config) {
  if (!storage::is_postgres_url(config.db)) {
    std::error_code ec;
    const std::filesystem::path db_path(config.db);
    if (db_path.has_parent_path()) std::filesystem::create_directories(db_path.parent_path(), ec);
  }
  storage::Options options;
  options.path = config.db;
  options.completions = &gathered_replies;
  options.synchronous =
      config.db_full_sync ? storage::Synchronous::full : storage::Synchronous::normal;
  if (config.db_linger_us) {
    storage::Linger linger =
        storage::is_postgres_url(config.db) ? storage::kPostgresLinger : storage::kSqliteLinger;
    linger.bound = std::chrono::microseconds(*config.db_linger_us);
    options.linger = linger;
  }
  return options;
}

// One network thread per CPU this process may run on: under taskset or a
// container's cpuset that is fewer than the machine's (which is what
// hardware_concurrency counts), and more threads than CPUs only take turns.
unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    return static_cast<unsigned>(CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

BoardKeys::KeySource key_source_of(const Config& config) {
  if (!config.board_key_source) return BoardKeys::system_random();
  return [source = config.board_key_source](const storage::BoardKey& b) {
    return source(b.scope, static_cast<int>(b.mode), b.preset, b.seed);
  };
}

}  // namespace

// The parts are built in the order they are declared, each over those
// before it.
Server::Server(const Config& config)
    : config_(config),
      pool_(config.threads == 0 ? usable_cpus() : config.threads),
      connection_limits_(std::make_shared<ConnectionLimits>(config.max_connections,
                                                            config.max_connections_per_address)),
      static_files_(static_files_of(config)),
      db_(storage_options(config)),
      now_(config.now ? config.now : std::function<std::int64_t()>(now_ms)),
      board_keys_(db_, key_source_of(config), now_),
      competitions_(db_, board_keys_, now_, DailyRules{config.daily_attempts}),
      service_(db_, metrics_, now_, board_keys_, competitions_),
      rooms_(service_, db_, pool_.at(0).get_executor(), now_, RoomLimits{}, config.node_id),
      dispatcher_(service_, &rooms_, metrics_),
      api_(db_, metrics_, now_, TILECRUSH_VERSION, competitions_, config.operator_token) {
  limits_.rate_per_second = config.rate_per_second;
  limits_.rate_burst = config.rate_burst;
  limits_.idle_timeout = std::chrono::seconds(config.idle_timeout_s);
  limits_.http_timeout = std::chrono::seconds(config.http_timeout_s);
  // The open rooms of the previous run, before anyone can connect.
  rooms_.restore();
  metrics_.set_extra_source([this]() {
    const storage::WriterMetrics m = db_.metrics();
    PrometheusText out;
    auto seconds = [](std::uint64_t ns) { return static_cast<double>(ns) / 1e9; };
    out.metric("tilecrush_db_queue_depth", "gauge", "Writes queued for the database.",
               m.queue_depth);
    out.metric("tilecrush_db_batches_total", "counter", "Write transactions committed.",
               m.batches_committed);
    out.metric("tilecrush_db_ops_total", "counter", "Writes committed.", m.ops_committed);
    out.metric("tilecrush_db_ops_failed_total", "counter", "Writes refused or lost.", m.ops_failed);
    out.metric("tilecrush_db_commit_seconds_total", "counter", "Time spent in write transactions.",
               seconds(m.total_commit_latency_ns));
    out.metric("tilecrush_db_last_commit_seconds", "gauge",
               "Duration of the last write transaction.", seconds(m.last_commit_latency_ns));
    out.metric("tilecrush_db_checkpoints_total", "counter",
               "WAL checkpoints run by the checkpoint thread.", m.checkpoints);
    out.metric("tilecrush_db_batches_lingered_total", "counter",
               "Write transactions the writer waited for more writes before (--db-linger).",
               m.batches_lingered);
    const storage::RankCacheMetrics r = db_.rank_cache_metrics();
    out.metric("tilecrush_leaderboard_indexed_reads_total", "counter",
               "Leaderboard pages and around-me served through a rank index.", r.indexed_reads);
    out.metric(
        "tilecrush_leaderboard_plain_reads_total", "counter",
        "Leaderboard reads by the ordered scan (empty boards, boards over the cache budget).",
        r.plain_reads);
    out.metric("tilecrush_rank_index_loads_total", "counter", "Boards' rank indexes loaded whole.",
               r.loads);
    out.metric("tilecrush_rank_index_changes_total", "counter",
               "Changes of place rank indexes followed from the log.", r.changes_applied);
    out.metric("tilecrush_rank_index_mismatches_total", "counter",
               "Rank indexes found disagreeing with the rows and dropped (never expected).",
               r.mismatches);
    out.metric("tilecrush_live_games", "gauge", "Games held in memory.", service_.live_games());
    // What else grows with use, each with its bound (server/README.md,
    // "What grows with use").
    out.metric("tilecrush_rank_index_boards", "gauge",
               "Boards with a rank index slot (at most 4096).", r.boards);
    out.metric("tilecrush_rank_index_keys", "gauge",
               "Keys held by the rank indexes (at most 4,000,000).", r.keys);
    out.metric("tilecrush_page_cache_pages", "gauge", "Rendered leaderboard pages kept.",
               api_.page_cache().pages());
    out.metric("tilecrush_page_cache_bytes", "gauge",
               "Bytes of the rendered pages kept, as counted against their 16 MiB budget.",
               api_.page_cache().bytes());
    out.metric("tilecrush_board_keys_cached", "gauge", "Board keys cached (at most 16,384).",
               board_keys_.cached_count());
    out.metric("tilecrush_sessions", "gauge",
               "WebSocket sessions held, each with its rate limiter (at most --max-connections).",
               registry_.size());
    out.metric(
        "tilecrush_connection_addresses", "gauge",
        "Remote addresses in the per-address connection table (those with a connection open).",
        connection_limits_->addresses());
    out.metric("tilecrush_rooms", "gauge", "Rooms held in memory.", rooms_.room_count());
    out.metric("tilecrush_room_indexed_players", "gauge", "Players in the rooms' per-player index.",
               rooms_.indexed_players());
    return out.take();
  });

  http_context_.static_files = static_files_.get();
  http_context_.api = [this](ApiRequest request, std::function<void(HttpAnswer)> done) {
    api_.handle(std::move(request), std::move(done));
  };
  http_context_.ws_handler = &dispatcher_;
  http_context_.metrics = &metrics_;
  http_context_.limits = &limits_;
  http_context_.registry = &registry_;

  const auto address = net::ip::make_address(config.bind);
  listener_ = std::make_shared<Listener>(pool_, tcp::endpoint(address, config.port), http_context_,
                                         connection_limits_);
}

Server::~Server() {
  stop();
}

void Server::start() {
  listener_->run();
  schedule_eviction();
  schedule_closing();
  pool_.run();
}

// Every second, on the service's pool (it locks games, so never on a network
// thread): finished games leave memory once durable, and every tenth tick
// the games idle for --game-idle. Every tenth tick too, memory freed since
// (by the games, and by the database's writer, which gives SQLite's page
// cache back after 5 s without writes) is returned to the system, not kept
// by the allocator for later. Unconditionally: freeing happens on threads
// this pass does not see, and a trim of a heap with nothing free is cheap.
void Server::schedule_eviction() {
  eviction_timer_ = std::make_unique<net::steady_timer>(timer_executor_, std::chrono::seconds(1));
  eviction_timer_->async_wait([this](error_code ec) {
    if (ec) return;
    if (!eviction_busy_->exchange(true)) {
      const bool idle_pass = ++eviction_ticks_ % 10 == 0;
      service_.post_to_pool([this, idle_pass, busy = eviction_busy_]() {
        service_.evict_finished();
        if (idle_pass) {
          service_.evict_idle(std::chrono::seconds(config_.game_idle_s));
          trim_heap();
        }
        busy->store(false);
      });
    }
    schedule_eviction();
  });
}

void Server::schedule_closing() {
  closing_timer_ = std::make_unique<net::steady_timer>(timer_executor_, std::chrono::seconds(1));
  closing_timer_->async_wait([this](error_code ec) {
    if (ec) return;
    if (!closing_busy_->exchange(true)) {
      service_.post_to_pool([this, busy = closing_busy_]() {
        try {
          const std::int64_t now = now_();
          competitions_.ensure_dailies(now);
          for (const auto& c : db_.competitions(storage::CompetitionState::to_close, now, 16)) {
            service_.close_competition(c);
          }
        } catch (const std::exception&) {
          // Storage unavailable: the next tick tries again.
        }
        busy->store(false);
      });
    }
    schedule_closing();
  });
}

void Server::stop() {
  if (stopped_) return;
  stopped_ = true;
  listener_->stop();
  net::post(timer_executor_, [this]() {
    if (eviction_timer_) eviction_timer_->cancel();
    if (closing_timer_) closing_timer_->cancel();
  });
  // Commit what is queued. Each connection then sends the answers of the
  // requests it has read (those still with the game service included: the
  // database stays open until the connections are gone), and only then its
  // close frame (WebsocketSession::close).
  db_.flush();
  for (const auto& session : registry_.snapshot())
    session->close(websocket::close_code::going_away);
  // The answers' drain, then a second for the closing handshake.
  const auto deadline =
      std::chrono::steady_clock::now() + limits_.close_drain_timeout + std::chrono::seconds(1);
  while (registry_.size() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pool_.stop();
  service_.stop();
  api_.stop();
  db_.close();
}

}  // namespace tilecrush::server
