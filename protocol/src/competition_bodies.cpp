#include "tilecrush/protocol/competition_bodies.hpp"

#include <algorithm>

#include "json_pieces.hpp"
#include "tilecrush/protocol/http_bodies.hpp"

namespace tilecrush::protocol {

using detail::or_null;
using nlohmann::json;

namespace {

// A CSV field: always quoted, quotes doubled; a leading = + - @ gets a quote
// mark so that spreadsheets show names as text, never formulas.
std::string csv_field(std::string_view text) {
  std::string out = "\"";
  if (!text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos) {
    out += '\'';
  }
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

json result_json(const ResultEntry& e) {
  json out{{"rank", or_null(e.rank)},
           {"player", e.player},
           {"score", e.score},
           {"move_count", e.move_count},
           {"duration_ms", e.duration_ms},
           {"game_id", e.game_id},
           {"moves", e.moves ? moves_json(*e.moves) : json(nullptr)},
           {"flags", e.flags},
           {"finished_at", e.finished_at},
           {"player_id", e.player_id},
           {"attempts_used", e.attempts_used},
           {"reason", or_null(e.reason)}};
  return out;
}

}  // namespace

// Its members each under its own name; competition_json adds the rest.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_ONLY_SERIALIZE(CompetitionView, id, name, mode, preset, seed,
                                                  daily, opens_at, closes_at, state, opens_in_s,
                                                  closes_in_s, attempts, unlisted, organiser,
                                                  commitment, key)

json competition_json(const CompetitionView& c) {
  json out = c;
  // `first_counts` is written by the rule's name, and every competition is
  // played under this build's rules.
  out["counts"] = c.first_counts ? "first" : "best";
  out["rules_version"] = game::kRulesVersion;
  return out;
}

json competition_body(const CompetitionView& competition,
                      std::optional<std::int64_t> attempts_used) {
  json body = competition_json(competition);
  if (attempts_used) {
    body["attempts_used"] = *attempts_used;
    body["attempts_left"] =
        competition.attempts
            ? json(std::max<std::int64_t>(0, *competition.attempts - *attempts_used))
            : json(nullptr);
  }
  return body;
}

json competitions_body(const std::vector<CompetitionView>& competitions) {
  json list = json::array();
  for (const CompetitionView& c : competitions) list.push_back(competition_json(c));
  return {{"competitions", std::move(list)}};
}

json organiser_competitions_body(const std::optional<std::string>& organiser, std::int64_t total,
                                 const std::vector<CompetitionView>& competitions) {
  json body = competitions_body(competitions);
  body["organiser"] = organiser ? json(*organiser) : json(nullptr);
  body["total"] = total;
  return body;
}

json results_body(const CompetitionView& competition, const std::vector<ResultEntry>& entries) {
  json list = json::array();
  for (const ResultEntry& e : entries) list.push_back(result_json(e));
  return {{"competition", competition_json(competition)}, {"entries", std::move(list)}};
}

std::string results_csv(const std::vector<ResultEntry>& entries) {
  // New columns go after the existing ones: readers may index them.
  std::string out =
      "rank,player,score,move_count,duration_ms,game_id,moves,flags,finished_at,player_id,"
      "attempts_used,reason\n";
  for (const ResultEntry& e : entries) {
    std::string flag_text;
    for (const std::string& f : e.flags) flag_text += (flag_text.empty() ? "" : ";") + f;
    out += (e.rank ? std::to_string(*e.rank) : std::string()) + ",";
    out += csv_field(e.player) + ",";
    out += std::to_string(e.score) + ",";
    out += std::to_string(e.move_count) + ",";
    out += std::to_string(e.duration_ms) + ",";
    out += csv_field(e.game_id) + ",";
    out += csv_field(e.moves ? moves_json(*e.moves).dump() : "") + ",";
    out += csv_field(flag_text) + ",";
    out += csv_field(e.finished_at) + ",";
    out += std::to_string(e.player_id) + ",";
    out += std::to_string(e.attempts_used) + ",";
    out += csv_field(e.reason.value_or("")) + "\n";
  }
  return out;
}

json disqualified_body(std::string_view competition, std::string_view player,
                       std::string_view reason) {
  return {
      {"competition", competition}, {"player", player}, {"disqualified", true}, {"reason", reason}};
}

}  // namespace tilecrush::protocol
