// Pure logic of the competition pages (no DOM, no network): addresses,
// the clock (state and countdown from the server's opens_in_s/closes_in_s),
// the commitment check, the organiser form's request body, and the rows of
// the results table. Unit-tested in tests/browser/unit/competitions.test.mjs.

import { countKey } from '../i18n.js';
import { nameProblem, NAME_PROBLEM_KEYS } from '../names.js';

// Competition ids are opaque to the client (organiser ones are 10
// characters, dailies look like daily-2026-11-24-match3-classic); what a
// player may type or paste as a code is limited to the characters ids use.
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validId(id) {
  return typeof id === 'string' && ID_RE.test(id);
}

export function compUrl(id) {
  return `/?${new URLSearchParams({ view: 'competition', id })}`;
}

// The leaderboard page of a competition (paging, "around me").
export function compLeaderboardUrl(id, { offset = 0, around = false } = {}) {
  const q = new URLSearchParams({ view: 'leaderboard', competition: id });
  if (offset) q.set('offset', String(offset));
  if (around) q.set('around', '1');
  return `/?${q}`;
}

// The play page of one attempt: reloading it resumes the game (it never
// starts another attempt).
export function attemptUrl(gameView) {
  return `/?${new URLSearchParams({ mode: gameView.mode, preset: gameView.preset,
    competition: gameView.competition, game: gameView.game_id })}`;
}

// The daily board of a preset: new_game with daily: true (the server makes
// games past the ranked ones unranked practice on the same board).
export function dailyUrl(mode, preset) {
  return `/?${new URLSearchParams({ mode, preset, daily: '1' })}`;
}

// A code typed by a player, or a whole link pasted (…?view=competition&id=X).
export function codeFromInput(text) {
  const s = String(text || '').trim();
  if (!s) return null;
  if (/[?&]id=/.test(s)) {
    try {
      const id = new URL(s, 'http://x').searchParams.get('id');
      return validId(id) ? id : null;
    } catch {
      return null;
    }
  }
  return validId(s) ? s : null;
}

// Where a competition stands `now` ms, from a view fetched at `fetchedAt` ms
// (both Date.now() values of this browser, so its clock's offset from the
// server's does not matter). `left` is the number of seconds until the next
// change (opening or closing), null once closed. A state the countdown says
// has passed ('open' after closes_in_s ran out) is reported as the next
// one with `pending: true` until a fresh view confirms it.
export function phase(view, fetchedAt, now) {
  const elapsed = Math.max(0, (now - fetchedAt) / 1000);
  if (view.state === 'closed') return { state: 'closed', left: null, pending: false };
  if (view.state === 'upcoming') {
    const toOpen = Number(view.opens_in_s) - elapsed;
    if (toOpen > 0) return { state: 'upcoming', left: toOpen, pending: false };
    const toClose = Number(view.closes_in_s) - elapsed;
    if (toClose > 0) return { state: 'open', left: toClose, pending: true };
    return { state: 'closed', left: null, pending: true };
  }
  const toClose = Number(view.closes_in_s) - elapsed;
  if (toClose > 0) return { state: 'open', left: toClose, pending: false };
  return { state: 'closed', left: null, pending: true };
}

// The attempts rule as an i18n key and its variables.
export function attemptsRule(view) {
  const n = view.attempts;
  const counts = view.counts === 'first' ? 'first' : 'best';
  if (n == null) return { key: `comp.rule.unlimited.${counts}`, vars: {} };
  if (n === 1) return { key: 'comp.rule.one', vars: {} };
  return { key: `comp.rule.n.${counts}`, vars: { n } };
}

// The player's own attempts (from ?player=NAME) as an i18n key and vars,
// or null when the view does not have them.
export function attemptsInfo(view) {
  if (view.attempts_used == null) return null;
  const used = view.attempts_used;
  // One attempt (and playing once) has texts of its own: no "1 attempts".
  if (view.attempts == null || view.attempts_left == null) {
    return { key: countKey('comp.you.unlimited', used), vars: { used }, left: null };
  }
  const left = view.attempts_left;
  const n = view.attempts;
  if (left <= 0) return { key: countKey('comp.you.none', n), vars: { used, n }, left: 0 };
  return { key: countKey('comp.you.left', n), vars: { used, left, n }, left };
}

// Hex <-> bytes. A string of an odd length or with a non-hex character
// gives null.
export function hexToBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// Checks that SHA-256 of the key's 32 bytes is the commitment published
// before the opening. Answers 'verified', 'mismatch', 'invalid' (the key is
// not 64 hex digits) or 'unavailable' (no WebCrypto: crypto.subtle exists
// only on secure pages, https or localhost).
export async function checkCommitment(keyHex, commitmentHex, subtle = globalThis.crypto && globalThis.crypto.subtle) {
  const key = hexToBytes(keyHex);
  if (!key || key.length !== 32 || typeof commitmentHex !== 'string') return { result: 'invalid', digest: null };
  if (!subtle) return { result: 'unavailable', digest: null };
  const digest = bytesToHex(await subtle.digest('SHA-256', key));
  return { result: digest === commitmentHex.toLowerCase() ? 'verified' : 'mismatch', digest };
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

// A Date as the value of an <input type="datetime-local" step="1"> in the
// browser's time zone: 2026-11-24T19:00:05.
export function toLocalInput(date) {
  const d = new Date(date);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// The value of a datetime-local input (local time, with or without
// seconds) as ISO 8601 UTC with milliseconds; null when it is not one.
export function localInputToIso(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(String(value || ''));
  if (!m) return null;
  const [, y, mo, d, hh, mm, ss = '0', ms = '0'] = m;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mm), Number(ss), Number(ms.padEnd(3, '0')));
  if (Number.isNaN(date.getTime()) || date.getMonth() !== Number(mo) - 1) return null;
  return date.toISOString();
}

// "Open at once": now, rounded up to the next whole second, so that the
// opening is never before the request reaches the server.
export function openNowIso(now = Date.now()) {
  return new Date(Math.ceil((now + 1) / 1000) * 1000).toISOString();
}

export const COUNTS = ['best', 'first'];

// The server's limits on a competition's window (protocol.md, "POST
// /api/competitions"): the opening at most 60 s before its clock, the
// closing at most 366 days after the opening.
export const OPENING_SLACK_MS = 60 * 1000;
export const MAX_WINDOW_MS = 366 * 86400 * 1000;

// The organiser form's fields -> the POST /api/competitions body, or the
// first problem as an i18n key. fields: {name, mode, preset, opensIso,
// closesIso, unlimited, attempts (string or number), counts, unlisted};
// now: the browser's clock, in ms.
export function createBody(f, presets, now = Date.now()) {
  const name = String(f.name || '').trim();
  const len = [...name].length;
  if (len < 1 || len > 64 || /\p{Cc}/u.test(name)) return { error: 'org.err.name' };
  // A name people see must show something (protocol.md, "Fields").
  const problem = nameProblem(name);
  if (problem) return { error: NAME_PROBLEM_KEYS[problem] };
  if (!presets[f.mode] || !presets[f.mode].includes(f.preset)) return { error: 'org.err.preset' };
  if (!f.opensIso) return { error: 'org.err.opens' };
  if (!f.closesIso) return { error: 'org.err.closes' };
  const opens = Date.parse(f.opensIso);
  const closes = Date.parse(f.closesIso);
  if (opens < now - OPENING_SLACK_MS) return { error: 'org.err.past' };
  if (closes <= opens) return { error: 'org.err.order' };
  if (closes - opens > MAX_WINDOW_MS) return { error: 'org.err.tooLong' };
  let attempts = null;
  if (!f.unlimited) {
    const s = String(f.attempts ?? '').trim();
    attempts = /^\d+$/.test(s) ? Number(s) : NaN;
    if (!(attempts >= 1 && attempts <= 100)) return { error: 'org.err.attempts' };
  }
  if (!COUNTS.includes(f.counts)) return { error: 'org.err.counts' };
  return { body: { name, mode: f.mode, preset: f.preset, opens_at: f.opensIso, closes_at: f.closesIso,
    attempts, counts: f.counts, unlisted: !!f.unlisted } };
}

// A refusal of POST /api/competitions in the form's own words: the i18n key
// of a message protocol.md lists (its checks the form makes too; the
// server's clock may differ from the browser's), else null.
const REFUSALS = {
  'name must be 1-64 characters, no control characters': 'org.err.name',
  'name must show at least one visible character': NAME_PROBLEM_KEYS.nothingVisible,
  'name must not contain invisible characters': NAME_PROBLEM_KEYS.invisible,
  'mode must be same, match3 or hidden': 'org.err.preset',
  'unknown preset for this mode': 'org.err.preset',
  'opens_at is in the past': 'org.err.past',
  'closes_at must be after opens_at, at most 366 days later': 'org.err.tooLong',
  'attempts must be 1..100, or null for unlimited': 'org.err.attempts',
  'counts must be best or first': 'org.err.counts',
};
export function createRefusalKey(message) {
  return Object.hasOwn(REFUSALS, message) ? REFUSALS[message] : null;
}

// Rows of the results table: the rank to show ('–' when disqualified, as
// rank is then null), whether the row is struck out, and each flag as an
// i18n key (an unknown flag keeps its own text).
export function resultRows(entries) {
  return (entries || []).map((e) => {
    const flags = Array.isArray(e.flags) ? e.flags : [];
    const disqualified = flags.includes('disqualified') || e.rank == null;
    return {
      entry: e,
      rank: e.rank == null ? '–' : String(e.rank),
      disqualified,
      flags: flags.map((f) => (KNOWN_FLAGS.includes(f) ? { key: `comp.flag.${f}` } : { text: f })),
      reason: e.reason || null,
    };
  });
}

const KNOWN_FLAGS = ['disqualified', 'replay_failed'];

// The competitions list: organiser competitions first (by opening time),
// then the built-in dailies (by mode order, then preset order).
export function sortCompetitions(list, modes, presets) {
  const dailyOrder = (c) => {
    const m = modes.indexOf(c.mode);
    const p = presets[c.mode] ? presets[c.mode].indexOf(c.preset) : 0;
    return m * 100 + p;
  };
  return [...(list || [])].sort((a, b) => {
    if (!!a.daily !== !!b.daily) return a.daily ? 1 : -1;
    const ta = Date.parse(a.opens_at) || 0;
    const tb = Date.parse(b.opens_at) || 0;
    if (ta !== tb) return ta - tb;
    if (a.daily) return dailyOrder(a) - dailyOrder(b);
    return String(a.name).localeCompare(String(b.name));
  });
}

// Result entries reduced to what every viewer must see alike (for tests and
// the page's debug hook): rank, player, score, flags.
export function resultsDigest(entries) {
  return (entries || []).map((e) => [e.rank, e.player, e.score, (e.flags || []).join('+')].join('|')).join('\n');
}

// The disqualification dialog's check before anything is sent: the reason,
// trimmed, is 1-200 characters (code points) without control characters,
// as the server wants it, and the player's name is typed again exactly.
// {ok, error (an i18n key), reason (trimmed), length (its code points)}.
export function dqCheck(player, reason, typed) {
  const r = String(reason ?? '').trim();
  const length = [...r].length;
  if (length < 1 || length > 200 || /\p{Cc}/u.test(r)) return { ok: false, error: 'dq.err.reason', reason: r, length };
  const name = String(player);
  const given = String(typed ?? '');
  if (given !== name && given.trim() !== name) return { ok: false, error: 'dq.err.name', reason: r, length };
  return { ok: true, error: null, reason: r, length };
}
