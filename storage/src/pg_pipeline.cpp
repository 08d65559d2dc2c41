#include "pg_pipeline.hpp"

#include <libpq-fe.h>

#include "pg_failure.hpp"

namespace tilecrush::storage::detail {

void PgPipeline::queue(PgPrepared& statement, const std::string* parameter) {
  Queued q;
  q.statement = &statement;
  if (parameter != nullptr) {
    q.values.push_back(*parameter);
    q.is_null.push_back(0);
    q.formats.push_back(0);
  }
  queued_.push_back(std::move(q));
}

void PgPipeline::queue(Queued item) {
  queued_.push_back(std::move(item));
}

void PgPipeline::queue_begin(PgPrepared& begin) {
  queue(begin, nullptr);
  begin_pending_ = true;
}

std::vector<PgPipeline::Queued> PgPipeline::take() noexcept {
  std::vector<Queued> items;
  items.swap(queued_);
  begin_pending_ = false;
  return items;
}

void PgPipeline::drop() noexcept {
  queued_.clear();
  begin_pending_ = false;
}

PgPipeline::Outcome PgPipeline::send(pg_conn* session, const std::vector<Queued>& items,
                                     PgPrepared* last, const PgParameters& parameters) {
  PGconn* conn = session;
  // The session broke in the middle: what it was running is lost with it.
  const auto broken = [&](std::string message) {
    if (message.empty()) {
      message = "the PostgreSQL session failed in a pipeline: ";
      message += PQerrorMessage(conn);
      while (!message.empty() && message.back() == '\n') message.pop_back();
    }
    Outcome out;
    out.error = std::move(message);
    out.code = kPgGenericError;
    out.session_broken = true;
    return out;
  };
  if (PQenterPipelineMode(conn) != 1) return broken("");

  std::size_t sent = 0;
  bool sent_all = true;
  std::vector<const char*> values;
  std::vector<int> lengths;
  for (const Queued& q : items) {
    values.resize(q.values.size());
    lengths.resize(q.values.size());
    for (std::size_t i = 0; i < q.values.size(); ++i) {
      values[i] = q.is_null[i] != 0 ? nullptr : q.values[i].c_str();
      lengths[i] = static_cast<int>(q.values[i].size());
    }
    const int n = static_cast<int>(q.values.size());
    if (PQsendQueryPrepared(conn, q.statement->name.c_str(), n, n > 0 ? values.data() : nullptr,
                            n > 0 ? lengths.data() : nullptr, n > 0 ? q.formats.data() : nullptr,
                            0) != 1) {
      sent_all = false;
      break;
    }
    ++sent;
  }
  if (sent_all && last != nullptr) {
    if (PQsendQueryPrepared(conn, last->name.c_str(), static_cast<int>(parameters.values.size()),
                            parameters.values.data(), parameters.lengths.data(),
                            parameters.formats.data(), 0) == 1) {
      ++sent;
    } else {
      sent_all = false;
    }
  }
  if (sent_all && PQpipelineSync(conn) != 1) sent_all = false;
  if (!sent_all) return broken("");

  // Each statement's answer, then the NULL that ends it; then the sync.
  std::string error;
  int code = kPgGenericError;
  pg_result* last_result = nullptr;
  bool lost = false;
  for (std::size_t i = 0; i < sent && !lost; ++i) {
    PGresult* result = PQgetResult(conn);
    if (result == nullptr || PQresultStatus(result) == PGRES_PIPELINE_SYNC) {
      PQclear(result);
      lost = true;
      break;
    }
    const bool is_last = last != nullptr && i + 1 == sent;
    const ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
      if (is_last) {
        last_result = result;
      } else {
        PQclear(result);
      }
    } else {
      // PGRES_PIPELINE_ABORTED: skipped after an earlier failure.
      if (status != PGRES_PIPELINE_ABORTED && error.empty()) {
        error =
            pg_failure_message(conn, result, "run", is_last ? last->sql : items[i].statement->sql);
        code = pg_error_code(result);
        if (!is_last) queued_failed_ = true;
      }
      PQclear(result);
    }
    while (PGresult* extra = PQgetResult(conn)) {
      if (PQresultStatus(extra) == PGRES_PIPELINE_SYNC) lost = true;
      PQclear(extra);
    }
  }
  bool synced = false;
  if (!lost) {
    PGresult* result = PQgetResult(conn);
    synced = result != nullptr && PQresultStatus(result) == PGRES_PIPELINE_SYNC;
    PQclear(result);
  }
  if (!synced || PQexitPipelineMode(conn) != 1) {
    PQclear(last_result);
    return broken(error);
  }
  Outcome out;
  if (!error.empty()) {
    PQclear(last_result);
    out.error = std::move(error);
    out.code = code;
    return out;
  }
  out.result = last_result;
  return out;
}

}  // namespace tilecrush::storage::detail
