// Where a finished game stands, as pure functions (no DOM, no network):
// the share text of a daily or competition game and its emoji summary,
// the dates around a daily, and the time to the next one.
//
// A share text must never teach the board (issue: "share without
// spoiling"): it carries totals only (score, moves, time, peeks, rank),
// and the emoji strip shows how the score was earned over the run, one
// square per tenth of the moves, never a position or a colour.

import { countKey } from '../i18n.js';

// The emoji strip: `trail` is the score after each move, in move order
// (trail[i] = score after move i + 1; the last one includes a clear
// bonus); a cleared board ends with a flag. Returns null when there is
// nothing to summarise (no move seen).
export const STRIP_SQUARES = 10;
const SHADES = ['⬜', '🟨', '🟧', '🟥'];

export function emojiStrip(trail, { cleared = false } = {}) {
  if (!Array.isArray(trail) || trail.length === 0) return null;
  const n = trail.length;
  const squares = Math.min(STRIP_SQUARES, n);
  // Points earned in each slice of the moves; peeks make deltas negative,
  // which count as nothing earned.
  const earned = [];
  let before = 0;
  for (let s = 0; s < squares; s += 1) {
    const end = Math.round(((s + 1) * n) / squares);
    const after = trail[end - 1];
    earned.push(Math.max(0, after - before));
    before = after;
  }
  const best = Math.max(...earned);
  let strip = earned.map((e) => {
    if (best <= 0 || e <= 0) return SHADES[0];
    const r = e / best;
    return r > 2 / 3 ? SHADES[3] : r > 1 / 3 ? SHADES[2] : SHADES[1];
  }).join('');
  if (cleared) strip += '🏁';
  return strip;
}

// m:ss or h:mm:ss of a duration in milliseconds.
export function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

// The share text. `g`: {title (the competition's or the daily's name, as
// shown), score, moveCount, peeks (hidden, or null), elapsedMs (hidden, or
// null), rank, total (or null when unknown), streak (days, or null), trail,
// cleared, url}; `tr` is the translation function (t of i18n.js). Lines:
// title; score and rank; the strip; moves (and peeks, time) and the
// streak; the link.
export function shareText(g, tr) {
  const lines = ['tilecrush · ' + g.title];
  let scoreLine = tr(countKey('share.score', g.score), { score: g.score });
  if (g.rank != null && g.total != null) scoreLine += ' · ' + tr('standing.rankOf', { rank: g.rank, total: g.total });
  lines.push(scoreLine);
  const strip = emojiStrip(g.trail, { cleared: !!g.cleared });
  if (strip) lines.push(strip);
  const facts = [tr(countKey('share.moves', g.moveCount), { n: g.moveCount })];
  if (g.peeks != null) facts.push(tr(countKey('share.peeks', g.peeks), { n: g.peeks }));
  if (g.elapsedMs != null) facts.push(clock(g.elapsedMs));
  if (g.streak) facts.push(tr('share.streak', { n: g.streak }));
  lines.push(facts.join(' · '));
  if (g.url) lines.push(g.url);
  return lines.join('\n');
}

// Daily ids: daily-YYYY-MM-DD-<mode>-<preset> (protocol.md).
const DAILY = /^daily-(\d{4}-\d{2}-\d{2})-([a-z0-9]+)-([a-z0-9]+)$/;

export function parseDailyId(id) {
  const m = typeof id === 'string' ? DAILY.exec(id) : null;
  return m ? { date: m[1], mode: m[2], preset: m[3] } : null;
}

export function dailyId(date, mode, preset) {
  return `daily-${date}-${mode}-${preset}`;
}

// The UTC date `days` days from `date` (YYYY-MM-DD), as YYYY-MM-DD.
export function shiftDate(date, days) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// The UTC date of a time in milliseconds.
export function utcDate(nowMs) {
  return new Date(nowMs).toISOString().slice(0, 10);
}

// Seconds from nowMs to the next 00:00 UTC, when the next dailies open.
export function secondsToNextDaily(nowMs) {
  const d = new Date(nowMs);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Math.ceil((next - nowMs) / 1000);
}

// The change between two results on the same kind of board (today's and
// the previous daily's): {score: the difference}. Either side missing:
// null. Places are not compared: yesterday's field is closed and today's
// still growing (#1 of 3 against #1 of 1 says nothing), while the score of
// a board of the same mode and preset does.
export function changeSince(now, before) {
  if (!now || !before) return null;
  return { score: now.score - before.score };
}

// "+125", "−40" (a real minus sign), "±0".
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '±0';
}
