#include "play/competitions.hpp"

#include <future>

#include "ops/clock.hpp"
#include "play/ids.hpp"
#include "tilecrush/game/presets.hpp"

namespace tilecrush::server {

storage::WriteResult wait_for_write(
    const std::function<void(storage::WriteCallback)>& queue_write) {
  auto promise = std::make_shared<std::promise<storage::WriteResult>>();
  auto result = promise->get_future();
  queue_write([promise](const storage::WriteResult& r) { promise->set_value(r); });
  return result.get();
}

Competitions::Competitions(storage::Database& db, BoardKeys& keys, NowFn now, DailyRules rules)
    : db_(db), keys_(keys), now_(std::move(now)), rules_(rules) {}

std::string Competitions::daily_id(std::string_view date, game::Mode mode,
                                   std::string_view preset) {
  std::string id = "daily-";
  id += date;
  id += '-';
  id += game::to_string(mode);
  id += '-';
  id += preset;
  return id;
}

std::int64_t Competitions::day_start(std::int64_t ms) {
  const std::int64_t r = ms % kDayMs;
  return ms - (r < 0 ? r + kDayMs : r);
}

std::string_view Competitions::state_at(const storage::CompetitionRecord& c, std::int64_t now) {
  if (now < c.opens_at) return "upcoming";
  if (now < c.closes_at) return "open";
  return "closed";
}

storage::GameRecord::AttemptRule Competitions::attempt_rule(const storage::CompetitionRecord& c) {
  return {c.attempts, c.daily, c.first_counts};
}

bool Competitions::create_daily(std::string_view date, std::int64_t opens_at, game::Mode mode,
                                std::string_view preset) {
  storage::CompetitionRecord c;
  c.id = daily_id(date, mode, preset);
  if (db_.find_competition(c.id)) return true;
  c.name = "Daily " + std::string(game::to_string(mode)) + " " + std::string(preset) + " " +
           std::string(date);
  c.mode = mode;
  c.preset = std::string(preset);
  c.seed = std::string(date);
  c.opens_at = opens_at;
  c.closes_at = opens_at + kDayMs;
  c.attempts = rules_.attempts[static_cast<std::size_t>(mode)];
  c.daily = true;
  c.created_at = now_();
  storage::BoardRecord board = keys_.new_board({mode, c.preset, c.seed, c.id}, c.closes_at);
  const auto r = wait_for_write(
      [&](storage::WriteCallback done) { db_.create_competition(c, board, std::move(done)); });
  // conflict: another node (or thread) created it first; its key stands.
  return r.ok() || r.status == storage::WriteStatus::conflict;
}

bool Competitions::ensure_dailies(std::int64_t now) {
  const std::int64_t today = day_start(now);
  std::lock_guard lock(mutex_);
  if (ensured_day_ == today) return true;
  try {
    for (const std::int64_t day : {today, today + kDayMs}) {
      const std::string date = utc_date(day);
      for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
        for (const game::Preset& p : game::presets(mode)) {
          if (!create_daily(date, day, mode, p.name)) return false;
        }
      }
    }
  } catch (const std::exception&) {
    return false;
  }
  ensured_day_ = today;
  return true;
}

std::vector<storage::CompetitionRecord> Competitions::dailies_of(std::string_view date) {
  std::vector<storage::CompetitionRecord> out;
  for (game::Mode mode : {game::Mode::same, game::Mode::match3, game::Mode::hidden}) {
    for (const game::Preset& p : game::presets(mode)) {
      if (auto c = db_.find_competition(daily_id(date, mode, p.name))) out.push_back(std::move(*c));
    }
  }
  return out;
}

std::optional<storage::CompetitionRecord> Competitions::find(std::string_view id) {
  return db_.find_competition(id);
}

std::optional<game::BoardSecret> Competitions::key_of(const storage::CompetitionRecord& c) {
  const storage::BoardKey board{c.mode, c.preset, c.seed, c.id};
  if (auto key = keys_.cached(board)) return key;
  auto stored = db_.find_board(board);
  if (!stored) return std::nullopt;
  keys_.remember(board, stored->key);
  return stored->key;
}

std::optional<storage::CompetitionRecord> Competitions::create(storage::CompetitionRecord c,
                                                               std::string* error) {
  c.id = random_competition_id();
  if (c.seed.empty()) c.seed = c.id;
  c.daily = false;
  c.created_at = now_();
  storage::BoardRecord board = keys_.new_board({c.mode, c.preset, c.seed, c.id}, c.closes_at);
  const auto r = wait_for_write(
      [&](storage::WriteCallback done) { db_.create_competition(c, board, std::move(done)); });
  if (!r.ok()) {
    if (error) *error = r.message;
    return std::nullopt;
  }
  c.commitment = board.commitment;
  keys_.remember({c.mode, c.preset, c.seed, c.id}, board.key);
  return c;
}

}  // namespace tilecrush::server
