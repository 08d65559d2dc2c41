// Pure logic of the Archive (no DOM, no network): the day a closed board
// belongs to, the grouping of a page by day, and the addresses of the
// archive and of practice on a closed board. Unit-tested in
// tests/browser/unit/archive.test.mjs.

import { MODES, PRESETS } from '../presets.js';

// The UTC day (YYYY-MM-DD) a competition closed in; a close at midnight
// ends the day before (a daily of 2026-11-24 closes at 2026-11-25T00:00Z
// and belongs to the 24th).
export function closeDay(c) {
  const t = Date.parse(c && c.closes_at);
  if (Number.isNaN(t)) return '';
  return new Date(t - 1).toISOString().slice(0, 10);
}

// The boards of a list in order (newest first, as the archive gives them),
// grouped by closeDay(): [{day, boards}], consecutive boards of one day
// together. A day already started by `into` (the last group of the pages
// shown so far) goes on there.
export function groupByDay(boards, into = []) {
  const groups = into.slice();
  for (const c of boards || []) {
    const day = closeDay(c);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.boards.push(c);
    else groups.push({ day, boards: [c] });
  }
  return groups;
}

// The play page on a closed competition's board: new_game with
// `competition` starts unranked practice there once it has closed.
export function practiceUrl(c) {
  return `/?${new URLSearchParams({ mode: c.mode, preset: c.preset, competition: c.id })}`;
}

export const ARCHIVE_MODES = ['same', 'match3', 'hidden'];

// The archive page's address; mode only when it is one of ARCHIVE_MODES.
export function archiveUrl({ mode } = {}) {
  const q = new URLSearchParams({ view: 'archive' });
  if (ARCHIVE_MODES.includes(mode)) q.set('mode', mode);
  return `/?${q}`;
}

// Whether a game view is practice on a competition's closed board.
export function isClosedPractice(gameView, comp) {
  return !!(gameView && gameView.competition && !gameView.ranked && gameView.attempt == null
    && comp && comp.id === gameView.competition && comp.state === 'closed');
}

// A day's boards for display: the latest close first, and boards that
// closed at the same moment (the day's dailies) in the order the home page
// and the leaderboards give them, by mode, then preset.
export function dayOrder(boards) {
  const rank = (c) => {
    const m = MODES.indexOf(c.mode);
    const p = PRESETS[c.mode] ? PRESETS[c.mode].indexOf(c.preset) : -1;
    return (m < 0 ? MODES.length : m) * 100 + (p < 0 ? 99 : p);
  };
  return [...boards].sort((a, b) => (a.closes_at === b.closes_at ? rank(a) - rank(b)
    : a.closes_at < b.closes_at ? 1 : -1));
}
