#include "tilecrush/protocol/events.hpp"

#include <charconv>
#include <cstdint>

#include "json_pieces.hpp"
#include "text.hpp"
#include "tilecrush/game/hash.hpp"

namespace tilecrush::protocol {
namespace {

using detail::point_json;
using nlohmann::json;

json cells_json(const std::vector<game::Point>& cells) {
  json out = json::array();
  for (const game::Point& p : cells) out.push_back(point_json(p));
  return out;
}

template <std::size_t N>
json tuples_json(const std::vector<std::array<int, N>>& rows) {
  json out = json::array();
  for (const auto& row : rows) {
    json item = json::array();
    for (int v : row) item.push_back(v);
    out.push_back(std::move(item));
  }
  return out;
}

struct ToJson {
  bool hide_peek_colour;

  json operator()(const game::SwapEvent& e) const {
    return {{"kind", "swap"}, {"a", point_json(e.a)}, {"b", point_json(e.b)}};
  }
  json operator()(const game::RemoveEvent& e) const {
    json out{{"kind", "remove"}, {"cells", cells_json(e.cells)}};
    if (e.wave > 0) out["wave"] = e.wave;
    return out;
  }
  json operator()(const game::ScoreEvent& e) const {
    return {{"kind", "score"}, {"delta", e.delta}, {"total", e.total}};
  }
  json operator()(const game::FallEvent& e) const {
    return {{"kind", "fall"}, {"moves", tuples_json(e.moves)}};
  }
  json operator()(const game::ShiftEvent& e) const {
    return {{"kind", "shift"}, {"moves", tuples_json(e.moves)}};
  }
  json operator()(const game::SpawnEvent& e) const {
    return {{"kind", "spawn"}, {"cells", tuples_json(e.cells)}, {"wave", e.wave}};
  }
  json operator()(const game::PeekEvent& e) const {
    return {{"kind", "peek"}, {"x", e.x}, {"y", e.y}, {"color", hide_peek_colour ? -1 : e.color}};
  }
  json operator()(const game::SelectEvent& e) const {
    return {{"kind", "select"}, {"x", e.x}, {"y", e.y}, {"color", e.color}};
  }
  json operator()(const game::UnselectEvent& e) const {
    return {{"kind", "unselect"}, {"x", e.x}, {"y", e.y}};
  }
  json operator()(const game::GameOverEvent& e) const {
    return {{"kind", "game_over"},
            {"reason", game::to_string(e.reason)},
            {"bonus", e.bonus},
            {"final_score", e.final_score}};
  }
};

// The text form. Keys are written in ascending order so that the output
// equals nlohmann's dump of the builder's object (std::map order).
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  Writer& raw(std::string_view text) {
    out_ += text;
    return *this;
  }
  Writer& num(std::int64_t v) {
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, res.ptr);
    return *this;
  }
  Writer& str(std::string_view text) {
    detail::append_json_string(out_, text);
    return *this;
  }
  Writer& point(game::Point p) { return raw("[").num(p.x).raw(",").num(p.y).raw("]"); }
  Writer& cells(const std::vector<game::Point>& cells) {
    raw("[");
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) raw(",");
      point(cells[i]);
    }
    return raw("]");
  }
  template <std::size_t N>
  Writer& tuples(const std::vector<std::array<int, N>>& rows) {
    raw("[");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      raw(i > 0 ? ",[" : "[");
      for (std::size_t j = 0; j < N; ++j) {
        if (j > 0) raw(",");
        num(rows[i][j]);
      }
      raw("]");
    }
    return raw("]");
  }

 private:
  std::string& out_;
};

struct ToText {
  Writer& w;
  bool hide_peek_colour;

  void operator()(const game::SwapEvent& e) const {
    w.raw(R"({"a":)").point(e.a).raw(R"(,"b":)").point(e.b).raw(R"(,"kind":"swap"})");
  }
  void operator()(const game::RemoveEvent& e) const {
    w.raw(R"({"cells":)").cells(e.cells).raw(R"(,"kind":"remove")");
    if (e.wave > 0) w.raw(R"(,"wave":)").num(e.wave);
    w.raw("}");
  }
  void operator()(const game::ScoreEvent& e) const {
    w.raw(R"({"delta":)").num(e.delta).raw(R"(,"kind":"score","total":)").num(e.total).raw("}");
  }
  void operator()(const game::FallEvent& e) const {
    w.raw(R"({"kind":"fall","moves":)").tuples(e.moves).raw("}");
  }
  void operator()(const game::ShiftEvent& e) const {
    w.raw(R"({"kind":"shift","moves":)").tuples(e.moves).raw("}");
  }
  void operator()(const game::SpawnEvent& e) const {
    w.raw(R"({"cells":)").tuples(e.cells).raw(R"(,"kind":"spawn","wave":)").num(e.wave).raw("}");
  }
  void operator()(const game::PeekEvent& e) const {
    w.raw(R"({"color":)").num(hide_peek_colour ? -1 : e.color).raw(R"(,"kind":"peek","x":)");
    w.num(e.x).raw(R"(,"y":)").num(e.y).raw("}");
  }
  void operator()(const game::SelectEvent& e) const {
    w.raw(R"({"color":)").num(e.color).raw(R"(,"kind":"select","x":)");
    w.num(e.x).raw(R"(,"y":)").num(e.y).raw("}");
  }
  void operator()(const game::UnselectEvent& e) const {
    w.raw(R"({"kind":"unselect","x":)").num(e.x).raw(R"(,"y":)").num(e.y).raw("}");
  }
  void operator()(const game::GameOverEvent& e) const {
    w.raw(R"({"bonus":)").num(e.bonus).raw(R"(,"final_score":)").num(e.final_score);
    w.raw(R"(,"kind":"game_over","reason":)").str(game::to_string(e.reason)).raw("}");
  }
};

void write_events(Writer& w, const game::EventList& events, bool hide_peek_colour) {
  w.raw("[");
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i > 0) w.raw(",");
    std::visit(ToText{w, hide_peek_colour}, events[i]);
  }
  w.raw("]");
}

// A rough size so that a typical reply needs one allocation.
std::size_t estimate(const game::EventList& events) {
  return 160 + events.size() * 96;
}

}  // namespace

json event_to_json(const game::Event& event, bool hide_peek_colour) {
  return std::visit(ToJson{hide_peek_colour}, event);
}

json events_to_json(const game::EventList& events, bool hide_peek_colour) {
  json out = json::array();
  for (const game::Event& e : events) out.push_back(event_to_json(e, hide_peek_colour));
  return out;
}

json events_reply(const json& id, std::string_view game_id, const game::Game& game,
                  const game::EventList& events) {
  return {{"type", "events"},
          {"id", id},
          {"game_id", game_id},
          {"move_count", game.move_count()},
          {"score", game.score()},
          {"over", game.over()},
          {"state_hash", game::hash_hex(game.state_hash())},
          {"events", events_to_json(events, false)}};
}

std::string events_reply_text(const json& id, std::string_view game_id, const game::Game& game,
                              const game::EventList& events) {
  std::string out;
  out.reserve(estimate(events));
  Writer w(out);
  w.raw(R"({"events":)");
  write_events(w, events, false);
  w.raw(R"(,"game_id":)")
      .str(game_id)
      .raw(R"(,"id":)")
      .raw(id.dump(-1, ' ', false, json::error_handler_t::replace));
  w.raw(R"(,"move_count":)").num(game.move_count());
  w.raw(R"(,"over":)").raw(game.over() ? "true" : "false");
  w.raw(R"(,"score":)").num(game.score());
  w.raw(R"(,"state_hash":")").raw(game::hash_hex(game.state_hash()));
  w.raw(R"(","type":"events"})");
  return out;
}

json room_events(std::string_view code, std::string_view player, const game::Game& game,
                 const game::EventList& events) {
  return {{"type", "room_events"},
          {"code", code},
          {"player", player},
          {"move_count", game.move_count()},
          {"state_hash", game::hash_hex(game.state_hash())},
          {"events", events_to_json(events, true)}};
}

std::string room_events_text(std::string_view code, std::string_view player, const game::Game& game,
                             const game::EventList& events) {
  std::string out;
  out.reserve(estimate(events));
  Writer w(out);
  w.raw(R"({"code":)").str(code).raw(R"(,"events":)");
  write_events(w, events, true);
  w.raw(R"(,"move_count":)").num(game.move_count());
  w.raw(R"(,"player":)").str(player);
  w.raw(R"(,"state_hash":")").raw(game::hash_hex(game.state_hash()));
  w.raw(R"(","type":"room_events"})");
  return out;
}

}  // namespace tilecrush::protocol
