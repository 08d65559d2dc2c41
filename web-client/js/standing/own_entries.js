// A player's own places on closed boards, read from their history
// (protocol.md, "History"): a finished game that is the player's entry on
// its board (`entry: true`) carries the board's `rank` and `field`, so a
// page or two of the history answers for every board at once. Asking each
// board's leaderboard instead costs a request a board, and every board the
// player did not play answers 404 (which the browser logs as an error).

import { api } from '../api.js';

const PAGE = 100;
const MAX_PAGES = 3;

// `ids`: competition ids; `since`: a time in ms before which none of their
// games can have finished (their boards' opening). Resolves to {found,
// complete}: `found` maps each id the player has an entry on to {rank,
// score, total}; `complete` is false when the history could not be read
// back to `since` (the caller asks the boards not found one by one).
// `token`: the player's own token, or null (the public history, which
// holds closed boards: enough for these).
export async function entriesOn(player, ids, since, token) {
  const wanted = new Set(ids);
  const found = new Map();
  let before;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const res = await api.playerGames(player, { limit: PAGE, before }, token);
    const games = Array.isArray(res.games) ? res.games : [];
    for (const g of games) {
      const id = g.competition && g.competition.id;
      if (g.entry && wanted.has(id) && !found.has(id)) {
        found.set(id, { rank: g.rank, score: g.score, total: g.field });
      }
    }
    const last = games.length ? Date.parse(games[games.length - 1].finished_at) : NaN;
    if (!res.next || last < since || found.size === wanted.size) return { found, complete: true };
    before = res.next;
  }
  return { found, complete: false };
}

// The player's place on each of `ids`: a Map from id to {rank, score,
// total}, or to null where they have no entry. From their history
// (entriesOn); a board is asked alone (its leaderboard around the player)
// only when the history could not be read back to `since`. There a 404
// means no entry; any other failure rejects.
export async function placesOn(player, ids, since, token) {
  const own = await entriesOn(player, ids, since, token)
    .catch(() => ({ found: new Map(), complete: false }));
  const places = new Map();
  await Promise.all(ids.map(async (id) => {
    places.set(id, own.found.get(id) || (own.complete ? null : await placeAround(player, id)));
  }));
  return places;
}

async function placeAround(player, id) {
  try {
    const page = await api.compAround(id, { player, radius: 0 });
    const me = Array.isArray(page.entries) && page.entries[0];
    return me ? { rank: me.rank, score: me.score, total: page.total } : null;
  } catch (err) {
    if (err && err.status === 404) return null;
    throw err;
  }
}

// Midnight UTC at the start of `date` (YYYY-MM-DD), in ms.
export const dayStart = (date) => Date.parse(`${date}T00:00:00.000Z`);
