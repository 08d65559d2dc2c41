// The home page's "Yesterday": every daily board of the previous UTC day
// (closed, its key public), its winner, and the player's own place, each
// with a link to the closed board's page (key, results, replays).
// Nothing is shown when the server has no dailies for that day.

import { h, clear, link } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { compUrl } from '../competitions/logic.js';
import { MODES } from '../presets.js';
import { shiftDate } from './share.js';

async function orNull(promise) {
  try {
    return await promise;
  } catch {
    return null;
  }
}

// Reads yesterday's boards with each winner and the player's entry.
// `today`: the server's date (GET /api/daily's `date`).
export async function loadYesterday(today, player) {
  const date = shiftDate(today, -1);
  const day = await orNull(api.daily(date));
  if (!day || !Array.isArray(day.boards)) return { date, boards: [] };
  const boards = [...day.boards].filter((b) => b.competition)
    .sort((a, b) => MODES.indexOf(a.mode) - MODES.indexOf(b.mode));
  const rows = await Promise.all(boards.map(async (b) => {
    const [top, mine] = await Promise.all([
      orNull(api.compLeaderboard(b.competition, { limit: 1 })),
      player ? orNull(api.compAround(b.competition, { player, radius: 0 })) : null,
    ]);
    const first = top && top.entries && top.entries[0];
    const me = mine && mine.entries && mine.entries[0];
    return {
      ...b,
      total: top ? top.total : 0,
      winner: first ? { player: first.player, score: first.score } : null,
      mine: me ? { rank: me.rank, score: me.score, total: mine.total } : null,
    };
  }));
  return { date, boards: rows };
}

// The card; `render(data)` fills it, `el` is appended by the home page.
export function yesterdayCard() {
  const list = h('ul', { class: 'daily-list yesterday-list', testid: 'yesterday-list' });
  const title = h('h2', { testid: 'yesterday-title' });
  const el = h('div', { class: 'card yesterday', testid: 'yesterday', hidden: true }, title, list);
  let data = null;

  function render() {
    clear(list);
    if (!data || data.boards.length === 0) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    title.textContent = t('yesterday.title', { date: data.date });
    // The player's own boards first, then the others, each in mode order.
    const played = data.boards.filter((b) => b.mine);
    const others = data.boards.filter((b) => !b.mine);
    for (const b of [...played, ...others]) {
      const name = `${t(`mode.${b.mode}`)} · ${t(`preset.${b.preset}`)}`;
      list.append(h('li', { class: 'yesterday-board', testid: 'yesterday-board',
        dataset: { mode: b.mode, preset: b.preset, competition: b.competition } },
      link(compUrl(b.competition), name, { class: 'daily-name', testid: 'yesterday-link' }),
      h('span', { class: 'yesterday-mine', testid: 'yesterday-mine' }, b.mine
        ? t('yesterday.mine', { place: t('standing.rankOf', { rank: b.mine.rank, total: b.mine.total }),
          score: b.mine.score })
        : t('yesterday.notPlayed')),
      h('span', { class: 'yesterday-winner muted', testid: 'yesterday-winner' }, b.winner
        ? t('yesterday.winner', { player: b.winner.player, score: b.winner.score })
        : t('yesterday.noEntries'))));
    }
  }

  return {
    el,
    show(next) {
      data = next;
      render();
    },
    render,
  };
}
