// Seasons: a mode's weekly and monthly standings over its dailies
// (GET /api/seasons, /api/seasons/{period}, .../around): mode tabs, this
// week, this month and the past periods, the standings paged, the player's
// own place ("around me"), the points rule and the time left.

import { h, clear, link } from '../dom.js';
import { t, onLangChange, playersText } from '../i18n.js';
import { get } from '../api.js';
import {
  SEASON_MODES, seasonsUrl, validPeriod, realPeriod, periodLabel, timeLeftText,
} from '../seasons/logic.js';
import { unreachableNotice, failureText } from '../unreachable.js';

const PAGE = 20;

const seasonApi = {
  index: (mode) => get('/api/seasons', { mode }),
  page: (period, { mode, limit, offset }) => get(`/api/seasons/${encodeURIComponent(period)}`, { mode, limit, offset }),
  around: (period, { mode, player, radius }) =>
    get(`/api/seasons/${encodeURIComponent(period)}/around`, { mode, player, radius }),
};

export function seasonsPage(root, app, params) {
  const view = {
    mode: SEASON_MODES.includes(params.mode) ? params.mode : 'same',
    period: validPeriod(params.period) ? params.period : null,
    offset: Math.max(0, Number(params.offset) || 0),
    around: params.around === '1',
  };
  // A period asked for that no season has (2026-W99, a mistyped link):
  // one "No such season" state, asked of the server never, or what its 400 says.
  let missing = params.period !== undefined && !realPeriod(params.period);
  let index = null;
  let data = null;
  let error = null;
  const missingLink = link(seasonsUrl({ mode: view.mode }), null,
    { class: 'button', testid: 'season-missing-current', i18n: 'season.missing.current' });
  const tabs = h('div', { class: 'season-tabs', role: 'tablist', testid: 'season-modes' });
  const periods = h('div', { class: 'season-periods', testid: 'season-periods' });
  const heading = h('h2', { testid: 'season-heading' });
  const left = h('p', { class: 'countdown', testid: 'season-left' });
  const rule = h('p', { class: 'season-rule', testid: 'season-rule' });
  const status = h('p', { class: 'message', testid: 'season-status' });
  const table = h('table', { class: 'lb-table', testid: 'season-table' });
  const pager = h('div', { class: 'pager' });
  const me = () => app.net.player && app.net.player.name;
  const url = (over) => seasonsUrl({ mode: view.mode, period: view.period, ...over });

  function renderTabs() {
    clear(tabs);
    for (const m of SEASON_MODES) {
      tabs.append(link(seasonsUrl({ mode: m }), t(`mode.${m}`), {
        class: `button${m === view.mode ? ' current' : ''}`, role: 'tab',
        'aria-selected': m === view.mode ? 'true' : 'false', testid: `season-mode-${m}`,
      }));
    }
  }

  function renderPeriods() {
    clear(periods);
    if (!index) return;
    const tab = (period, key, testid) => link(url({ period }), `${t(key)} · ${periodLabel(period, t)}`, {
      class: `button${period === view.period ? ' current' : ''}`, testid,
    });
    periods.append(tab(index.week.period, 'season.thisWeek', 'season-week'),
      tab(index.month.period, 'season.thisMonth', 'season-month'));
    if (index.past.length > 0) {
      const sel = h('select', { testid: 'season-past', 'aria-label': t('season.past') },
        h('option', { value: '' }, t('season.past')),
        index.past.map((p) => h('option', { value: p.period }, `${periodLabel(p.period, t)} (${playersText(p.total)})`)));
      if (index.past.some((p) => p.period === view.period)) sel.value = view.period;
      sel.addEventListener('change', () => { if (sel.value) app.navigate(url({ period: sel.value })); });
      periods.append(sel);
    }
  }

  function renderTable() {
    clear(table);
    clear(pager);
    rule.hidden = missing || notice.shown;
    left.hidden = missing || notice.shown;
    if (missing) {
      heading.textContent = t('season.missing.title');
      status.className = 'note';
      status.textContent = t('season.missing.note');
      pager.append(missingLink);
      return;
    }
    heading.textContent = view.period ? `${t('season.title')}: ${t(`mode.${view.mode}`)} · ${periodLabel(view.period, t)}` : t('season.title');
    rule.textContent = t('season.rule');
    left.textContent = '';
    if (index && view.period === index.week.period) left.textContent = timeLeftText(index.week.ends_in_s, t);
    else if (index && view.period === index.month.period) left.textContent = timeLeftText(index.month.ends_in_s, t);
    // Another period, once its standings say when it starts: still to come
    // (a link ahead of time) it has not begun; else it is over.
    else if (view.period && data) {
      left.textContent = t(Date.parse(data.starts_at) > Date.now() ? 'season.future' : 'season.final');
    }
    // The total is a note; only a failure is a message (in red).
    status.className = error ? 'message' : 'note';
    if (error) { status.textContent = error; return; }
    if (!data) { if (notice.shown) status.textContent = ''; return; }
    // Nobody has points yet: the sentence says so, without an empty table
    // or an "Around me" that could only answer "not on it".
    if (data.total === 0 && !view.around) { status.textContent = t('season.empty'); return; }
    table.append(h('thead', {}, h('tr', {},
      ['lb.rank', 'lb.player', 'season.points', 'season.dailies'].map((k) => h('th', { i18n: k })))));
    const body = h('tbody');
    for (const e of data.entries) {
      body.append(h('tr', { class: e.player === me() ? 'me' : '', testid: 'season-row', dataset: { player: e.player, rank: String(e.rank) } },
        h('td', {}, String(e.rank)),
        h('td', { class: 'who' }, link(`/?${new URLSearchParams({ view: 'player', name: e.player })}`, e.player)),
        h('td', { testid: 'season-points' }, String(e.points)),
        h('td', {}, String(e.boards))));
    }
    table.append(body);
    status.textContent = data.entries.length === 0 ? t('season.empty')
      : playersText(data.total);
    if (view.around) {
      pager.append(link(url({ offset: 0 }), t('btn.top'), { class: 'button', testid: 'season-top' }));
      return;
    }
    if (view.offset > 0) {
      pager.append(link(url({ offset: Math.max(0, view.offset - PAGE) }), t('btn.prev'), { class: 'button', testid: 'season-prev' }));
    }
    if (view.offset + PAGE < data.total) {
      pager.append(link(url({ offset: view.offset + PAGE }), t('btn.next'), { class: 'button', testid: 'season-next' }));
    }
    if (me()) pager.append(link(url({ around: true }), t('btn.around'), { class: 'button', testid: 'season-around' }));
  }

  async function load() {
    status.textContent = t('common.loading');
    try {
      index = await seasonApi.index(view.mode);
      if (!view.period) view.period = index.week.period;
      renderPeriods();
      notice.hide();
      if (missing) { error = null; renderTable(); return; }
      if (view.around) {
        const player = (await app.net.ready()).name;
        data = await seasonApi.around(view.period, { mode: view.mode, player, radius: 5 });
      } else {
        data = await seasonApi.page(view.period, { mode: view.mode, limit: PAGE, offset: view.offset });
      }
      error = null;
      notice.hide();
    } catch (err) {
      data = null;
      missing = err.status === 400 && !!view.period;
      error = notice.show(err) ? null
        : err.status === 404 && view.around ? t('season.notIn') : failureText(err);
    }
    renderTable();
  }

  // The server down: the page says so and fills in once it answers.
  const notice = unreachableNotice(() => load());
  renderTabs();
  renderTable();
  // The player's row and "around me" once the player is known.
  const onReady = () => renderTable();
  app.net.addEventListener('ready', onReady);
  root.append(h('section', { class: 'seasons', testid: 'seasons-page' }, notice.el,
    h('div', { class: 'card' }, tabs, periods),
    h('div', { class: 'card' }, heading, rule, left, status, h('div', { class: 'table-wrap' }, table), pager)));
  load();
  const offLang = onLangChange(() => {
    renderTabs();
    renderPeriods();
    renderTable();
  });
  return () => {
    offLang();
    notice.stop();
    app.net.removeEventListener('ready', onReady);
  };
}

// A visitor reads a season's table without choosing a name; "around me" needs one.
seasonsPage.forVisitors = (p) => p.around !== '1';
