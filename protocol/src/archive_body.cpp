// GET /api/archive's body and cursor (archive_body.hpp).
#include "tilecrush/protocol/archive_body.hpp"

#include <charconv>

namespace tilecrush::protocol {

using nlohmann::json;

std::string archive_cursor_text(const ArchiveCursor& cursor) {
  return std::to_string(cursor.closes_at) + "." + cursor.id;
}

std::optional<ArchiveCursor> parse_archive_cursor(std::string_view text) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 15) return std::nullopt;
  ArchiveCursor cursor;
  const std::string_view digits = text.substr(0, dot);
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), cursor.closes_at);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  const std::string_view id = text.substr(dot + 1);
  if (id.empty() || id.size() > 64) return std::nullopt;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) return std::nullopt;
  }
  cursor.id = std::string(id);
  return cursor;
}

json archive_body(const std::vector<ArchiveItem>& items, const std::optional<ArchiveCursor>& next) {
  json list = json::array();
  for (const ArchiveItem& item : items) {
    json c = competition_json(item.competition);
    c["entries"] = item.entries;
    c["winner"] = item.winner
                      ? json{{"player", *item.winner}, {"score", item.winner_score.value_or(0)}}
                      : json(nullptr);
    list.push_back(std::move(c));
  }
  return {{"competitions", std::move(list)},
          {"next", next ? json(archive_cursor_text(*next)) : json(nullptr)}};
}

}  // namespace tilecrush::protocol
