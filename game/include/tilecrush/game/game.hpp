// A game's whole true state and the rules that change it (rules.md).
//
// A Game is created from a GameSetup, which is all it depends on: the same
// setup and the same list of moves always give the same state, on every
// machine. Every request either succeeds, appending the events that describe
// the change, or is refused with an Outcome and changes nothing at all.
//
// Thread safety: none. A Game is owned by one caller at a time (the server
// gives each game a strand); clone() makes an independent copy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tilecrush/game/board.hpp"
#include "tilecrush/game/crypto.hpp"
#include "tilecrush/game/events.hpp"
#include "tilecrush/game/types.hpp"

namespace tilecrush::game {

// Everything a game's starting position and rules depend on.
struct GameSetup {
  Mode mode = Mode::same;
  // A preset name ("easy", "classic", ...), or empty for custom parameters.
  std::string preset;
  // Always set: the server picks one when the player did not.
  std::string seed;
  // Custom parameters, used when `preset` is empty and `board` is not set.
  int width = 0;
  int height = 0;
  int colors = 0;
  // Match-3 move budget for custom games; nullopt: no limit. Presets use
  // their own budget and ignore this.
  std::optional<int> moves;
  // A custom starting board (cells 0..limit), settled before play starts.
  std::optional<Board> board;
  // Practice options: match-3 refill (default on, `crush` is always off) and
  // hidden-mode column compression (default off).
  bool refill = true;
  bool compress = false;
  // Which rules deal the board (types.hpp): games keep the version they
  // were created with.
  int rules_version = kRulesVersion;
  // Version 2: the board's secret key. A board with a key is dealt from it
  // and needs a preset without practice options; a board without one is
  // dealt from the seed alone, as in version 1 (practice boards are public).
  std::optional<BoardSecret> board_key;

  // A preset, no custom board, no practice option.
  bool ranked() const;
};

enum class MoveKind : std::uint8_t { click, swap, peek, select, unselect };

std::string_view to_string(MoveKind kind);

// One player move; `b` is used by swaps only.
struct Move {
  MoveKind kind = MoveKind::click;
  Point a;
  Point b;
  friend bool operator==(const Move&, const Move&) = default;
};

struct Preview {
  std::vector<Point> cells;
  std::int64_t points = 0;
};

// A suggested move: a click (Same Game) or a swap (match-3).
struct Hint {
  Move move;
};

class Game {
 public:
  virtual ~Game() = default;

  const GameSetup& setup() const { return setup_; }
  Mode mode() const { return setup_.mode; }
  int width() const { return board_.width(); }
  int height() const { return board_.height(); }
  // Preset K, custom K, or for a custom board the highest colour in it.
  int colors() const { return colors_; }

  std::int64_t score() const { return score_; }
  std::int64_t move_count() const { return static_cast<std::int64_t>(moves_.size()); }
  // Match-3 with a budget: budget - move_count; otherwise nullopt.
  virtual std::optional<int> moves_left() const;
  bool over() const { return over_reason_ != OverReason::none; }
  OverReason over_reason() const { return over_reason_; }
  // Accepted moves in order, undone ones removed.
  const std::vector<Move>& moves() const { return moves_; }

  // The true board. Never send it to a hidden-mode player: use visible_board().
  const Board& board() const { return board_; }
  // Row-major, top row first; -1 for a cell the player may not see.
  virtual std::vector<int> visible_board() const;
  // protocol.md's state_hash over visible_board(), move_count and score.
  std::uint64_t state_hash() const;

  // Applies a move. Refused: wrong_mode (a move of another mode),
  // not_allowed (game over), invalid_move (the rules refuse it).
  Outcome apply(const Move& move, EventList& events);
  // Ends the game now: a single game_over event, reason `resigned`.
  Outcome resign(EventList& events);
  // The same, reason `closed`: its competition closed while it was running.
  Outcome close(EventList& events);
  // Same Game hover preview.
  virtual Outcome preview(Point p, Preview& out) const;
  // One valid move (Same Game: a click on a largest group; match-3: a swap).
  virtual Outcome hint(Hint& out) const;
  // Takes back the last move (Same Game; match-3 practice).
  virtual Outcome undo();
  // Every move apply() would accept now.
  virtual std::vector<Move> legal_moves() const = 0;

  // Hidden mode: number of accepted peeks, and the selected cells.
  virtual std::int64_t peeks() const { return 0; }
  virtual std::vector<Point> selected() const { return {}; }

  virtual std::unique_ptr<Game> clone() const = 0;

 protected:
  Game(GameSetup setup, Board board, int colors);

  // Mode rules for an accepted-kind move on a running game. On success the
  // implementation updates board_/score_, appends events and returns ok; the
  // base class then records the move and may end the game.
  virtual Outcome do_apply(const Move& move, EventList& events) = 0;
  virtual bool accepts(MoveKind kind) const = 0;
  // Called after each accepted move: the reason the game is now over, or none.
  virtual OverReason check_over() const = 0;
  // Bonus added to the score when the game ends for `reason`.
  virtual std::int64_t end_bonus(OverReason reason) const;

  void finish(OverReason reason, EventList& events);
  // For factories: a starting position with no possible move is over at once
  // (no event, no bonus).
  void end_if_stuck_at_start();

  GameSetup setup_;
  Board board_;
  int colors_ = 0;
  std::int64_t score_ = 0;
  std::vector<Move> moves_;
  OverReason over_reason_ = OverReason::none;
};

struct CreateResult {
  std::unique_ptr<Game> game;  // null when refused
  std::string error;           // why the setup is invalid
};

// Validates the setup (preset exists, sizes and colours within the mode's
// custom limits, a custom board's cells in range) and deals the board.
CreateResult create_game(const GameSetup& setup);

struct ReplayResult {
  std::unique_ptr<Game> game;   // the replayed game, null when refused
  std::string error;            // setup error, or which move was refused
  std::size_t failed_move = 0;  // index of the refused move when game is null
};

// Rebuilds a game from its setup and move list.
ReplayResult replay(const GameSetup& setup, const std::vector<Move>& moves);

}  // namespace tilecrush::game
