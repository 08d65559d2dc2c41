// A closed competition's standings on its page: the final results, 20 rows
// a page (Previous / Next), each with its replay and its verification
// (GET /api/games/{id}/verify), the JSON and CSV exports, and the way to
// practise on the board (unranked, the same board) and to the Archive.

import { h, link } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { resultsTable } from '../competitions/views.js';
import { practiceLink } from './views.js';
import { archiveUrl } from './logic.js';

export const FINAL_ROWS = 20;

// Appends it all to `box`. `pager` ({offset}) is kept by the page across
// redrawings; onPage() draws again after it moved.
export function fillClosedStandings(box, { id, view, results, me, manager, onDisqualify, manageNotes,
  pager, onPage }) {
  box.append(h('h2', { i18n: 'comp.results' }));
  if (manager) box.append(...manageNotes());
  box.append(h('p', { class: 'comp-practice' }, practiceLink(view, { testid: 'comp-practice' }), ' ',
    h('span', { class: 'note' }, t('archive.practiceNote'))));
  if (!results) { box.append(h('p', {}, t('common.loading'))); return; }
  const entries = results.entries;
  const last = Math.max(0, Math.floor((entries.length - 1) / FINAL_ROWS) * FINAL_ROWS);
  pager.offset = Math.min(Math.max(0, pager.offset), last);
  const shown = entries.slice(pager.offset, pager.offset + FINAL_ROWS);
  box.append(h('div', { class: 'table-wrap' },
    resultsTable(shown, me, { mode: view.mode, verify: true, race: true, ...(manager ? { onDisqualify } : {}) })));
  if (entries.length === 0) box.append(h('p', { class: 'note' }, t('lb.empty')));
  if (entries.length > FINAL_ROWS) {
    const move = (to) => { pager.offset = to; onPage(); };
    const prev = h('button', { type: 'button', testid: 'comp-results-prev', i18n: 'btn.prev',
      disabled: pager.offset === 0, onclick: () => move(pager.offset - FINAL_ROWS) });
    const next = h('button', { type: 'button', testid: 'comp-results-next', i18n: 'btn.next',
      disabled: pager.offset >= last, onclick: () => move(pager.offset + FINAL_ROWS) });
    box.append(h('div', { class: 'pager' }, prev,
      h('span', { testid: 'comp-results-range' }, t('archive.range',
        { from: pager.offset + 1, to: pager.offset + shown.length, total: entries.length })), next));
  }
  const dl = (format, label) => h('a', { href: api.compResultsUrl(id, format), download: `${id}-results.${format || 'json'}`,
    class: 'button secondary', testid: `comp-download-${format || 'json'}` }, label);
  box.append(h('p', { class: 'comp-downloads' }, h('span', {}, t('comp.download')), ' ',
    dl(null, 'JSON'), ' ', dl('csv', 'CSV')));
  box.append(h('p', {}, link(archiveUrl(), t('archive.more.link'), { testid: 'comp-archive-link' })));
}
