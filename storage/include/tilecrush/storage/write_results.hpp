// What a queued write answers (status, id, message, through its callback)
// and the writer's counters.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tilecrush::storage {

enum class WriteStatus : std::uint8_t {
  ok,
  name_taken,  // create_player: the name exists, ignoring ASCII case
  not_found,   // unknown game or player
  conflict,    // duplicate game id or move seq, a move on a finished game, ...
  invalid,     // the request itself is malformed (empty name, ranked custom game)
  closed,      // the database was closed (or opened read-only)
  failed,      // a database fault; `message` says which
};

struct WriteResult {
  WriteStatus status = WriteStatus::ok;
  // create_player: the new player's id; save_room_result: the room's id.
  std::int64_t id = 0;
  std::string message;  // empty when ok

  bool ok() const { return status == WriteStatus::ok; }
};

// Called once per queued write, on the writer thread, after the batch that
// holds it has committed (or failed to). Must be cheap and must not throw, nor
// call Database::flush() or close(); post anything longer elsewhere.
using WriteCallback = std::function<void(const WriteResult&)>;

// The writer's counters, for Prometheus. Latencies cover a batch's whole
// write transaction (BEGIN IMMEDIATE to the end of COMMIT).
struct WriterMetrics {
  std::uint64_t queue_depth = 0;  // queued, not yet taken into a batch
  std::uint64_t batches_committed = 0;
  std::uint64_t ops_committed = 0;  // succeeded and committed
  std::uint64_t ops_failed = 0;     // refused, or lost with a failed batch
  std::uint64_t last_batch_size = 0;
  std::uint64_t max_batch_size = 0;
  std::uint64_t last_commit_latency_ns = 0;
  std::uint64_t total_commit_latency_ns = 0;
  std::uint64_t checkpoints = 0;  // run by the checkpoint thread
  // Tries of a batch run again from its start after losing a race with
  // another node's writer (PostgreSQL's deadlock or serialization failure).
  std::uint64_t batches_retried = 0;
  // Batches the writer waited for before taking them (Options::linger).
  std::uint64_t batches_lingered = 0;
};

std::string_view to_string(WriteStatus status);

}  // namespace tilecrush::storage
