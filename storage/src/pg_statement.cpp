#include "pg_statement.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "pg_failure.hpp"
#include "tilecrush/game/hex.hpp"
#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {
namespace {

// ?N -> $M, M dense in the order of N; slot_of[N] = M - 1. Quoted text,
// quoted names and -- comments are copied as they are.
std::string rewrite_parameters(std::string_view sql, std::vector<int>& slot_of) {
  std::vector<int> used;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] == '?' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
      int n = 0;
      std::size_t j = i + 1;
      while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
      used.push_back(n);
    }
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  slot_of.assign(used.empty() ? 1 : static_cast<std::size_t>(used.back()) + 1, -1);
  for (std::size_t k = 0; k < used.size(); ++k) {
    slot_of[static_cast<std::size_t>(used[k])] = static_cast<int>(k);
  }

  std::string out;
  out.reserve(sql.size() + 8);
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char ch = sql[i];
    if (quote != 0) {
      out += ch;
      if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quote = ch;
      out += ch;
    } else if (ch == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      const std::size_t end = sql.find('\n', i);
      const std::size_t stop = end == std::string_view::npos ? sql.size() : end;
      out.append(sql.substr(i, stop - i));
      i = stop - 1;
    } else if (ch == '?' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
      int n = 0;
      std::size_t j = i + 1;
      while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
      out += '$';
      out += std::to_string(slot_of[static_cast<std::size_t>(n)] + 1);
      i = j - 1;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace

PgStatement::PgStatement(PgSession& session, std::string_view sql, bool cached)
    : session_(session), cached_(cached) {
  prepared_.name = session.next_name();
  prepared_.sql = rewrite_parameters(sql, slot_of_);
  const auto params = static_cast<std::size_t>(
      std::count_if(slot_of_.begin(), slot_of_.end(), [](int s) { return s >= 0; }));
  values_.resize(params);
  is_null_.assign(params, 1);
  formats_.assign(params, 0);
  prepared_.parameters = static_cast<int>(values_.size());
  session_.prepare_statement(prepared_);
}

PgStatement::~PgStatement() {
  reset();
  PGconn* conn = session_.current();
  if (!cached_ && prepared_.prepared_in == session_.generation() && conn != nullptr &&
      PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) != PQTRANS_INERROR) {
    PQclear(PQexec(conn, ("DEALLOCATE " + prepared_.name).c_str()));
  }
}

int PgStatement::slot(int index) const {
  if (index < 0 || static_cast<std::size_t>(index) >= slot_of_.size()) return -1;
  return slot_of_[static_cast<std::size_t>(index)];
}

void PgStatement::bind_int(int index, std::int64_t value) {
  const int s = slot(index);
  if (s < 0) return;
  values_[static_cast<std::size_t>(s)] = std::to_string(value);
  is_null_[static_cast<std::size_t>(s)] = 0;
  formats_[static_cast<std::size_t>(s)] = 0;
}

void PgStatement::bind_text(int index, std::string_view text) {
  const int s = slot(index);
  if (s < 0) return;
  if (text.find('\0') != std::string_view::npos) {
    throw StorageError("text with a NUL byte cannot be stored", kPgGenericError);
  }
  values_[static_cast<std::size_t>(s)].assign(text);
  is_null_[static_cast<std::size_t>(s)] = 0;
  formats_[static_cast<std::size_t>(s)] = 0;
}

void PgStatement::bind_null(int index) {
  const int s = slot(index);
  if (s < 0) return;
  is_null_[static_cast<std::size_t>(s)] = 1;
}

void PgStatement::bind_blob(int index, std::span<const std::uint8_t> bytes) {
  const int s = slot(index);
  if (s < 0) return;
  values_[static_cast<std::size_t>(s)].assign(reinterpret_cast<const char*>(bytes.data()),
                                              bytes.size());
  is_null_[static_cast<std::size_t>(s)] = 0;
  formats_[static_cast<std::size_t>(s)] = 1;
}

void PgStatement::execute() {
  PGconn* conn = session_.live();
  session_.prepare_if_stale(prepared_);
  std::vector<const char*> values(values_.size());
  std::vector<int> lengths(values_.size());
  for (std::size_t i = 0; i < values_.size(); ++i) {
    values[i] = is_null_[i] != 0 ? nullptr : values_[i].c_str();
    lengths[i] = static_cast<int>(values_[i].size());
  }
  PGresult* result = nullptr;
  if (session_.pipeline().empty()) {
    result = PQexecPrepared(conn, prepared_.name.c_str(), static_cast<int>(values.size()),
                            values.data(), lengths.data(), formats_.data(), 0);
    session_.check(result, "run", prepared_.sql);
  } else {
    result = session_.run_pipeline(&prepared_, PgParameters{values, lengths, formats_});
  }
  // A COMMIT of a transaction that had failed answers ROLLBACK, not an
  // error: that must not pass for a commit.
  if (std::strcmp(PQcmdStatus(result), "ROLLBACK") == 0 && prepared_.sql.starts_with("COMMIT")) {
    PQclear(result);
    throw StorageError("commit failed: the transaction had failed and was rolled back",
                       kPgGenericError);
  }
  session_.note_transaction_control(prepared_.sql);
  const char* tuples = PQcmdTuples(result);
  session_.note_changes(tuples != nullptr && *tuples != '\0' ? std::atoi(tuples) : 0);
  result_ = result;
  row_ = -1;
  ran_ = true;
}

void PgStatement::run_later() {
  // Only a cached statement outlives the queue (another is deallocated
  // when it ends).
  if (!cached_ || session_.role() != PgRole::writer || !session_.in_transaction()) return run();
  PgPipeline::Queued item;
  item.statement = &prepared_;
  item.values = values_;
  item.is_null.assign(is_null_.begin(), is_null_.end());
  item.formats = formats_;
  session_.pipeline().queue(std::move(item));
}

bool PgStatement::step() {
  if (!ran_) execute();
  if (row_ + 1 >= PQntuples(result_)) return false;
  ++row_;
  return true;
}

bool PgStatement::is_null(int column) const {
  return PQgetisnull(result_, row_, column) != 0;
}

std::int64_t PgStatement::get_int(int column) const {
  const char* text = PQgetvalue(result_, row_, column);
  const int size = PQgetlength(result_, row_, column);
  if (size == 1 && (text[0] == 't' || text[0] == 'f')) return text[0] == 't' ? 1 : 0;
  std::int64_t value = 0;
  std::from_chars(text, text + size, value);
  return value;
}

std::string PgStatement::get_text(int column) const {
  return std::string(PQgetvalue(result_, row_, column),
                     static_cast<std::size_t>(PQgetlength(result_, row_, column)));
}

std::vector<std::uint8_t> PgStatement::get_blob(int column) const {
  // bytea in text results: \x followed by two hex digits per byte.
  const std::string_view text(PQgetvalue(result_, row_, column),
                              static_cast<std::size_t>(PQgetlength(result_, row_, column)));
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x') return {};
  return game::bytes_from_hex(text.substr(2)).value_or(std::vector<std::uint8_t>{});
}

void PgStatement::reset() noexcept {
  if (result_ != nullptr) PQclear(result_);
  result_ = nullptr;
  row_ = -1;
  ran_ = false;
  std::fill(is_null_.begin(), is_null_.end(), 1);
}

}  // namespace tilecrush::storage::detail
