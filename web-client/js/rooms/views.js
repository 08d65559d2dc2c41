// DOM pieces of the rooms page: the create and join forms, the share box,
// the players table (lobby and live scores) and the final standings.
// Names and seeds come from other players: they only ever go in as text
// (dom.js h() makes text nodes).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { MODES, PRESETS, loadChoice, saveChoice } from '../presets.js';
import { normalizeCode, validCode, roomUrl, scoreboard, standingRows } from './state.js';
import { copyLinkButton } from '../clipboard.js';

const CHOICE_KEY = 'tilecrush.roomChoice';

// Create a room: mode, preset, optional seed. onCreate({mode, preset, seed?}).
export function createForm(onCreate) {
  const choice = loadChoice(CHOICE_KEY);
  const modeSel = h('select', { testid: 'room-mode', id: 'room-mode' });
  const presetSel = h('select', { testid: 'room-preset', id: 'room-preset' });
  const seedIn = h('input', { type: 'text', maxlength: 64, testid: 'room-seed', id: 'room-seed',
    'data-i18n-placeholder': 'rooms.seedPlaceholder', placeholder: t('rooms.seedPlaceholder') });
  const button = h('button', { type: 'submit', class: 'primary', testid: 'btn-create-room', i18n: 'rooms.create' });
  function fill() {
    modeSel.replaceChildren(...MODES.map((m) => h('option', { value: m }, t(`mode.${m}`))));
    modeSel.value = choice.mode;
    presetSel.replaceChildren(...PRESETS[choice.mode].map((p) => h('option', { value: p }, t(`preset.${p}`))));
    if (!PRESETS[choice.mode].includes(choice.preset)) [choice.preset] = PRESETS[choice.mode];
    presetSel.value = choice.preset;
  }
  const save = () => saveChoice(CHOICE_KEY, choice);
  modeSel.addEventListener('change', () => { choice.mode = modeSel.value; fill(); save(); });
  presetSel.addEventListener('change', () => { choice.preset = presetSel.value; save(); });
  const form = h('form', { class: 'card room-form chooser', testid: 'room-create' },
    h('h2', { i18n: 'rooms.createTitle' }),
    h('label', { for: 'room-mode', i18n: 'mode.label' }), modeSel,
    h('label', { for: 'room-preset', i18n: 'preset.label' }), presetSel,
    h('label', { for: 'room-seed', i18n: 'rooms.seed' }), seedIn,
    h('p', { class: 'note', i18n: 'rooms.createHint' }), button);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const seed = seedIn.value.trim().slice(0, 64);
    onCreate({ mode: choice.mode, preset: choice.preset, ...(seed ? { seed } : {}) });
  });
  fill();
  return { el: form, refresh: fill, button };
}

// Join by code, as a player or as a spectator. onJoin(code, watch).
// A code no room can have is refused here; `code` and `error` (an i18n
// key) fill the form again after a join the server refused.
export function joinForm(onJoin, { code = '', error = '' } = {}) {
  const message = h('p', { class: 'message', testid: 'room-join-message', id: 'room-join-message', role: 'alert' });
  const say = (key) => {
    if (key) message.dataset.i18n = key;
    else delete message.dataset.i18n;
    message.textContent = key ? t(key) : '';
  };
  const codeIn = h('input', { type: 'text', maxlength: 64, testid: 'room-code-input', id: 'room-code-input',
    autocomplete: 'off', autocapitalize: 'characters', spellcheck: false, value: code,
    'aria-describedby': 'room-join-message' });
  codeIn.addEventListener('input', () => say(''));
  const join = h('button', { type: 'submit', class: 'primary', testid: 'btn-join-room', i18n: 'rooms.join' });
  const watch = h('button', { type: 'button', testid: 'btn-watch-room', i18n: 'rooms.watch' });
  const form = h('form', { class: 'card room-form', testid: 'room-join' },
    h('h2', { i18n: 'rooms.joinTitle' }),
    h('div', { class: 'seed-form' }, h('label', { for: 'room-code-input', i18n: 'rooms.code' }), codeIn, join, watch),
    message);
  say(error);
  const go = (w) => {
    const typed = normalizeCode(codeIn.value);
    if (!typed) { codeIn.focus(); return; }
    if (!validCode(typed)) { say('rooms.err.badCode'); codeIn.focus(); return; }
    onJoin(typed, w);
  };
  form.addEventListener('submit', (e) => { e.preventDefault(); go(false); });
  watch.addEventListener('click', () => go(true));
  return form;
}

// The room's two addresses: to play in it, and to watch it (only the
// latter once the race is on).
export function shareBox(code, { watchOnly = false } = {}) {
  const play = new URL(roomUrl(code), location.origin).href;
  const watch = new URL(roomUrl(code, { watch: true }), location.origin).href;
  const row = (labelKey, value, testid) => {
    const input = h('input', { readonly: true, value, testid, 'aria-label': t(labelKey) });
    // "Link copied" only when it was; else the link is selected in its field.
    const copy = copyLinkButton(input, `${testid}-copy`);
    return h('div', { class: 'share' }, h('label', { i18n: labelKey }), input, copy.button, copy.status);
  };
  return h('div', { class: 'room-share', testid: 'room-share' },
    watchOnly ? null : row('rooms.sharePlay', play, 'room-share-link'),
    row('rooms.shareWatch', watch, 'room-watch-link'));
}

function statusText(p, state) {
  if (!p.connected && state !== 'lobby' && p.over) return t('rooms.status.left');
  if (!p.connected) return t('rooms.status.away');
  if (state === 'lobby') return t('rooms.status.ready');
  return p.over ? t('rooms.status.over') : t('rooms.status.playing');
}

// Players of the room: name (host, me), connection, and in a started room
// the live score and moves. The spectators are a count.
export function playersTable(room, me) {
  const live = room.state !== 'lobby';
  // Once the race is on, the status is a badge (only when not playing), to
  // leave room for the scores.
  const status = (p) => {
    const text = statusText(p, room.state);
    if (!live) return h('td', { testid: 'room-player-status' }, text);
    return p.connected && !p.over ? null : h('span', { class: 'badge', testid: 'room-player-status' }, text);
  };
  const head = h('tr', {}, h('th', { i18n: 'lb.player' }),
    live ? h('th', { i18n: 'lb.score' }) : null, live ? h('th', { i18n: 'lb.moves' }) : null,
    live ? null : h('th', { i18n: 'rooms.state' }));
  const rows = scoreboard(room).map((p) => h('tr', {
    class: [p.name === me ? 'me' : '', p.connected ? '' : 'away'].filter(Boolean).join(' '),
    testid: 'room-player',
    dataset: { name: p.name, connected: String(!!p.connected), over: String(!!p.over), host: String(p.name === room.host) },
  },
  h('td', {}, h('span', { class: 'who' },
    h('span', { class: 'dot', dataset: { on: String(!!p.connected) }, 'aria-hidden': 'true' }),
    h('span', { testid: 'room-player-name' }, p.name)),
    p.name === room.host ? h('span', { class: 'badge', testid: 'room-host' }, t('rooms.host')) : null,
    p.name === me ? h('span', { class: 'badge' }, t('rooms.you')) : null,
    live ? status(p) : null),
  live ? h('td', { testid: 'room-player-score' }, String(p.score)) : null,
  live ? h('td', { testid: 'room-player-moves' }, String(p.move_count)) : null,
  live ? null : status(p)));
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'lb-table room-players', testid: 'room-players' }, h('thead', {}, head), h('tbody', {}, rows)),
    h('p', { class: 'note', testid: 'room-spectators', dataset: { count: String(room.spectators || 0) } },
      t('rooms.spectators', { n: room.spectators || 0 })));
}

// The final standings (room_finished), then `actions` (elements: what to
// do next). `left`: names marked "left", as in the players' table, so
// that a player who walked out is not read as one who finished.
export function standingsTable(standings, me, actions = [], left = new Set()) {
  const rows = standingRows(standings, me).map((s) => h('tr', {
    class: s.me ? 'me' : '', testid: 'standing', dataset: { player: s.player, rank: String(s.rank) },
  }, h('td', { testid: 'standing-rank' }, String(s.rank)),
  h('td', {}, s.player, left.has(s.player)
    ? [' ', h('span', { class: 'badge', testid: 'standing-left' }, t('rooms.status.left'))] : null),
  h('td', { testid: 'standing-score' }, String(s.score)), h('td', {}, String(s.move_count))));
  return h('div', { class: 'card room-standings', testid: 'room-standings' },
    h('h2', { i18n: 'rooms.standings' }),
    h('div', { class: 'table-wrap' }, h('table', { class: 'lb-table' },
      h('thead', {}, h('tr', {}, ['lb.rank', 'lb.player', 'lb.score', 'lb.moves'].map((k) => h('th', { i18n: k })))),
      h('tbody', {}, rows))),
    actions.length ? h('div', { class: 'over-actions', testid: 'room-next' }, ...actions) : null);
}
