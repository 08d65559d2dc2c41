// The home page's "Yesterday": every daily board of the previous UTC day
// (closed, its key public), its winner, and the player's own place, each
// with a link to the closed board's page (key, results, replays).
// Nothing is shown when the server has no dailies for that day.

import { h, clear, link } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { compUrl } from '../competitions/logic.js';
import { MODES, PRESETS } from '../presets.js';
import { shiftDate } from './share.js';
import { placesOn, dayStart } from './own_entries.js';

// A day has 9 dailies; their closes are the latest, so one page holds them.
const ARCHIVE_PAGE = 20;

async function orNull(promise) {
  try {
    return await promise;
  } catch {
    return null;
  }
}

// Reads yesterday's boards with each winner and the player's entry.
// `today`: the server's date (GET /api/daily's `date`); `token`: the
// player's own token, or null. Two requests whatever the day held: the
// archive's dailies (each with its field and winner) and the player's
// history (their places); a board is asked about alone only when the
// history was too long to read back to yesterday.
export async function loadYesterday(today, player, token = null) {
  const date = shiftDate(today, -1);
  const archive = await orNull(api.archive({ kind: 'daily', limit: ARCHIVE_PAGE }));
  const closed = archive && Array.isArray(archive.competitions) ? archive.competitions : [];
  // In the order of /api/daily: by mode, then by the mode's presets.
  const order = (c) => MODES.indexOf(c.mode) * 100 + (PRESETS[c.mode] || []).indexOf(c.preset);
  const boards = closed.filter((c) => c.daily && c.seed === date).sort((a, b) => order(a) - order(b));
  if (boards.length === 0) return { date, boards: [] };
  const places = player
    ? await orNull(placesOn(player, boards.map((c) => c.id), dayStart(date), token))
    : null;
  const rows = boards.map((c) => ({
    mode: c.mode, preset: c.preset, seed: c.seed, competition: c.id,
    total: c.entries || 0,
    winner: c.winner ? { player: c.winner.player, score: c.winner.score } : null,
    mine: (places && places.get(c.id)) || null,
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
