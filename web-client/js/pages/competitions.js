// The competitions list (/?view=competitions): open, upcoming and closed
// public competitions (organiser ones first, then the built-in dailies),
// a box to open one by its code or link (unlisted ones are reached that
// way), and the way to the organiser form.

import { h, clear, link } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import { MODES, PRESETS } from '../presets.js';
import { api } from '../api.js';
import { codeFromInput, compUrl, sortCompetitions } from '../competitions/logic.js';
import { competitionItem, dailyGroup } from '../competitions/views.js';
import { archiveUrl } from '../archive/logic.js';
import { unreachableNotice } from '../unreachable.js';

const STATES = [
  { state: 'open', limit: 100 },
  { state: 'upcoming', limit: 100 },
  { state: 'closed', limit: 30 },
];

export function competitionsPage(root, app) {
  const lists = {};
  const sections = STATES.map(({ state }) => {
    lists[state] = h('ul', { class: 'comp-list', testid: `comps-${state}` });
    return h('div', { class: 'card comp-section', dataset: { state } },
      h('h2', { i18n: `comps.${state}` }), lists[state],
      // The closed list shows the latest few: the Archive has them all.
      state === 'closed' ? h('p', {}, link(archiveUrl(), null, { i18n: 'archive.more.link', testid: 'comps-archive-link' })) : null);
  });
  const status = h('p', { class: 'message', testid: 'comps-status', role: 'status' });
  const data = {};

  const codeIn = h('input', { type: 'text', maxlength: 300, id: 'comp-code', testid: 'comp-code-input',
    autocomplete: 'off', spellcheck: false });
  const codeMsg = h('p', { class: 'message', testid: 'comp-code-message' });
  const codeForm = h('form', { class: 'comp-code-form', testid: 'comp-code-form' },
    h('h3', { i18n: 'comps.codeTitle' }),
    h('div', { class: 'seed-form' }, h('label', { for: 'comp-code', i18n: 'comps.code' }), codeIn,
      h('button', { type: 'submit', class: 'primary', testid: 'btn-comp-code', i18n: 'comps.go' })),
    codeMsg);
  codeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const id = codeFromInput(codeIn.value);
    if (!id) { codeMsg.textContent = t('comps.badCode'); codeIn.focus(); return; }
    app.navigate(compUrl(id));
  });

  function render() {
    STATES.forEach(({ state }, i) => { sections[i].hidden = !data[state] && notice.shown; });
    for (const { state } of STATES) {
      const ul = clear(lists[state]);
      if (!data[state]) continue;
      const list = sortCompetitions(data[state], MODES, PRESETS);
      const own = list.filter((c) => !c.daily);
      if (state === 'closed') own.reverse();
      // Dailies: one entry per day (its window), most recent first when closed.
      const days = new Map();
      for (const c of list.filter((x) => x.daily)) {
        const k = `${c.opens_at}|${c.closes_at}`;
        if (!days.has(k)) days.set(k, []);
        days.get(k).push(c);
      }
      const groups = [...days.values()].sort((a, b) => Date.parse(a[0].opens_at) - Date.parse(b[0].opens_at));
      if (state === 'closed') groups.reverse();
      if (list.length === 0) ul.append(h('li', { class: 'note' }, t('comps.none')));
      for (const c of own) ul.append(competitionItem(c));
      for (const g of groups) ul.append(dailyGroup(g));
    }
  }

  // The server down: the page says so and fills in once it answers.
  const notice = unreachableNotice(() => load());
  async function load() {
    status.textContent = t('common.loading');
    const answers = await Promise.allSettled(STATES.map(({ state, limit }) => api.competitions({ state, limit })));
    let failed = null;
    answers.forEach((a, i) => {
      if (a.status === 'fulfilled') data[STATES[i].state] = a.value.competitions || [];
      else failed = a.reason;
    });
    status.textContent = failed && !notice.show(failed) ? t('comps.error') : '';
    if (!failed) notice.hide();
    render();
  }

  root.append(h('section', { class: 'competitions', testid: 'competitions-page' }, notice.el,
    h('div', { class: 'card' },
      h('h2', { i18n: 'comps.title' }),
      h('p', { class: 'note', i18n: 'comps.intro' }),
      codeForm,
      h('p', {}, link('/?view=organise', null, { class: 'button', testid: 'link-organise', i18n: 'comps.organise' })),
      status),
    ...sections));
  load();
  const offLang = onLangChange(render);
  return () => { offLang(); notice.stop(); };
}

// A list to read: no player name is asked for it (app.js).
competitionsPage.withoutPlayer = () => true;
