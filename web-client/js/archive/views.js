// DOM pieces of the Archive: one closed board's row (name, board, winner,
// field, links to its page and to practice) and a day's heading. Names come
// from other people: they only ever go in as text (dom.js h()).

import { h, link } from '../dom.js';
import { t, tn, dateLocale } from '../i18n.js';
import { compUrl } from '../competitions/logic.js';
import { boardName, compName } from '../competitions/views.js';
import { dayOrder, practiceUrl } from './logic.js';

// "Tue, 24 Nov 2026" in the reader's language, for a YYYY-MM-DD UTC day.
export function dayTitle(day) {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(dateLocale(), { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric',
    timeZone: 'UTC' }).format(d);
}

export function practiceLink(c, extra = {}) {
  return link(practiceUrl(c), t('archive.practice'), { class: 'button', testid: 'archive-practice', ...extra });
}

export function archiveRow(c) {
  // The winner and the field; a board nobody played says only that.
  const field = c.winner
    ? [h('span', { class: 'archive-winner', testid: 'archive-winner' },
      t('archive.winner', { player: c.winner.player, score: c.winner.score })),
    h('span', { testid: 'archive-entries' }, tn('archive.entries', c.entries, { n: c.entries }))]
    : h('span', { testid: 'archive-entries', dataset: { empty: 'true' } }, t('archive.noWinner'));
  return h('li', { class: 'archive-row', testid: 'archive-row', dataset: { id: c.id, daily: String(!!c.daily) } },
    h('div', { class: 'archive-main' },
      link(compUrl(c.id), compName(c), { class: 'comp-name', testid: 'archive-link' }),
      c.daily ? h('span', { class: 'badge' }, t('comps.daily')) : null,
      h('div', { class: 'comp-item-meta' },
        h('span', { testid: 'archive-board' }, boardName(c)),
        field,
        c.organiser ? h('span', {}, t('comps.by', { name: c.organiser })) : null)),
    h('div', { class: 'archive-actions' }, practiceLink(c)));
}

export function dayGroup(group) {
  const boards = dayOrder(group.boards);
  return h('li', { class: 'archive-day', testid: 'archive-day', dataset: { day: group.day } },
    h('h3', {}, dayTitle(group.day)),
    h('ul', { class: 'archive-list' }, boards.map(archiveRow)));
}
