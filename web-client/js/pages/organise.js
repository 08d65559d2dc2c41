// The Organise page (/?view=organise), which asks for no player name:
// - the organiser's bearer token (issued by the operator with
//   `tilecrush_server --add-organiser NAME`), kept in localStorage once the
//   server has not refused it, never put in an address;
// - "My competitions": GET /api/organiser/competitions with that token,
//   newest first, every state, unlisted ones included, a page at a time,
//   each with its state and its links (its page, its results);
// - the form: POST /api/competitions. Times are picked in the browser's
//   time zone and sent as ISO 8601 UTC. On 201 the new competition's link
//   is shown and the list read again; on 400 or 401 the refusal in the
//   form's own words (the window's limits are checked before sending).

import { h, clear, link } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import { MODES, PRESETS, loadChoice, saveChoice } from '../presets.js';
import { api } from '../api.js';
import {
  COUNTS, compUrl, createBody, createRefusalKey, localInputToIso, openNowIso, toLocalInput,
} from '../competitions/logic.js';
import { boardName, formatWindow } from '../competitions/views.js';

const TOKEN_KEY = 'tilecrush.organiserToken';
const CHOICE_KEY = 'tilecrush.organiseChoice';

export function organiserToken() {
  try { return localStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}

function saveToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* kept for this page only */ }
}

let uid = 0;
function field(labelKey, control, extra = null) {
  uid += 1;
  control.id = control.id || `org-field-${uid}`;
  return [h('label', { for: control.id, i18n: labelKey }), h('div', { class: 'org-control' }, control, extra)];
}

function checkbox(testid, labelKey, checked = false) {
  const box = h('input', { type: 'checkbox', testid, checked });
  return { box, el: h('label', { class: 'check' }, box, h('span', { i18n: labelKey })) };
}

// Competitions read per page of "My competitions".
const MINE_PAGE = 20;

// One of the organiser's competitions: its name (a link to its page), its
// state and whether it is unlisted, its board and window, and its links.
function mineItem(c) {
  const state = ['open', 'upcoming', 'closed'].includes(c.state) ? c.state : null;
  return h('li', { class: 'comp-item', testid: 'org-mine-item', dataset: { id: c.id, state: c.state } },
    h('div', { class: 'comp-item-head' },
      link(compUrl(c.id), c.name, { class: 'comp-name', testid: 'org-mine-link' }),
      state ? h('span', { class: `badge state-${state}`, testid: 'org-mine-state' }, t(`org.mine.state.${state}`)) : null,
      c.unlisted ? h('span', { class: 'badge', testid: 'org-mine-unlisted' }, t('org.mine.unlisted')) : null),
    h('div', { class: 'comp-item-meta' },
      h('span', {}, boardName(c)),
      h('span', {}, formatWindow(c.opens_at, c.closes_at))),
    h('div', { class: 'comp-item-links' },
      link(compUrl(c.id), null, { testid: 'org-mine-page', i18n: 'org.mine.page' }),
      h('a', { href: api.compResultsUrl(c.id), download: `${c.id}-results.json`, testid: 'org-mine-results' },
        t('org.mine.results')),
      h('a', { href: api.compResultsUrl(c.id, 'csv'), download: `${c.id}-results.csv`, testid: 'org-mine-csv' },
        t('org.mine.csv'))));
}

export function organisePage(root, app) {
  const choice = loadChoice(CHOICE_KEY);
  const hour = 3600 * 1000;
  const opensDefault = Math.ceil((Date.now() + hour) / hour) * hour;

  const tokenIn = h('input', { type: 'password', testid: 'org-token', id: 'org-token', autocomplete: 'off',
    spellcheck: false, value: organiserToken() });
  const tokenMsg = h('p', { class: 'message', testid: 'org-token-message', role: 'status' });
  const tokenForm = h('form', { class: 'card org-token', testid: 'org-token-form', novalidate: true },
    h('h2', { i18n: 'org.title' }),
    h('p', { class: 'note', i18n: 'org.intro' }),
    h('div', { class: 'seed-form' },
      h('label', { for: 'org-token', i18n: 'org.token' }), tokenIn,
      h('button', { type: 'submit', class: 'primary', testid: 'org-token-use', i18n: 'org.useToken' }),
      h('button', { type: 'button', testid: 'org-token-forget', i18n: 'org.forgetToken',
        onclick: () => forget() })),
    tokenMsg);

  // "My competitions": the list of the token's competitions.
  const mineList = h('ul', { class: 'comp-list', testid: 'org-mine-list' });
  const mineStatus = h('p', { class: 'note', testid: 'org-mine-status', role: 'status' });
  const mineMore = h('button', { type: 'button', testid: 'org-mine-more', hidden: true, i18n: 'org.mine.more' });
  const mine = h('div', { class: 'card org-mine', testid: 'org-mine' },
    h('h2', { i18n: 'org.mine' }), mineStatus, mineList, mineMore);
  let mineItems = [];
  let mineTotal = 0;
  let mineToken = '';
  let mineGen = 0;
  let mineError = null;  // the last read's failure message
  let mineTimer = null;
  let destroyed = false;

  // The states shown change with time: the list is read again when the
  // next of its competitions opens or closes (within the hour).
  function scheduleMine() {
    clearTimeout(mineTimer);
    const soon = mineItems.map((c) => (c.state === 'upcoming' ? c.opens_in_s : c.state === 'open' ? c.closes_in_s : null))
      .filter((x) => Number.isFinite(x) && x >= 0 && x <= 3600);
    if (soon.length && !destroyed) {
      mineTimer = setTimeout(() => loadMine({ again: true }).catch(() => {}), Math.min(...soon) * 1000 + 500);
    }
  }

  function renderMine() {
    clear(mineList).append(...mineItems.map(mineItem));
    mineMore.hidden = mineItems.length >= mineTotal;
    if (mineError != null) mineStatus.textContent = t('org.mine.error', { message: mineError });
    else if (!mineToken) mineStatus.textContent = t('org.mine.needToken');
    else if (mineTotal === 0) mineStatus.textContent = t('org.mine.none');
    else mineStatus.textContent = t('org.mine.count', { shown: mineItems.length, total: mineTotal });
  }

  // Reads the list from the start (more: the next page). A reply to an
  // older read (another token meanwhile) is dropped.
  // again: the same rows read again (as many as shown, up to 100).
  async function loadMine({ more = false, again = false } = {}) {
    const token = organiserToken();
    const gen = ++mineGen;
    clearTimeout(mineTimer);
    mineError = null;
    if (!token) { mineToken = ''; mineItems = []; mineTotal = 0; renderMine(); return null; }
    if (!more && !again) mineStatus.textContent = t('common.loading');
    mineMore.disabled = true;
    const limit = again ? Math.min(100, Math.max(MINE_PAGE, mineItems.length)) : MINE_PAGE;
    try {
      const answer = await api.myCompetitions(token, { limit, offset: more ? mineItems.length : 0 });
      if (destroyed || gen !== mineGen) return null;
      const list = Array.isArray(answer.competitions) ? answer.competitions : [];
      mineToken = token;
      mineItems = more ? mineItems.concat(list.filter((c) => !mineItems.some((x) => x.id === c.id))) : list;
      mineTotal = Number.isInteger(answer.total) ? answer.total : mineItems.length;
      renderMine();
      scheduleMine();
      return answer;
    } catch (err) {
      if (destroyed || gen !== mineGen) return null;
      if (!more) { mineItems = []; mineTotal = 0; }
      mineError = err.message || err.code || '';
      renderMine();
      throw err;
    } finally {
      mineMore.disabled = false;
    }
  }
  mineMore.addEventListener('click', () => { loadMine({ more: true }).catch(() => {}); });

  // The token is kept only once the server has not refused it.
  tokenForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    tokenMsg.className = 'message';
    tokenMsg.textContent = '';
    const token = tokenIn.value.trim();
    if (!token) { tokenMsg.textContent = t('org.err.token'); tokenIn.focus(); return; }
    const before = organiserToken();
    saveToken(token);
    try {
      const answer = await loadMine();
      if (!answer) return;
      tokenMsg.className = 'ok';
      tokenMsg.textContent = answer.organiser == null ? t('org.tokenOperator') : t('org.tokenFor', { name: answer.organiser });
    } catch (err) {
      if (err.status === 401) {
        saveToken(before);
        tokenMsg.textContent = t('org.err.unauthorized', { message: err.message });
        loadMine().catch(() => {});
      }
    }
  });

  function forget() {
    saveToken('');
    tokenIn.value = '';
    tokenMsg.className = 'message';
    tokenMsg.textContent = '';
    loadMine().catch(() => {});
  }
  const nameIn = h('input', { type: 'text', maxlength: 64, testid: 'org-name', required: true });
  const modeSel = h('select', { testid: 'org-mode' });
  const presetSel = h('select', { testid: 'org-preset' });
  const opensIn = h('input', { type: 'datetime-local', step: 1, testid: 'org-opens', value: toLocalInput(opensDefault) });
  const openNow = checkbox('org-open-now', 'org.openNow');
  const closesIn = h('input', { type: 'datetime-local', step: 1, testid: 'org-closes',
    value: toLocalInput(opensDefault + 2 * hour) });
  const attemptsIn = h('input', { type: 'number', min: 1, max: 100, step: 1, value: '3', testid: 'org-attempts',
    inputmode: 'numeric' });
  const unlimited = checkbox('org-unlimited', 'org.unlimited');
  const countsSel = h('select', { testid: 'org-counts' });
  const unlisted = checkbox('org-unlisted', 'org.unlisted');
  const tz = (Intl.DateTimeFormat().resolvedOptions().timeZone) || 'local';
  const tzNote = h('p', { class: 'note org-wide' });
  const submit = h('button', { type: 'submit', class: 'primary', testid: 'org-submit', i18n: 'org.create' });
  // Focused after a refusal (the Create button, disabled meanwhile, loses the focus).
  const message = h('p', { class: 'message org-wide', testid: 'org-message', role: 'status', tabindex: '-1' });
  const created = h('div', { class: 'org-created org-wide', testid: 'org-created', hidden: true });

  function fill() {
    clear(modeSel).append(...MODES.map((m) => h('option', { value: m }, t(`mode.${m}`))));
    modeSel.value = choice.mode;
    clear(presetSel).append(...PRESETS[choice.mode].map((p) => h('option', { value: p }, t(`preset.${p}`))));
    if (!PRESETS[choice.mode].includes(choice.preset)) [choice.preset] = PRESETS[choice.mode];
    presetSel.value = choice.preset;
    const counts = countsSel.value || 'best';
    clear(countsSel).append(...COUNTS.map((c) => h('option', { value: c }, t(`org.counts.${c}`))));
    countsSel.value = counts;
    tzNote.textContent = t('org.tz', { tz });
  }
  modeSel.addEventListener('change', () => { choice.mode = modeSel.value; fill(); saveChoice(CHOICE_KEY, choice); });
  presetSel.addEventListener('change', () => { choice.preset = presetSel.value; saveChoice(CHOICE_KEY, choice); });
  // "At once": the greyed Opens field shows the time it would open, now,
  // kept fresh; untick it and the time chosen before is back.
  let opensChosen = opensIn.value;
  let nowTimer = null;
  const showNow = () => { opensIn.value = toLocalInput(Date.now()); };
  openNow.box.addEventListener('change', () => {
    clearInterval(nowTimer);
    nowTimer = null;
    opensIn.disabled = openNow.box.checked;
    if (openNow.box.checked) {
      opensChosen = opensIn.value;
      showNow();
      nowTimer = setInterval(showNow, 1000);
    } else opensIn.value = opensChosen;
  });
  unlimited.box.addEventListener('change', () => { attemptsIn.disabled = unlimited.box.checked; });

  let lastLink = null;
  let lastName = '';
  function showCreated(view) {
    lastName = view.name;
    lastLink = new URL(compUrl(view.id), location.origin).href;
    const input = h('input', { readonly: true, value: lastLink, testid: 'org-created-link', 'aria-label': t('comp.share'),
      'aria-describedby': 'org-created-name' });
    clear(created).append(
      h('p', { testid: 'org-created-name', id: 'org-created-name' }, t('org.created', { name: view.name })),
      h('div', { class: 'share' }, input,
        link(compUrl(view.id), null, { class: 'button primary', testid: 'org-open-page', i18n: 'org.openPage' })));
    created.dataset.id = view.id;
    created.hidden = false;
    // The Create button, disabled meanwhile, lost the focus: it goes to
    // the link to send.
    input.focus();
  }

  const form = h('form', { class: 'card org-form', testid: 'organise-form', novalidate: true },
    h('h2', { class: 'org-wide', i18n: 'org.create.title' }),
    ...field('org.name', nameIn),
    ...field('mode.label', modeSel),
    ...field('preset.label', presetSel),
    ...field('org.opens', opensIn, openNow.el),
    ...field('org.closes', closesIn),
    tzNote,
    ...field('org.attempts', attemptsIn, unlimited.el),
    ...field('org.counts', countsSel),
    h('div', { class: 'org-wide' }, unlisted.el),
    h('div', { class: 'org-wide' }, submit),
    message, created);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.textContent = '';
    const token = tokenIn.value.trim();
    if (!token) { message.textContent = t('org.err.token'); tokenIn.focus(); return; }
    const built = createBody({
      name: nameIn.value, mode: modeSel.value, preset: presetSel.value,
      opensIso: openNow.box.checked ? openNowIso() : localInputToIso(opensIn.value),
      closesIso: localInputToIso(closesIn.value),
      unlimited: unlimited.box.checked, attempts: attemptsIn.value, counts: countsSel.value,
      unlisted: unlisted.box.checked,
    }, PRESETS);
    if (built.error) { message.textContent = t(built.error); message.focus(); return; }
    submit.disabled = true;
    try {
      const view = await api.createCompetition(built.body, token);
      saveToken(token);
      showCreated(view);
      // The form is ready for the next competition, not for the same one
      // again: a second click on Create asks for a name instead of making
      // a copy. The times and rules stay, for a series.
      nameIn.value = '';
      loadMine().catch(() => {});
    } catch (err) {
      created.hidden = true;
      const known = err.status === 400 ? createRefusalKey(err.message) : null;
      message.textContent = err.status === 401 || err.status === 403
        ? t('org.err.unauthorized', { message: err.message })
        : known ? t(known) : t('org.err.server', { message: err.message || err.code });
      submit.disabled = false;
      message.focus();
    } finally {
      submit.disabled = false;
    }
  });

  fill();
  root.append(h('section', { class: 'organise', testid: 'organise-page' }, tokenForm, mine, form));
  loadMine().catch(() => {});
  const offLang = onLangChange(() => {
    fill();
    renderMine();
    if (!created.hidden && lastLink) {
      created.querySelector('[data-testid="org-created-link"]').setAttribute('aria-label', t('comp.share'));
      created.querySelector('[data-testid="org-created-name"]').textContent = t('org.created', { name: lastName });
    }
  });
  return () => {
    destroyed = true;
    clearTimeout(mineTimer);
    clearInterval(nowTimer);
    offLang();
  };
}

// The page needs no player: no name is asked for it (app.js).
organisePage.withoutPlayer = () => true;
