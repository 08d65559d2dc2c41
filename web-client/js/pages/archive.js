// The Archive (/?view=archive[&mode=]): every closed public board, the
// dailies included, newest first, grouped by the UTC day it closed in, read
// page by page from GET /api/archive (its `next` cursor: "Older boards"
// adds the next page below), filtered by mode and kind. Each board links to
// its page (final leaderboard, key and verification) and to practice on it.

import { h, clear } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import { api } from '../api.js';
import { ARCHIVE_MODES, archiveUrl, groupByDay } from '../archive/logic.js';
import { dayGroup } from '../archive/views.js';
import { unreachableNotice, failureText } from '../unreachable.js';

const PAGE = 20;
const KINDS = ['daily', 'organised'];

export function archivePage(root, app, params) {
  let mode = ARCHIVE_MODES.includes(params.mode) ? params.mode : '';
  let kind = '';
  let groups = [];
  let next = null;
  let loaded = false;
  let loading = false;
  let generation = 0;  // a filter change drops answers to the older asks

  const list = h('ul', { class: 'archive-days', testid: 'archive-days' });
  const status = h('p', { class: 'message', testid: 'archive-status', role: 'status' });
  const more = h('button', { type: 'button', class: 'primary', testid: 'archive-more', hidden: true });
  const modeSel = h('select', { testid: 'archive-mode', id: 'archive-mode' });
  const kindSel = h('select', { testid: 'archive-kind', id: 'archive-kind' });
  const filters = h('div', { class: 'archive-filters' },
    h('label', { for: 'archive-mode', i18n: 'archive.mode' }), modeSel,
    h('label', { for: 'archive-kind', i18n: 'archive.kind' }), kindSel);

  function fillSelects() {
    clear(modeSel).append(h('option', { value: '' }, t('archive.allModes')),
      ...ARCHIVE_MODES.map((m) => h('option', { value: m }, t(`mode.${m}`))));
    clear(kindSel).append(h('option', { value: '' }, t('archive.allKinds')),
      ...KINDS.map((k) => h('option', { value: k }, t(`archive.kind.${k}`))));
    modeSel.value = mode;
    kindSel.value = kind;
  }

  function render() {
    fillSelects();
    more.textContent = t('archive.more');
    clear(list);
    for (const g of groups) list.append(dayGroup(g));
    if (loaded && groups.length === 0) list.append(h('li', { class: 'note', testid: 'archive-empty' }, t('archive.none')));
    more.hidden = !next;
    more.disabled = loading;
    status.hidden = !status.textContent;
    // Nothing read yet and the server down: the notice alone, no empty card.
    listCard.hidden = notice.shown && groups.length === 0;
  }

  async function load(reset) {
    const mine = reset ? ++generation : generation;
    if (reset) { groups = []; next = null; loaded = false; }
    loading = true;
    status.textContent = t('common.loading');
    render();
    try {
      const page = await api.archive({ limit: PAGE, before: reset ? null : next, mode, kind });
      if (mine !== generation) return;
      groups = groupByDay(page.competitions, groups.map((g) => ({ day: g.day, boards: g.boards.slice() })));
      next = page.next;
      loaded = true;
      status.textContent = '';
      notice.hide();
    } catch (err) {
      if (mine !== generation) return;
      // The server down: the notice says so (and asks again) instead.
      status.textContent = notice.show(err) ? '' : failureText(err);
      retryReset = reset;
    }
    loading = false;
    render();
  }

  // The server down: the page says so and asks again for what failed.
  let retryReset = true;
  const notice = unreachableNotice(() => load(retryReset));
  more.addEventListener('click', () => { if (!loading && next) load(false); });
  modeSel.addEventListener('change', () => {
    mode = modeSel.value;
    history.replaceState(null, '', archiveUrl({ mode }));
    load(true);
  });
  kindSel.addEventListener('change', () => { kind = kindSel.value; load(true); });

  const listCard = h('div', { class: 'card' }, status, list, h('p', { class: 'archive-more' }, more));
  root.append(h('section', { class: 'archive', testid: 'archive-page' }, notice.el,
    h('div', { class: 'card' },
      h('h2', { i18n: 'archive.title' }),
      h('p', { class: 'note', i18n: 'archive.intro' }),
      filters),
    listCard));
  load(true);
  const offLang = onLangChange(render);
  return () => { offLang(); notice.stop(); };
}

// A list to read: no player name is asked for it (app.js).
archivePage.withoutPlayer = () => true;
