// The year benchmark's database ("Fast at a year of data"): `days` UTC days
// of dailies ending yesterday, made by the server's own Competitions (the
// same ids, names, seeds, keys and commitments), each board with `entries`
// finished ranked games (create_game + finish_game through the public
// Database API, so leaderboards, bests, games_played and streaks are kept
// exactly as the server keeps them), and each daily marked closed, so a
// server started on the database has no closing work to do. One named
// player has a game on every board of every day; the rest of each board's
// field is drawn from a pool of `players` players.
//
// The games carry results, not moves: their replays and verifications do
// not reach their scores (nothing here measures those), and a daily's
// closing moderation, which replays every entry, is not run (the fill marks
// them closed itself).
//
// Resumable: game ids are derived from (day, board, entry), so a fill that
// stopped part-way adds what is missing when run again, and a board already
// holding `entries` entries (and closed) is skipped whole.
//
// Thread safety: one YearFill on one thread; it queues writes on the
// Database's writer and reads through its pool.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tilecrush/storage/database.hpp"

namespace year_bench {

namespace storage = tilecrush::storage;

struct FillOptions {
  std::int64_t days = 365;
  std::int64_t entries = 1000;  // per board, the named player's included
  std::int64_t players = 5000;  // the pool the rest of each field comes from
  std::string player = "bench-daily";
  // Midnight UTC of "today": the last filled day is the one before.
  std::int64_t today_start = 0;
  bool progress = true;  // a line per 10 % on stderr
};

struct FillReport {
  bool ok = false;
  std::string error;                // the first refused write, when !ok
  std::int64_t boards = 0;          // closed dailies in the filled days
  std::int64_t boards_skipped = 0;  // already full and closed
  std::int64_t entries_added = 0;
  // Game writes that found their work done (a resumed fill): conflicts.
  std::uint64_t writes_found_done = 0;
  double dailies_s = 0;  // making the competitions (one commit each)
  double players_s = 0;
  double games_s = 0;
  double total_s = 0;
};

class YearFill {
 public:
  YearFill(storage::Database& db, FillOptions options);

  // Fills (or tops up) the database; the report says what it did.
  FillReport run();

  // The pool's names: "year-0", "year-1", ...
  static std::string pool_name(std::int64_t i);
  // A game's id (16 lowercase hex digits, as the server's), from the UTC
  // day number, the board's place in the day (0-8) and the entry's.
  static std::string game_id(std::int64_t day, std::int64_t board, std::int64_t entry);

 private:
  bool make_dailies(FillReport& report);
  bool make_players(FillReport& report);
  bool fill_games(FillReport& report);
  // Queues the entries of one daily (`index`: its place in the day), each
  // write after acquire() (a place in the window of writes in flight).
  bool queue_games(const storage::CompetitionRecord& c, std::int64_t day, std::int64_t index,
                   const tilecrush::game::BoardSecret& key, const std::function<void()>& acquire,
                   const storage::WriteCallback& counted, std::string& error);

  storage::Database& db_;
  FillOptions o_;
  std::vector<storage::PlayerId> pool_;  // pool_[i]: pool_name(i)
  storage::PlayerId named_ = 0;
};

// Midnight UTC starting the current day.
std::int64_t today_start_utc();

}  // namespace year_bench
