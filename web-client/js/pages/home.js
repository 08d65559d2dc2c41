// Home: choose a mode and a preset, then play a random board, a chosen seed
// or one of today's daily boards (with a countdown to the next day). Each
// daily board is a built-in competition: its commitment is shown (and
// tomorrow's, published in advance), its leaderboard is the competition's.

import { h, clear, link } from '../dom.js';
import { t, tn, onLangChange, formatDuration } from '../i18n.js';
import { MODES, PRESETS, boardUrl, loadChoice, saveChoice } from '../presets.js';
import { api } from '../api.js';
import { attemptUrl, compLeaderboardUrl, compUrl, dailyUrl } from '../competitions/logic.js';
import { fetchRunning, runningIn } from '../running.js';
import { loadYesterday, yesterdayCard } from '../standing/yesterday.js';
import { entriesOn, dayStart } from '../standing/own_entries.js';
import { streakList } from '../standing/streaks.js';

const CHOICE_KEY = 'tilecrush.choice';

export function homePage(root, app) {
  const choice = loadChoice(CHOICE_KEY);
  const modeSelect = h('select', { testid: 'mode-select', id: 'mode-select' });
  const presetSelect = h('select', { testid: 'preset-select', id: 'preset-select' });
  const seedInput = h('input', { type: 'text', maxlength: 64, testid: 'seed-input', id: 'seed-input',
    'data-i18n-placeholder': 'home.seedPlaceholder', placeholder: t('home.seedPlaceholder') });
  const rules = h('p', { class: 'rules', testid: 'rules' });
  const dailyList = h('ul', { class: 'daily-list', testid: 'daily-list' });
  const countdown = h('p', { class: 'countdown', testid: 'daily-countdown' });
  const tomorrow = h('div', { class: 'daily-tomorrow', testid: 'daily-tomorrow' });
  let daily = null;
  let dailyFetchedAt = 0;
  let timer = null;
  // The player's running competition attempts: a daily's shows as Resume
  // on its row, the others in a card of their own.
  let running = [];
  const compNames = new Map();
  let destroyed = false;
  const runningCard = h('div', { class: 'card running', testid: 'running-card', hidden: true });
  let gone = false;
  const yesterday = yesterdayCard();
  const streaks = h('div', { class: 'home-streaks', testid: 'home-streaks' });
  let mine = null;  // the player's /api/players answer, for the streaks
  // The player's places on today's dailies (competition id -> {rank,
  // score, total}), from their history: a row the player has an entry on
  // says so.
  let todayMine = new Map();
  // Today's boards whose counted attempts the player has all used: their
  // Play is practice (protocol.md, "Dailies"), and says so.
  const usedUp = new Set();

  function fillModes() {
    clear(modeSelect);
    for (const m of MODES) {
      modeSelect.append(h('option', { value: m, selected: m === choice.mode }, t(`mode.${m}`)));
    }
    modeSelect.value = choice.mode;
  }

  function fillPresets() {
    clear(presetSelect);
    for (const p of PRESETS[choice.mode]) {
      presetSelect.append(h('option', { value: p }, t(`preset.${p}`)));
    }
    if (!PRESETS[choice.mode].includes(choice.preset)) [choice.preset] = PRESETS[choice.mode];
    presetSelect.value = choice.preset;
    rules.textContent = t(`home.rules.${choice.mode}`);
  }

  function save() {
    saveChoice(CHOICE_KEY, choice);
  }

  modeSelect.addEventListener('change', () => {
    choice.mode = modeSelect.value;
    fillPresets();
    save();
  });
  presetSelect.addEventListener('change', () => {
    choice.preset = presetSelect.value;
    save();
  });

  const randomBtn = h('button', { type: 'button', class: 'primary', testid: 'btn-random', i18n: 'home.random' });
  randomBtn.addEventListener('click', () => app.navigate(boardUrl(choice.mode, choice.preset), { force: true }));
  const seedForm = h('form', { class: 'seed-form', testid: 'seed-form' },
    h('label', { for: 'seed-input', i18n: 'home.seed' }), seedInput,
    h('button', { type: 'submit', testid: 'btn-seed', i18n: 'home.seedPlay' }));
  seedForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const seed = seedInput.value.trim();
    if (!seed) { seedInput.focus(); return; }
    app.navigate(boardUrl(choice.mode, choice.preset, seed.slice(0, 64)), { force: true });
  });

  const byMode = (list) => [...list].sort((a, b) => MODES.indexOf(a.mode) - MODES.indexOf(b.mode));
  const commitment = (b, testid) => (b.commitment
    ? h('div', { class: 'daily-commit' }, h('span', { class: 'label' }, `${t('home.commitment')}: `),
      h('code', { class: 'hex', testid }, b.commitment))
    : null);

  function renderDaily() {
    clear(dailyList);
    clear(tomorrow);
    if (!daily) return;
    for (const b of byMode(daily.boards)) {
      // A server without competitions: the daily board is the date's seed.
      const play = b.competition ? dailyUrl(b.mode, b.preset) : boardUrl(b.mode, b.preset, b.seed);
      const board = b.competition ? compLeaderboardUrl(b.competition)
        : `/?${new URLSearchParams({ view: 'leaderboard', mode: b.mode, preset: b.preset, seed: b.seed })}`;
      dailyList.append(h('li', { class: 'daily-board', testid: 'daily-board',
        dataset: { mode: b.mode, preset: b.preset, competition: b.competition || '' } },
      // The board's name leads to its competition page (countdown, key).
      b.competition
        ? link(compUrl(b.competition), `${t(`mode.${b.mode}`)} · ${t(`preset.${b.preset}`)}`,
          { class: 'daily-name', testid: 'daily-details', title: t('home.details') })
        : h('span', { class: 'daily-name' }, `${t(`mode.${b.mode}`)} · ${t(`preset.${b.preset}`)}`),
      ...playOrResume(b, play),
      link(board, t('home.board'), { class: 'button secondary', testid: 'daily-leaderboard' }),
      ...runningOn(b),
      ...placeOn(b),
      commitment(b, 'daily-commitment')));
    }
    const next = daily.tomorrow;
    if (next && Array.isArray(next.boards) && next.boards.length) {
      tomorrow.append(h('details', {},
        h('summary', {}, t('home.tomorrow', { date: next.date })),
        h('ul', { class: 'daily-list' }, byMode(next.boards).map((b) => h('li', { class: 'daily-next', testid: 'daily-next' },
          b.competition ? link(compUrl(b.competition), `${t(`mode.${b.mode}`)} · ${t(`preset.${b.preset}`)}`)
            : h('span', {}, `${t(`mode.${b.mode}`)} · ${t(`preset.${b.preset}`)}`),
          commitment(b, 'daily-next-commitment'))))));
    }
    tick();
  }

  const runningNote = (r, testid) => h('span', { class: 'running-note', testid },
    t('run.note', { n: r.attempt, score: r.score, moves: r.move_count }));

  // A daily row's Play, or Resume while the player has an attempt running
  // on that board (runningOn(): its figures, under the buttons).
  function playOrResume(b, play) {
    const r = b.competition ? runningIn(running, b.competition) : null;
    if (!r && usedUp.has(b.competition)) {
      return [link(play, t('home.practice'), { class: 'button secondary', testid: 'daily-play',
        dataset: { practice: 'true' }, title: t('home.practiceNote') })];
    }
    if (!r) return [link(play, t('home.play'), { class: 'button', testid: 'daily-play' })];
    return [link(attemptUrl(r), t('run.resume'), { class: 'button', testid: 'daily-resume', dataset: { game: r.game_id } })];
  }

  function runningOn(b) {
    const r = b.competition ? runningIn(running, b.competition) : null;
    return r ? [runningNote(r, 'daily-running')] : [];
  }

  // The player's place on a daily row's board, once they have an entry there.
  function placeOn(b) {
    const e = b.competition ? todayMine.get(b.competition) : null;
    if (!e) return [];
    return [h('span', { class: 'running-note', testid: 'daily-mine' },
      tn('home.mine', e.score, { place: t('standing.rankOf', { rank: e.rank, total: e.total }), score: e.score }))];
  }

  // The running attempts that no daily row shows (organisers' competitions).
  function renderRunning() {
    clear(runningCard);
    const onRows = (r) => daily && daily.boards.some((b) => b.competition === r.competition);
    const others = running.filter((r) => !onRows(r));
    runningCard.hidden = others.length === 0;
    if (!others.length) return;
    runningCard.append(h('h2', { i18n: 'run.title' }), h('ul', { class: 'running-list' }, others.map((r) => h('li', {
      class: 'running-item', testid: 'running-item', dataset: { competition: r.competition, game: r.game_id } },
    link(compUrl(r.competition), compNames.get(r.competition) || r.competition, { class: 'running-name' }),
    h('span', { class: 'note' }, `${t(`mode.${r.mode}`)} · ${t(`preset.${r.preset}`)}`),
    link(attemptUrl(r), t('run.resume'), { class: 'button primary', testid: 'running-resume' }),
    runningNote(r, 'running-note')))));
    for (const r of others) {
      if (compNames.has(r.competition)) continue;
      compNames.set(r.competition, null);
      api.competition(r.competition).then((c) => {
        compNames.set(r.competition, c.name);
        if (!destroyed) renderRunning();
      }).catch(() => {});
    }
  }

  async function loadRunning() {
    const list = await fetchRunning(app.net);
    if (destroyed) return;
    running = list;
    dailyList.dataset.runningLoaded = 'true';
    renderDaily();
    renderRunning();
  }

  function tick() {
    if (!daily) return;
    const left = daily.resets_in_s - (Date.now() - dailyFetchedAt) / 1000;
    if (left <= 0) {
      clearInterval(timer);
      timer = null;
      loadDaily();
      return;
    }
    countdown.textContent = t('home.dailyReset', { time: formatDuration(left) });
  }

  async function loadDaily() {
    try {
      daily = await api.daily();
      dailyFetchedAt = Date.now();
      renderDaily();
      renderRunning();
      if (!timer) timer = setInterval(tick, 1000);
      showYesterday(daily.date);
    } catch {
      countdown.textContent = t('home.dailyError');
    }
  }

  // The player's streaks and yesterday's boards with their own places, once
  // hello is answered.
  async function showYesterday(date) {
    const player = await app.net.ready();
    if (gone || !player) return;
    api.player(player.name).then((p) => {
      mine = p;
      if (!gone) renderStreaks();
    }, () => {});
    const token = app.net.identity ? app.net.identity.tokenFor(player.name) : null;
    // Today's boards are open: only the player's own token shows their games
    // there (the public history holds closed boards only).
    const ids = daily ? daily.boards.map((b) => b.competition).filter(Boolean) : [];
    if (token && ids.length) {
      entriesOn(player.name, ids, dayStart(date), token).then((own) => {
        todayMine = own.found;
        if (!gone) renderDaily();
        // Only a board played today can have its attempts used up.
        for (const id of todayMine.keys()) {
          api.competition(id, player.name).then((c) => {
            if (gone || c.attempts_left == null || c.attempts_left > 0) return;
            usedUp.add(id);
            renderDaily();
          }, () => {});
        }
      }, () => {});
    }
    const data = await loadYesterday(date, player.name, token).catch(() => null);
    if (!gone && data) yesterday.show(data);
  }

  function renderStreaks() {
    clear(streaks);
    const list = mine && streakList(mine.streaks, 'home-streak-list');
    if (list) streaks.append(h('h3', { i18n: 'streak.title' }), list);
  }

  fillModes();
  fillPresets();
  root.append(h('section', { class: 'home', testid: 'home-page' },
    runningCard,
    h('div', { class: 'card chooser' },
      h('label', { for: 'mode-select', i18n: 'mode.label' }), modeSelect,
      h('label', { for: 'preset-select', i18n: 'preset.label' }), presetSelect,
      rules, randomBtn, seedForm),
    h('div', { class: 'card daily' },
      h('h2', { i18n: 'home.daily' }), countdown, dailyList, streaks, tomorrow),
    yesterday.el));
  loadDaily();
  // A visitor (no connection: homePage.forVisitors) has no attempts running.
  if (app.net.status === 'idle') dailyList.dataset.runningLoaded = 'true';
  else loadRunning();
  // After a reconnect the list is read again (it may have changed elsewhere).
  const onReady = (e) => { if (e.detail && e.detail.reconnect) loadRunning(); };
  app.net.addEventListener('ready', onReady);

  const offLang = onLangChange(() => {
    fillModes();
    fillPresets();
    renderDaily();
    renderRunning();
    yesterday.render();
    renderStreaks();
  });
  return () => {
    destroyed = true;
    gone = true;
    app.net.removeEventListener('ready', onReady);
    offLang();
    clearInterval(timer);
  };
}

// A visitor reads the home page (the boards, today's challenge) without a
// name; Play, a board or a seed asks for one (app.js, route()).
homePage.forVisitors = () => true;
