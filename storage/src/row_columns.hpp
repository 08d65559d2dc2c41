// A row read into a record by column order, the one reader of the stores'
// plain rows: read_columns<&Record::a, &Record::b, ...> reads column 0 into
// `a`, column 1 into `b`, and so on, each by its member's type. The
// statement's SELECT list names the same columns in the same order.
//
// Conversions: integers as they are; a bool is an integer other than 0; a
// mode (codec.hpp) or a room's phase by name; optionals are NULL as nullopt. On both
// backends a NULL integer reads as 0 and a NULL text as "", so a plain
// member takes a NULL as its empty value.
//
// Thread safety: pure functions of the row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "codec.hpp"
#include "statement.hpp"
#include "tilecrush/game/types.hpp"
#include "tilecrush/storage/room_records.hpp"

namespace tilecrush::storage::detail {

inline void read_column(const Statement& row, int column, std::int64_t& out) {
  out = row.get_int(column);
}
inline void read_column(const Statement& row, int column, bool& out) {
  out = row.get_int(column) != 0;
}
inline void read_column(const Statement& row, int column, std::string& out) {
  out = row.get_text(column);
}
inline void read_column(const Statement& row, int column, game::Mode& out) {
  out = parse_mode_text(row.get_text(column));
}
inline void read_column(const Statement& row, int column, std::optional<std::int64_t>& out) {
  out = row.get_optional_int(column);
}
inline void read_column(const Statement& row, int column, std::optional<int>& out) {
  out.reset();
  if (auto value = row.get_optional_int(column)) out = static_cast<int>(*value);
}
inline void read_column(const Statement& row, int column, std::optional<std::string>& out) {
  out = row.get_optional_text(column);
}
// By name (open_room_store.cpp).
void read_column(const Statement& row, int column, OpenRoomPhase& out);

template <class Member>
struct MemberOf;
template <class Record, class Type>
struct MemberOf<Type Record::*> {
  using record = Record;
};

template <auto First, auto... Rest>
typename MemberOf<decltype(First)>::record read_columns(const Statement& row) {
  typename MemberOf<decltype(First)>::record record{};
  int column = 0;
  read_column(row, column++, record.*First);
  (read_column(row, column++, record.*Rest), ...);
  return record;
}

}  // namespace tilecrush::storage::detail
