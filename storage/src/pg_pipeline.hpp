// The PostgreSQL writer's pipeline: the statements whose answers nobody
// reads (begin_write()'s BEGIN, lock_keys()' advisory locks,
// run_deferred()'s SAVEPOINT and RELEASE, run_later()'s writes) are queued
// here instead of being sent at once, and sent with the next statement
// whose answer is read, in libpq's pipeline mode: all of them, then one
// sync, then every answer read (one round trip).
//
// Contract: the server runs them in order; once one fails it skips the rest
// up to the sync (PGRES_PIPELINE_ABORTED), and send() reports the first
// failure. When a queued statement failed (not the one whose answer is
// read), queued_failed() holds until forget_failure(): the transaction
// counts as lost, since a rollback to the caller's savepoint, which the
// pipeline may never have made, would not undo what the failure
// interrupted. A session that broke in the middle must be closed by the
// caller (send() says so): what it ran is lost with it. A BEGIN queued and
// not sent yet leaves nothing to lose.
//
// Thread safety: none; it belongs to one PgSession and is used on that
// session's thread.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace tilecrush::storage::detail {

// A statement as the server knows it: what the pipeline sends by its name
// and the session prepares (each statement holds one).
struct PgPrepared {
  std::string name;
  std::string sql;  // rewritten to $N
  int parameters = 0;
  std::uint64_t prepared_in = 0;  // the session generation it was prepared in; 0: never
};

// The parameters of one run of a prepared statement, as libpq takes them.
struct PgParameters {
  std::span<const char* const> values;
  std::span<const int> lengths;
  std::span<const int> formats;
};

class PgPipeline {
 public:
  // A statement queued, with copies of its parameters (libpq's text or
  // binary form, as PgStatement binds them).
  struct Queued {
    PgPrepared* statement = nullptr;
    std::vector<std::string> values;
    std::vector<char> is_null;
    std::vector<int> formats;
  };
  // What send() got back.
  struct Outcome {
    // The read statement's result (the caller's to free); null without one
    // or after a failure.
    pg_result* result = nullptr;
    // The first failure; empty when none.
    std::string error;
    int code = 0;
    // The session failed in the middle: the caller closes it.
    bool session_broken = false;
  };

  bool empty() const { return queued_.empty(); }
  // A BEGIN is queued and not sent yet: the transaction counts as open.
  bool begin_pending() const { return begin_pending_; }
  // A queued statement failed: the transaction counts as lost.
  bool queued_failed() const { return queued_failed_; }

  // Queues `statement` (of a statement cached by the connection, so it
  // outlives the queue) with `parameter` (nullptr: none), in text form.
  void queue(PgPrepared& statement, const std::string* parameter);
  // Queues `item`, whose statement is cached by the connection.
  void queue(Queued item);
  // Queues the transaction's BEGIN.
  void queue_begin(PgPrepared& begin);
  // Takes out everything queued, to be sent now: whatever happens then,
  // none of it stays queued.
  std::vector<Queued> take() noexcept;
  // Forgets what is queued: its transaction is gone. Never throws.
  void drop() noexcept;
  void forget_failure() noexcept { queued_failed_ = false; }

  // Sends `items` and then `last` (when given, with `parameters`) on
  // `session` in one pipeline and reads every answer. Every statement must
  // be prepared in this session already (preparing is a round trip of its
  // own, not allowed inside a pipeline).
  Outcome send(pg_conn* session, const std::vector<Queued>& items, PgPrepared* last,
               const PgParameters& parameters);

 private:
  std::vector<Queued> queued_;
  bool begin_pending_ = false;
  bool queued_failed_ = false;
};

}  // namespace tilecrush::storage::detail
