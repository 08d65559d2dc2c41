// Where a race lives and which entries can be raced: a finished game on a
// competition's board once that board is closed (its moves are public, and
// anyone may practise on it: rules.md, "Practice on a closed board").

export function raceUrl(gameId) {
  return `/?${new URLSearchParams({ view: 'race', game: gameId })}`;
}

// record: GET /api/games/{id}. `now`: ms since the epoch.
export function raceable(record, now = Date.now()) {
  if (!record || !record.competition || !record.moves_published_at) return false;
  const at = Date.parse(record.moves_published_at);
  return Number.isFinite(at) && now >= at;
}
