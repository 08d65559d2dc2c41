// A PostgreSQL array literal built element by element, for a statement
// that takes many rows' values as one array parameter each (`unnest`,
// `= ANY`). Every text element is quoted (game ids and moves may hold any
// printable character); a missing integer is NULL.
//
// Thread safety: a value; none needed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::storage::detail {

class PgArrayText {
 public:
  void add(std::string_view text) {
    separate();
    out_ += '"';
    for (const char ch : text) {
      if (ch == '"' || ch == '\\') out_ += '\\';
      out_ += ch;
    }
    out_ += '"';
  }
  void add(std::optional<std::int64_t> value) {
    separate();
    out_ += value ? std::to_string(*value) : std::string("NULL");
  }
  // The literal: `{}` when nothing was added.
  std::string done() const { return out_ + '}'; }

 private:
  void separate() {
    if (out_.size() > 1) out_ += ',';
  }
  std::string out_ = "{";
};

}  // namespace tilecrush::storage::detail
