// The ghost's pace and the race's arithmetic, pure (unit-tested in
// tests/browser/unit/race.test.mjs).
//
// A replay's steps carry t_ms, their offset from the entry's start (protocol.md,
// "Replays"); a race aligns them with the start of the player's own game. A
// game stored before offsets existed has t_ms null on every step: it goes
// at an even pace, its recorded duration spread over its moves, or
// EVEN_PACE_MS a move when the duration is unknown.

export const EVEN_PACE_MS = 1500;

// {times: the ms of each step from the start, paced: whether they are the
// recorded ones}. The null-move last step (a resign or a close) comes with
// the move before it.
export function stepTimes(steps, durationMs = null) {
  const paced = steps.length > 0 && steps.every((s) => Number.isFinite(s.t_ms));
  if (paced) return { times: steps.map((s) => s.t_ms), paced };
  const moves = steps.filter((s) => s.move != null).length;
  const each = Number.isFinite(durationMs) && durationMs > 0 && moves > 0 ? durationMs / moves : EVEN_PACE_MS;
  const times = [];
  let n = 0;
  for (const s of steps) {
    if (s.move != null) n += 1;
    times.push(Math.round(n * each));
  }
  return { times, paced };
}

// How many steps are due `ms` after the start (times are non-decreasing).
export function stepsDue(times, ms) {
  let n = 0;
  while (n < times.length && times[n] <= ms) n += 1;
  return n;
}

// The ghost's score `ms` after the start.
export function scoreAt(replay, times, ms) {
  const n = stepsDue(times, ms);
  return n === 0 ? replay.start.score : replay.steps[n - 1].score;
}

// 'ahead', 'behind' or 'level': my score against the ghost's.
export function leadOf(mine, ghost) {
  if (mine > ghost) return 'ahead';
  if (mine < ghost) return 'behind';
  return 'level';
}

// The end: who won ('me', 'ghost' or 'tie') and by how many points.
export function raceResult(mine, ghost) {
  const margin = Math.abs(mine - ghost);
  return { winner: mine > ghost ? 'me' : mine < ghost ? 'ghost' : 'tie', margin };
}

// The record after each of my moves: [{move, ms, mine, ghost, lead}], one
// per move count. A move's entry replaces any from an undone move, so the
// record always holds exactly the moves the game holds.
export function recordMove(record, { moveCount, ms, mine, ghost }) {
  const kept = record.slice(0, Math.max(0, moveCount - 1));
  kept.push({ move: moveCount, ms, mine, ghost, lead: leadOf(mine, ghost) });
  return kept;
}
