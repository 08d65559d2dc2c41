// Home: choose a mode and a preset, then play a random board, a chosen seed
// or one of today's daily boards (with a countdown to the next day). Each
// daily board is a built-in competition: its commitment is shown (and
// tomorrow's, published in advance), its leaderboard is the competition's.

import { h, clear, link } from '../dom.js';
import { t, onLangChange, formatDuration } from '../i18n.js';
import { MODES, PRESETS, boardUrl, loadChoice, saveChoice } from '../presets.js';
import { api } from '../api.js';
import { compLeaderboardUrl, compUrl, dailyUrl } from '../competitions/logic.js';
import { loadYesterday, yesterdayCard } from '../standing/yesterday.js';
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
  let gone = false;
  const yesterday = yesterdayCard();
  const streaks = h('div', { class: 'home-streaks', testid: 'home-streaks' });
  let mine = null;  // the player's /api/players answer, for the streaks

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
      link(play, t('home.play'), { class: 'button', testid: 'daily-play' }),
      link(board, t('home.board'), { class: 'button secondary', testid: 'daily-leaderboard' }),
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
    const data = await loadYesterday(date, player.name).catch(() => null);
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
    h('div', { class: 'card chooser' },
      h('label', { for: 'mode-select', i18n: 'mode.label' }), modeSelect,
      h('label', { for: 'preset-select', i18n: 'preset.label' }), presetSelect,
      rules, randomBtn, seedForm),
    h('div', { class: 'card daily' },
      h('h2', { i18n: 'home.daily' }), countdown, dailyList, streaks, tomorrow),
    yesterday.el));
  loadDaily();

  const offLang = onLangChange(() => {
    fillModes();
    fillPresets();
    renderDaily();
    yesterday.render();
    renderStreaks();
  });
  return () => {
    gone = true;
    offLang();
    clearInterval(timer);
  };
}
