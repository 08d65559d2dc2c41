// The JSON HTTP API under /api/ (protocol.md, "HTTP API"). Failures reject
// with {status, code, message}.

async function get(path, params) {
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(params || {})) {
    if (v != null && v !== '') url.searchParams.set(k, String(v));
  }
  let res;
  try {
    res = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch (e) {
    throw { status: 0, code: 'network', message: String(e) };
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
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
  daily: () => get('/api/daily'),
  leaderboard: ({ mode, preset, seed, limit, offset }) =>
    get('/api/leaderboard', { mode, preset, seed, limit, offset }),
  around: ({ mode, preset, seed, player, radius }) =>
    get('/api/leaderboard/around', { mode, preset, seed, player, radius }),
  player: (name) => get(`/api/players/${encodeURIComponent(name)}`),
  game: (id) => get(`/api/games/${encodeURIComponent(id)}`),
  verify: (id) => get(`/api/games/${encodeURIComponent(id)}/verify`),
};
