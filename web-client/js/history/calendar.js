// A month of the days a player finished games on
// (GET /api/players/{name}/calendar): a table, one row a week from Monday,
// each played day marked with its number of games in text (not colour
// alone), today outlined and named, previous / next month.

import { h, clear } from '../dom.js';
import { t, tn, dateLocale } from '../i18n.js';
import { api } from '../api.js';
import { failureText } from '../unreachable.js';

function monthText(year, month) {  // month 1-12
  return `${year}-${String(month).padStart(2, '0')}`;
}

function label(date, options) {
  return date.toLocaleDateString(dateLocale(), { timeZone: 'UTC', ...options });
}

// since: the player's created_at (ISO), or null; no month before it has
// games, so the calendar does not page back past it.
export function playCalendar(name, own, token, since = null) {
  const el = h('section', { class: 'card calendar', testid: 'calendar' });
  const now = new Date();
  const start = since ? new Date(since) : null;
  const firstMonth = start && !Number.isNaN(start.getTime())
    ? start.getUTCFullYear() * 12 + start.getUTCMonth() : 2000 * 12;
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth() + 1;
  let days = null;  // date -> games
  let error = null;
  let gone = false;
  let serial = 0;

  function shift(by) {
    month += by;
    if (month < 1) { month = 12; year -= 1; }
    if (month > 12) { month = 1; year += 1; }
    load();
  }

  function render() {
    clear(el);
    const first = new Date(Date.UTC(year, month - 1, 1));
    const title = label(first, { year: 'numeric', month: 'long' });
    const current = year === now.getUTCFullYear() && month === now.getUTCMonth() + 1;
    el.append(h('h3', { id: 'calendar-title' }, t('calendar.title')),
      h('div', { class: 'controls calendar-nav' },
        h('button', { type: 'button', testid: 'calendar-prev', 'aria-label': t('calendar.prev'),
          disabled: year * 12 + month - 1 <= firstMonth, onclick: () => shift(-1) }, '‹ ', t('calendar.prevShort')),
        h('strong', { testid: 'calendar-month', 'aria-live': 'polite' }, title),
        h('button', { type: 'button', testid: 'calendar-next', 'aria-label': t('calendar.next'),
          disabled: current, onclick: () => shift(1) }, t('calendar.nextShort'), ' ›')));
    if (error) { el.append(h('p', { class: 'message' }, error)); return; }
    if (!days) { el.append(h('p', {}, t('common.loading'))); return; }
    const head = h('tr', {});
    for (let i = 0; i < 7; i += 1) {
      // 2024-01-01 was a Monday.
      const d = new Date(Date.UTC(2024, 0, 1 + i));
      head.append(h('th', { scope: 'col', abbr: label(d, { weekday: 'long' }) }, label(d, { weekday: 'short' })));
    }
    const body = h('tbody');
    const lead = (first.getUTCDay() + 6) % 7;  // blank cells before the 1st
    const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const today = now.toISOString().slice(0, 10);
    let row = h('tr', {});
    for (let i = 0; i < lead; i += 1) row.append(h('td', {}));
    let played = 0;
    for (let day = 1; day <= length; day += 1) {
      const date = `${monthText(year, month)}-${String(day).padStart(2, '0')}`;
      const games = days.get(date) || 0;
      if (games) played += 1;
      const isToday = date === today;
      const spoken = [label(new Date(`${date}T00:00:00Z`), { day: 'numeric', month: 'long' }),
        games ? tn('calendar.games', games, { n: games }) : t('calendar.none'),
        isToday ? t('calendar.today') : ''].filter(Boolean).join(', ');
      row.append(h('td', {
        class: ['day', games ? 'played' : '', isToday ? 'today' : ''].filter(Boolean).join(' '),
        testid: 'calendar-day', dataset: { date, games: String(games) },
        'aria-current': isToday ? 'date' : null, title: spoken,
      }, h('span', { class: 'sr-only' }, spoken),
      h('span', { 'aria-hidden': 'true', class: 'day-number' }, String(day)),
      games ? h('span', { 'aria-hidden': 'true', class: 'day-games' }, `● ${games}`) : null));
      if ((lead + day) % 7 === 0) { body.append(row); row = h('tr', {}); }
    }
    if (row.childNodes.length) {
      while (row.childNodes.length < 7) row.append(h('td', {}));
      body.append(row);
    }
    el.append(h('div', { class: 'table-wrap' }, h('table', { class: 'calendar-table', 'aria-labelledby': 'calendar-title' },
      h('caption', { class: 'sr-only' }, title), h('thead', {}, head), body)));
    el.append(h('p', { class: 'note', testid: 'calendar-summary' },
      played ? tn('calendar.summary', played, { n: played }) : (own ? t('calendar.emptyOwn') : t('calendar.emptyOther'))));
  }

  async function load() {
    const mine = ++serial;
    days = null;
    render();
    try {
      const answer = await api.playerCalendar(name, monthText(year, month), own ? token : null);
      if (gone || mine !== serial) return;
      days = new Map(answer.days.map((d) => [d.date, d.games]));
      error = null;
    } catch (err) {
      if (gone || mine !== serial) return;
      error = failureText(err);
    }
    render();
  }

  load();
  return { el, render, stop: () => { gone = true; } };
}
