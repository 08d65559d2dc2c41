// A player's finished games, newest first, paged with Older / Newer
// (GET /api/players/{name}/games, protocol.md "History"). On their own page
// the player's token goes along (in the Authorization header) and every
// finished game is listed; anyone else sees the player's games on closed
// boards only.

import { h, clear, link } from '../dom.js';
import { t, formatWhen } from '../i18n.js';
import { api } from '../api.js';
import { failureText } from '../unreachable.js';
import { replayUrl } from '../replay/links.js';

const PAGE = 10;

// ?limit= on the player page: games per page (1-100), else PAGE.
export function pageSize(value) {
  const n = Number.parseInt(value, 10);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : PAGE;
}

// The board a game was on: the daily's date, the competition's name, or
// the casual seed, linked to its leaderboard when it has one.
function boardCell(g) {
  const c = g.competition;
  if (c) {
    const text = c.daily ? t('history.daily', { date: g.seed }) : c.name;
    return link(`/?${new URLSearchParams({ view: 'competition', id: c.id })}`, text,
      { testid: 'history-board' });
  }
  if (g.ranked && g.preset) {
    const lb = new URLSearchParams({ view: 'leaderboard', mode: g.mode, preset: g.preset, seed: g.seed });
    return link(`/?${lb}`, g.seed, { testid: 'history-board' });
  }
  return h('span', { testid: 'history-board' }, g.seed);
}

function rankCell(g) {
  if (g.rank == null) return h('span', { class: 'note' }, t('history.noRank'));
  return h('span', { title: g.entry ? t('history.entry') : t('history.wouldRank') },
    t('history.rankOf', { rank: g.rank, field: g.field }), g.entry ? '' : ' *');
}

// own: the page is the player's own (their token is sent); size: games a page.
export function historyList(name, own, token, size = PAGE) {
  const el = h('section', { class: 'card history', testid: 'history' });
  const cursors = [null];  // the `before` of each page shown so far
  let index = 0;
  let page = null;
  let error = null;
  let gone = false;

  function render() {
    clear(el);
    el.append(h('h3', { id: 'history-title' }, own ? t('history.mine') : t('history.closed')));
    if (!own) el.append(h('p', { class: 'note' }, t('history.closedNote')));
    if (error) { el.append(h('p', { class: 'message' }, error)); return; }
    if (!page) { el.append(h('p', {}, t('common.loading'))); return; }
    if (!page.games.length && index === 0 && !page.next) {
      el.append(h('p', { class: 'note', testid: 'history-empty' }, own ? t('history.emptyOwn') : t('history.emptyOther')));
      return;
    }
    const body = h('tbody');
    for (const g of page.games) {
      const mode = `${t(`mode.${g.mode}`)} · ${g.preset ? t(`preset.${g.preset}`) : t('preset.custom')}`;
      const replay = g.moves_public || own
        ? link(replayUrl(g.game_id), t('btn.replay'), { testid: 'history-replay' })
        : '';
      // data-label: the column's name, shown before the value where the
      // rows stack as cards (narrow screens, css).
      body.append(h('tr', { testid: 'history-row', dataset: { game: g.game_id } },
        h('td', { class: 'h-date' }, formatWhen(g.finished_at)),
        h('td', { class: 'h-mode' }, mode, g.ranked ? '' : h('span', { class: 'note' }, ` (${t('history.practice')})`)),
        h('td', { class: 'h-board' }, boardCell(g)),
        h('td', { class: 'h-score num', dataset: { label: t('lb.score') } }, String(g.score)),
        h('td', { class: 'h-rank num', testid: 'history-rank', dataset: { label: t('history.rank') } }, rankCell(g)),
        h('td', { class: 'h-replay' }, replay)));
    }
    if (!page.games.length) {
      body.append(h('tr', {}, h('td', { colspan: 6, class: 'note' }, t('history.nothingHere'))));
    }
    el.append(h('div', { class: 'table-wrap' }, h('table', { class: 'lb-table history-table', 'aria-labelledby': 'history-title' },
      h('thead', {}, h('tr', {}, ['history.date', 'mode.label', 'history.board', 'lb.score', 'history.rank', 'lb.replay']
        .map((k) => h('th', { scope: 'col' }, t(k))))), body)));
    const newer = h('button', { type: 'button', testid: 'history-newer', disabled: index === 0,
      onclick: () => load(index - 1) }, t('history.newer'));
    const older = h('button', { type: 'button', testid: 'history-older', disabled: !page.next,
      onclick: () => { cursors[index + 1] = page.next; load(index + 1); } }, t('history.older'));
    el.append(h('div', { class: 'controls history-pager' }, newer,
      h('span', { class: 'note', testid: 'history-page' }, t('history.page', { n: index + 1 })), older));
  }

  async function load(i) {
    try {
      const next = await api.playerGames(name, { limit: size, before: cursors[i] }, own ? token : null);
      if (gone) return;
      index = i;
      page = next;
      error = null;
    } catch (err) {
      if (gone) return;
      error = failureText(err);
    }
    render();
  }

  load(0);
  render();
  return { el, render, stop: () => { gone = true; } };
}
