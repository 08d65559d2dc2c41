// fuzz_engine: any game, any sequence of requests. The input (README.md,
// "fuzz_engine input") picks a setup, valid or not, then up to kMaxSteps
// requests: raw moves of every kind (invalid ones included), a legal move,
// undo, preview, hint, resign. After every request the engine's contract is
// checked from the outside:
//   - a refusal changes nothing (hash, score, move count, boards, events);
//   - an accepted request's events, applied by a client to its copy of the
//     previous visible board, give visible_board() and the score, and end
//     with game_over exactly when over() turned true;
//   - state_hash is protocol.md's hash of what the player may see, and a
//     hidden game shows and sends no colour the player has not revealed;
//   - at the end, replay(setup, moves()) reaches the same state.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine_checks.hpp"
#include "engine_input.hpp"
#include "event_applier.hpp"
#include "fuzz_check.hpp"
#include "move_checks.hpp"
#include "tilecrush/game/events.hpp"
#include "tilecrush/game/game.hpp"
#include "tilecrush/game/hash.hpp"
#include "tilecrush/protocol/events.hpp"
#include "tilecrush/protocol/views.hpp"

namespace tilecrush::fuzz {
namespace {

using game::Event;
using game::EventList;
using game::Game;
using game::Mode;
using game::Move;
using game::MoveKind;
using game::OverReason;
using game::Point;
using game::Status;

constexpr int kMaxSteps = 256;

// Everything a request may change.
struct Snapshot {
  std::uint64_t hash = 0;
  std::int64_t score = 0;
  std::int64_t move_count = 0;
  OverReason over = OverReason::none;
  std::vector<std::uint8_t> board;
  std::vector<int> visible;
  std::vector<Point> selected;
  std::int64_t peeks = 0;
  std::vector<Move> moves;

  static Snapshot of(const Game& g) {
    return {g.state_hash(),    g.score(),    g.move_count(), g.over_reason(), g.board().cells(),
            g.visible_board(), g.selected(), g.peeks(),      g.moves()};
  }
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

int clamp_int(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(),
                                                   std::numeric_limits<int>::max()));
}

class Run {
 public:
  explicit Run(Game& g)
      : g_(g), client_(g.width(), g.height(), g.visible_board(), g.score(), g.mode()) {}

  void step(ByteReader& in) {
    const int op = in.byte() % 16;
    if (op <= 4) {
      raw_move(in);
    } else if (op <= 8) {
      legal_move(in.byte());
    } else if (op <= 10) {
      undo();
    } else if (op <= 12) {
      const int x = in.coordinate(g_.width());
      preview(Point{x, in.coordinate(g_.height())});
    } else if (op <= 14) {
      hint();
    } else {
      resign();
    }
    check_state(g_);
    FUZZ_CHECK(client_.cells() == g_.visible_board(), "the client's board is the visible board");
  }

  void finish() {
    const game::ReplayResult r = game::replay(g_.setup(), g_.moves());
    FUZZ_CHECK(r.game != nullptr, "replay accepts the game's own moves");
    FUZZ_CHECK(r.game->state_hash() == g_.state_hash(), "replay gives the same state_hash");
    FUZZ_CHECK(r.game->board() == g_.board() && r.game->score() == g_.score(),
               "replay gives the same board and score");
    const OverReason expected =
        g_.over_reason() == OverReason::resigned ? OverReason::none : g_.over_reason();
    FUZZ_CHECK(r.game->over_reason() == expected, "replay ends the same way");
    check_view();
  }

 private:
  // Returns whether the move was accepted.
  bool move(const Move& m) {
    const Snapshot before = Snapshot::of(g_);
    // A sentinel: apply() appends and never touches what is already there.
    EventList events{game::ScoreEvent{-7, -7}};
    const game::Outcome out = g_.apply(m, events);
    FUZZ_CHECK(!events.empty() && std::holds_alternative<game::ScoreEvent>(events.front()) &&
                   std::get<game::ScoreEvent>(events.front()).total == -7,
               "apply() keeps the caller's earlier events");
    events.erase(events.begin());
    if (!out.ok()) {
      const Status expected = !mode_has(g_.mode(), m.kind)      ? Status::wrong_mode
                              : before.over != OverReason::none ? Status::not_allowed
                                                                : Status::invalid_move;
      FUZZ_CHECK(out.status == expected, "a refusal has the status protocol.md names");
      FUZZ_CHECK(out.reason != nullptr && out.reason[0] != '\0', "a refusal gives a reason");
      FUZZ_CHECK(events.empty(), "a refused move has no events");
      FUZZ_CHECK(Snapshot::of(g_) == before, "a refused move changes nothing");
      return false;
    }
    FUZZ_CHECK(mode_has(g_.mode(), m.kind) && before.over == OverReason::none,
               "only a move of the mode on a running game is accepted");
    FUZZ_CHECK(g_.move_count() == before.move_count + 1 && g_.moves().back() == m,
               "an accepted move is recorded");
    check_move_events(g_.mode(), m, board_of(before), events);
    check_events(before, events);
    last_events_ = events;
    history_.push_back(before);
    return true;
  }

  void raw_move(ByteReader& in) {
    Move m;
    m.kind = static_cast<MoveKind>(in.byte() % 5);
    m.a.x = in.coordinate(g_.width());
    m.a.y = in.coordinate(g_.height());
    static constexpr int kDirs[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1},
                                        {1, 1}, {2, 0}, {0, 0},  {0, 0}};
    const int dir = in.byte() % 8;
    if (dir == 7) {
      m.b.x = in.coordinate(g_.width());
      m.b.y = in.coordinate(g_.height());
    } else if (m.kind == MoveKind::swap) {
      m.b.x = clamp_int(std::int64_t{m.a.x} + kDirs[dir][0]);
      m.b.y = clamp_int(std::int64_t{m.a.y} + kDirs[dir][1]);
    }
    move(m);
  }

  // With the high bit of `pick`, a hidden game plays a select when it can:
  // random legal moves there are mostly peeks, which never finish a group.
  void legal_move(std::uint8_t pick) {
    std::vector<Move> legal = g_.legal_moves();
    FUZZ_CHECK(legal.empty() == g_.over(), "a running game has a legal move, a finished one none");
    if (legal.empty()) return;
    if ((pick & 0x80) != 0 && g_.mode() == Mode::hidden) {
      std::vector<Move> selects;
      for (const Move& m : legal) {
        if (m.kind == MoveKind::select) selects.push_back(m);
      }
      if (!selects.empty()) legal = std::move(selects);
    }
    const Move m = legal[pick % legal.size()];
    // The same move on a clone: the engine is deterministic and a clone independent.
    const std::unique_ptr<Game> copy = g_.clone();
    EventList copy_events;
    FUZZ_CHECK(copy->apply(m, copy_events).ok(), "a clone accepts the same legal move");
    FUZZ_CHECK(move(m), "every legal move is accepted");
    FUZZ_CHECK(copy->state_hash() == g_.state_hash() && copy->board() == g_.board(),
               "a clone reaches the same state");
    FUZZ_CHECK(protocol::events_reply_text(nullptr, "g", *copy, copy_events) ==
                   protocol::events_reply_text(nullptr, "g", g_, last_events_),
               "a clone gives the same events");
  }

  void undo() {
    const Snapshot before = Snapshot::of(g_);
    const bool expected =
        before.over == OverReason::none && before.move_count > 0 &&
        (g_.mode() == Mode::same || (g_.mode() == Mode::match3 && !g_.setup().ranked()));
    const game::Outcome out = g_.undo();
    FUZZ_CHECK(out.ok() == expected, "undo is allowed exactly where rules.md allows it");
    if (!out.ok()) {
      FUZZ_CHECK(out.status == Status::not_allowed, "a refused undo is not_allowed");
      FUZZ_CHECK(Snapshot::of(g_) == before, "a refused undo changes nothing");
      return;
    }
    FUZZ_CHECK(!history_.empty() && Snapshot::of(g_) == history_.back(),
               "undo restores the state before the last move");
    history_.pop_back();
    client_ = game::test::EventApplier(g_.width(), g_.height(), g_.visible_board(), g_.score(),
                                       g_.mode());
  }

  void preview(Point p) {
    const Snapshot before = Snapshot::of(g_);
    game::Preview pv;
    const game::Outcome out = g_.preview(p, pv);
    FUZZ_CHECK(Snapshot::of(g_) == before, "preview changes nothing");
    const std::vector<Point> group = group_at(g_.board(), p);
    if (g_.mode() != Mode::same || g_.over() || group.size() < 2) {
      const Status expected = g_.mode() != Mode::same ? Status::wrong_mode
                              : g_.over()             ? Status::not_allowed
                                                      : Status::invalid_move;
      FUZZ_CHECK(!out.ok() && out.status == expected, "preview is refused as the click would be");
      return;
    }
    FUZZ_CHECK(out.ok(), "preview of a group of two or more is accepted");
    const auto n = static_cast<std::int64_t>(group.size());
    FUZZ_CHECK(pv.cells.size() == group.size() && as_set(pv.cells) == as_set(group),
               "preview lists exactly the group");
    FUZZ_CHECK(pv.points == (n - 2) * (n - 2), "preview points are (n - 2)^2");
    // The click itself, on a copy, removes that group for those points.
    const std::unique_ptr<Game> copy = g_.clone();
    EventList events;
    FUZZ_CHECK(copy->apply(Move{MoveKind::click, p, {}}, events).ok(),
               "a previewed click is accepted");
    FUZZ_CHECK(events.size() >= 2 && std::holds_alternative<game::RemoveEvent>(events[0]) &&
                   std::holds_alternative<game::ScoreEvent>(events[1]),
               "a click gives remove, then score");
    FUZZ_CHECK(as_set(std::get<game::RemoveEvent>(events[0]).cells) == as_set(group) &&
                   std::get<game::ScoreEvent>(events[1]).delta == pv.points,
               "the click removes what preview showed");
    FUZZ_CHECK(Snapshot::of(g_) == before, "a clone is independent");
  }

  void hint() {
    const Snapshot before = Snapshot::of(g_);
    game::Hint h;
    const game::Outcome out = g_.hint(h);
    FUZZ_CHECK(Snapshot::of(g_) == before, "hint changes nothing");
    const bool expected = g_.mode() != Mode::hidden && !g_.over();
    FUZZ_CHECK(out.ok() == expected, "hint is given in a running Same Game or match-3 game");
    if (!out.ok()) {
      FUZZ_CHECK(out.status == Status::not_allowed, "a refused hint is not_allowed");
      return;
    }
    FUZZ_CHECK(h.move.kind == (g_.mode() == Mode::same ? MoveKind::click : MoveKind::swap),
               "a hint is a move of the mode");
    if (g_.mode() == Mode::same) {
      std::size_t largest = 0;
      for (int y = 0; y < g_.height(); ++y) {
        for (int x = 0; x < g_.width(); ++x) {
          largest = std::max(largest, group_at(g_.board(), {x, y}).size());
        }
      }
      FUZZ_CHECK(group_at(g_.board(), h.move.a).size() == largest,
                 "a Same Game hint clicks a largest group");
    }
    FUZZ_CHECK(move(h.move), "a hinted move is accepted");
  }

  void resign() {
    const Snapshot before = Snapshot::of(g_);
    EventList events;
    const game::Outcome out = g_.resign(events);
    if (before.over != OverReason::none) {
      FUZZ_CHECK(!out.ok() && out.status == Status::not_allowed,
                 "resign in a finished game is not_allowed");
      FUZZ_CHECK(events.empty() && Snapshot::of(g_) == before, "a refused resign changes nothing");
      return;
    }
    FUZZ_CHECK(out.ok() && g_.over_reason() == OverReason::resigned, "resign ends a running game");
    FUZZ_CHECK(events.size() == 1, "a resign sends only game_over");
    FUZZ_CHECK(g_.state_hash() == before.hash && g_.move_count() == before.move_count,
               "resign changes neither the board, the score nor the move count");
    check_events(before, events);
  }

  game::Board board_of(const Snapshot& before) const {
    game::Board b(g_.width(), g_.height());
    b.cells() = before.board;
    return b;
  }

  // Applies the events as a client would and compares with the game.
  void check_events(const Snapshot& before, const EventList& events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (std::holds_alternative<game::GameOverEvent>(events[i])) {
        FUZZ_CHECK(i + 1 == events.size(), "game_over is the last event");
      }
      const std::string why = client_.apply(events[i]);
      if (!why.empty()) fail(__FILE__, __LINE__, why.c_str());
    }
    const bool ended = before.over == OverReason::none && g_.over();
    const bool sent_over =
        !events.empty() && std::holds_alternative<game::GameOverEvent>(events.back());
    FUZZ_CHECK(ended == sent_over, "events end with game_over exactly when the game ends");
    FUZZ_CHECK(client_.cells() == g_.visible_board(), "events reproduce the visible board");
    FUZZ_CHECK(client_.score() == g_.score(), "events reproduce the score");
    FUZZ_CHECK(
        spec_state_hash(client_.cells(), g_.move_count(), client_.score()) == g_.state_hash(),
        "the client's hash agrees with the server's");
    if (ended) check_game_over(std::get<game::GameOverEvent>(events.back()));
    check_messages(events);
  }

  void check_game_over(const game::GameOverEvent& e) {
    FUZZ_CHECK(e.reason == g_.over_reason() && e.final_score == g_.score(),
               "game_over tells the end");
    const bool cleared = g_.board().empty();
    if (e.reason == OverReason::resigned) {
      FUZZ_CHECK(e.bonus == 0, "no bonus for resigning");
    } else if (g_.mode() == Mode::match3) {
      const bool spent = g_.moves_left() && *g_.moves_left() <= 0;
      FUZZ_CHECK(
          e.reason == (spent ? OverReason::out_of_moves : OverReason::no_moves) && e.bonus == 0,
          "match-3 ends out_of_moves (which wins) or no_moves, without bonus");
    } else {
      FUZZ_CHECK((e.reason == OverReason::cleared) == cleared,
                 "cleared exactly when the board is empty");
      FUZZ_CHECK(e.reason == OverReason::cleared || e.reason == OverReason::no_moves,
                 "a known reason");
      FUZZ_CHECK(e.bonus == (cleared ? 1000 : 0), "the clear bonus is 1000");
    }
  }

  // The protocol's two forms of each event message agree; spectators never
  // get a peek colour.
  void check_messages(const EventList& events) {
    const nlohmann::json id = 7;
    FUZZ_CHECK(protocol::events_reply_text(id, "g", g_, events) ==
                   protocol::dump(protocol::events_reply(id, "g", g_, events)),
               "events_reply_text equals dump(events_reply)");
    const nlohmann::json room = protocol::room_events("R", "p", g_, events);
    FUZZ_CHECK(protocol::room_events_text("R", "p", g_, events) == protocol::dump(room),
               "room_events_text equals dump(room_events)");
    for (const auto& e : room["events"]) {
      if (e["kind"] == "peek") FUZZ_CHECK(e["color"] == -1, "spectators get no peek colour");
    }
  }

  // The GameView carries visible_board() only.
  void check_view() const {
    const nlohmann::json view =
        protocol::game_view(g_, protocol::GameViewMeta{.game_id = "g", .elapsed_ms = 0});
    const std::vector<int> visible = g_.visible_board();
    std::size_t i = 0;
    for (const auto& row : view["board"]) {
      for (const auto& cell : row)
        FUZZ_CHECK(cell.get<int>() == visible[i++], "GameView board is visible_board");
    }
    FUZZ_CHECK(i == visible.size(), "GameView board has every cell");
    FUZZ_CHECK(view["state_hash"] == game::hash_hex(g_.state_hash()), "GameView state_hash");
  }

  Game& g_;
  game::test::EventApplier client_;
  std::vector<Snapshot> history_;  // before each accepted, not undone move
  EventList last_events_;          // of the last accepted move
};

}  // namespace
}  // namespace tilecrush::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilecrush;
  fuzz::ByteReader in(data, size);
  const game::GameSetup setup = fuzz::read_setup(in);
  game::CreateResult created = game::create_game(setup);
  FUZZ_CHECK((created.game != nullptr) == fuzz::valid_setup(setup),
             "create_game accepts exactly the setups rules.md allows");
  if (!created.game) {
    FUZZ_CHECK(!created.error.empty(), "a refused setup says why");
    return 0;
  }
  game::Game& g = *created.game;
  FUZZ_CHECK(g.score() == 0 && g.move_count() == 0, "a game starts at score 0, move 0");
  fuzz::check_state(g);
  fuzz::Run run(g);
  for (int i = 0; i < fuzz::kMaxSteps && !in.done(); ++i) run.step(in);
  run.finish();
  return 0;
}
