// The JSON HTTP API under /api/ (protocol.md, "HTTP API"). Failures reject
// with {status, code, message}. POSTs (the competitions API) and the
// organiser's own list carry an organiser's bearer token.

// A GET not answered within this long fails as the network would (the
// pages then say the server cannot be reached, with Retry): a server that
// hangs, or a link gone silent, would otherwise leave "Loading…" for ever.
// POSTs have no such limit: one that timed out might still have been done,
// and a retry could do it twice.
// (An object, so that the unit tests may shorten it.)
export const limits = { getWithinMs: 15000 };

export function apiUrl(path, params) {
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(params || {})) {
    if (v != null && v !== '') url.searchParams.set(k, String(v));
  }
  return url;
}

export async function get(path, params, token) {
  // no-cache: a leaderboard page kept by the browser is revalidated by its ETag
  // (a 304 when the board has not changed), never shown stale.
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return call(apiUrl(path, params), { headers, cache: 'no-cache', signal: AbortSignal.timeout(limits.getWithinMs) });
}

// A GET with the player's own token (GET /api/games/{id}: a player gets
// their own game's moves before they are public). Only in this header,
// never in the URL.
async function getAsPlayer(path, token) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return call(apiUrl(path), { headers, cache: 'no-cache', signal: AbortSignal.timeout(limits.getWithinMs) });
}

async function post(path, body, token) {
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return call(apiUrl(path), { method: 'POST', headers, body: JSON.stringify(body) });
}

async function call(url, init) {
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw { status: 0, code: 'network', message: String(e) };
  }
  let body = null;
  try {
    body = await res.json();
  } catch (e) {
    // Cut off by the time limit while the body came: not a body, a failure.
    if (init.signal && init.signal.aborted) throw { status: 0, code: 'network', message: String(e) };
    body = null;
  }
  if (!res.ok) {
    const err = (body && body.error) || {};
    throw { status: res.status, code: err.code || `http_${res.status}`, message: err.message || res.statusText };
  }
  return body;
}

export const api = {
  health: () => get('/api/health'),
  daily: (date) => get('/api/daily', { date }),
  leaderboard: ({ mode, preset, seed, limit, offset }) =>
    get('/api/leaderboard', { mode, preset, seed, limit, offset }),
  around: ({ mode, preset, seed, player, radius }) =>
    get('/api/leaderboard/around', { mode, preset, seed, player, radius }),
  player: (name) => get(`/api/players/${encodeURIComponent(name)}`),
  // A player's history (protocol.md, "History"): with their own token, all
  // their finished games; without, closed boards only.
  playerGames: (name, { limit, before } = {}, token) =>
    get(`/api/players/${encodeURIComponent(name)}/games`, { limit, before }, token),
  playerCalendar: (name, month, token) =>
    get(`/api/players/${encodeURIComponent(name)}/calendar`, { month }, token),
  game: (id) => get(`/api/games/${encodeURIComponent(id)}`),
  ownGame: (id, token) => getAsPlayer(`/api/games/${encodeURIComponent(id)}`, token),
  verify: (id) => get(`/api/games/${encodeURIComponent(id)}/verify`),
  replay: (id) => get(`/api/games/${encodeURIComponent(id)}/replay`),
  ownReplay: (id, token) => getAsPlayer(`/api/games/${encodeURIComponent(id)}/replay`, token),
  // The archive of closed boards, page by page (`before`: the last `next`).
  archive: ({ limit, before, mode, kind } = {}) => get('/api/archive', { limit, before, mode, kind }),
  competitions: ({ state, limit } = {}) => get('/api/competitions', { state, limit }),
  competition: (id, player) => get(`/api/competitions/${encodeURIComponent(id)}`, { player }),
  compLeaderboard: (id, { limit, offset } = {}) =>
    get(`/api/competitions/${encodeURIComponent(id)}/leaderboard`, { limit, offset }),
  compAround: (id, { player, radius } = {}) =>
    get(`/api/competitions/${encodeURIComponent(id)}/leaderboard/around`, { player, radius }),
  compResults: (id) => get(`/api/competitions/${encodeURIComponent(id)}/results`),
  compResultsUrl: (id, format) =>
    apiUrl(`/api/competitions/${encodeURIComponent(id)}/results`, { format }).href,
  createCompetition: (body, token) => post('/api/competitions', body, token),
  // The organiser's own competitions (the token goes in a header, never in
  // the address).
  myCompetitions: (token, { limit, offset } = {}) => get('/api/organiser/competitions', { limit, offset }, token),
  disqualify: (id, { player, reason }, token) =>
    post(`/api/competitions/${encodeURIComponent(id)}/disqualify`, { player, reason }, token),
};
