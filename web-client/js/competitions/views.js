// DOM pieces shared by the competition pages: dates in the reader's time
// zone and language, the one-line summary of a competition, and the
// leaderboard and results tables. Names and competition names come from
// other people: they only ever go in as text (dom.js h() makes text nodes).

import { h, link } from '../dom.js';
import { t, formatGameTime, dateFormat } from '../i18n.js';
import { attemptsRule, compUrl, resultRows } from './logic.js';
import { raceUrl } from '../race/links.js';
import { replayUrl } from '../replay/links.js';

// A competition's name as the reader's language says it: a daily's is made
// from its mode, preset and date ("Daily · Same Game · Easy · 2026-11-24");
// an organiser's is theirs, as given.
export function compName(c) {
  if (!c) return '';
  if (c.daily) {
    return t('comp.dailyName', { mode: t(`mode.${c.mode}`), preset: t(`preset.${c.preset}`), date: c.seed });
  }
  return c.name;
}

// "24 Nov 2026, 10:00 – 12:00 UTC" (the shared parts once), local time.
export function formatWindow(opensIso, closesIso) {
  const a = new Date(opensIso);
  const b = new Date(closesIso);
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime())) return `${opensIso ?? ''} – ${closesIso ?? ''}`;
  // Short windows (tests, quick games) show their seconds.
  const f = Math.floor(a / 60000) === Math.floor(b / 60000) ? dateFormat(true, true) : dateFormat(true);
  return f.formatRange ? f.formatRange(a, b) : `${f.format(a)} – ${f.format(b)}`;
}

export function boardName(c) {
  return `${t(`mode.${c.mode}`)} · ${c.preset ? t(`preset.${c.preset}`) : t('preset.custom')}`;
}

export function ruleText(c) {
  const r = attemptsRule(c);
  return t(r.key, r.vars);
}

// One competition in a list: its name (a link to its page), board, window
// and attempts rule.
export function competitionItem(c) {
  return h('li', { class: 'comp-item', testid: 'comp-item', dataset: { id: c.id, state: c.state } },
    h('div', { class: 'comp-item-head' },
      link(compUrl(c.id), compName(c), { class: 'comp-name', testid: 'comp-link' }),
      c.daily ? h('span', { class: 'badge' }, t('comps.daily')) : null),
    h('div', { class: 'comp-item-meta' },
      h('span', {}, boardName(c)),
      h('span', {}, formatWindow(c.opens_at, c.closes_at)),
      h('span', {}, ruleText(c)),
      c.organiser ? h('span', {}, t('comps.by', { name: c.organiser })) : null));
}

// The built-in dailies of one day (same window), compactly: the day, then
// one link per board.
export function dailyGroup(list) {
  const [first] = list;
  return h('li', { class: 'comp-item comp-daily-group', testid: 'comp-daily-group' },
    h('div', { class: 'comp-item-head' },
      h('span', { class: 'comp-name' }, t('comp.daily')),
      h('span', { class: 'comp-item-meta' }, formatWindow(first.opens_at, first.closes_at))),
    h('div', { class: 'comp-chips' }, list.map((c) => link(compUrl(c.id), boardName(c),
      { class: 'chip', testid: 'comp-link', dataset: { id: c.id, state: c.state } }))));
}

// The columns a phone leaves out (style.css, .opt): the attempts, and of
// moves and time the one that breaks no tie on the mode's boards
// (rules.md, "Ranking": fewer moves on same and match3, shorter time on
// hidden), so that a phone still shows why two equal scores stand in their
// order.
export function phoneHides(mode) {
  return [mode === 'hidden' ? 'lb.moves' : 'lb.time', 'lb.attempts'];
}
const optional = (mode, key) => (phoneHides(mode).includes(key) ? 'opt' : null);

const playerLink = (name) => link(`/?${new URLSearchParams({ view: 'player', name })}`, name);
const raceEntryLink = (id) => h('span', { class: 'race-link' }, h('span', { class: 'sep' }, ' · '),
  link(raceUrl(id), t('race.short'), { testid: 'comp-race', title: t('race.action') }));
const replayLink = (id) => (id ? link(replayUrl(id), t('btn.replay')) : '');
// The server's own check of an entry, read on the entry's replay page
// (GET /api/games/{id}/verify there; its verdict in words).
const verifyLink = (id) => (id ? link(replayUrl(id, null, { verify: true }), t('archive.verify'),
  { testid: 'comp-verify-link' }) : '');
const duration = (ms, mode) => (ms == null ? '' : formatGameTime(ms, { tenths: mode === 'hidden' }));

// The live leaderboard (entries of /api/competitions/{id}/leaderboard) of a
// board of `mode`.
export function leaderboardTable(entries, me, mode) {
  const body = h('tbody');
  for (const e of entries) {
    body.append(h('tr', { class: me && e.player === me ? 'me' : '', testid: 'comp-lb-row',
      dataset: { player: e.player, rank: String(e.rank) } },
    h('td', {}, String(e.rank)),
    h('td', { class: 'who' }, playerLink(e.player)),
    h('td', { testid: 'comp-lb-score' }, String(e.score)),
    h('td', { class: optional(mode, 'lb.moves') }, String(e.move_count)),
    h('td', { class: optional(mode, 'lb.time') }, duration(e.duration_ms, mode)),
    h('td', { class: optional(mode, 'lb.attempts') }, e.attempts == null ? '' : String(e.attempts))));
  }
  return h('table', { class: 'lb-table', testid: 'comp-lb' },
    h('thead', {}, h('tr', {}, ['lb.rank', 'lb.player', 'lb.score', 'lb.moves', 'lb.time', 'lb.attempts']
      .map((k) => h('th', { i18n: k, class: optional(mode, k) })))), body);
}

// The results after the close: disqualified rows struck out with their
// reason, other flags listed. With `onDisqualify` (the organiser's view)
// each ranked row's notes end with a Disqualify button, which calls
// onDisqualify(entry, button) (in the notes, not a column of its own, so
// that the table still fits a phone). Entries are read defensively: fields the
// export may gain later are ignored.
// With `race` (a closed board), each entry's last cell also offers to race
// its ghost (pages/race.js); with `verify` (a closed board) each row also
// links its verification. With `replays` false (the organiser's table while
// the competition runs: the server keeps every entry's moves secret until
// the close, from the organiser too) the last cell says when its replay
// comes; on a phone that column, the same words on every row, is left out
// (.opt) so that the table fits.
// The Notes column is there only where some row has a note (or the
// organiser's Disqualify button): empty, it would only narrow the others.
// The last cell's links stack on a phone (.links).
export function resultsTable(entries, me, { mode = null, onDisqualify = null, race = false, verify = false,
  replays = true } = {}) {
  const body = h('tbody');
  const rows = resultRows(entries);
  const withNotes = Boolean(onDisqualify) || rows.some((row) => row.flags.length > 0 || row.reason);
  for (const row of rows) {
    const e = row.entry;
    const notes = [];
    for (const f of row.flags) notes.push(h('span', { class: 'flag', testid: 'comp-flag' }, f.key ? t(f.key) : f.text));
    if (row.reason) notes.push(h('span', { class: 'reason', testid: 'comp-dq-reason' }, row.reason));
    const cls = [me && e.player === me ? 'me' : '', row.disqualified ? 'dq' : ''].filter(Boolean).join(' ');
    body.append(h('tr', { class: cls, testid: 'comp-result-row',
      dataset: { player: e.player, rank: row.rank, disqualified: String(row.disqualified) } },
    h('td', {}, row.rank),
    h('td', { class: 'who' }, playerLink(e.player)),
    h('td', { testid: 'comp-result-score' }, String(e.score)),
    h('td', { class: optional(mode, 'lb.moves') }, e.move_count == null ? '' : String(e.move_count)),
    h('td', { class: optional(mode, 'lb.time') }, duration(e.duration_ms, mode)),
    withNotes ? h('td', { class: 'notes' }, notes, onDisqualify && !row.disqualified ? dqButton(e, onDisqualify) : null)
      : null,
    h('td', { class: replays ? 'links' : 'opt' }, replays ? replayLink(e.game_id)
      : h('span', { class: 'note', testid: 'comp-replay-later' }, t('lb.replayAtClose')),
    verify && e.game_id ? [h('span', { class: 'sep' }, ' · '), verifyLink(e.game_id)] : null,
      race && e.game_id ? raceEntryLink(e.game_id) : null)));
  }
  const heads = ['lb.rank', 'lb.player', 'lb.score', 'lb.moves', 'lb.time', withNotes ? 'comp.notes' : null, 'lb.replay'];
  return h('table', { class: `lb-table results${onDisqualify ? ' managed' : ''}`, testid: 'comp-results' },
    h('thead', {}, h('tr', {}, heads.filter(Boolean)
      .map((k) => h('th', { i18n: k, class: k === 'lb.replay' && !replays ? 'opt' : optional(mode, k) })))), body);
}

function dqButton(entry, onDisqualify) {
  const button = h('button', { type: 'button', class: 'small danger-outline', testid: 'comp-dq',
    'aria-label': t('dq.buttonFor', { player: entry.player }) }, t('dq.button'));
  button.addEventListener('click', () => onDisqualify(entry, button));
  return button;
}
