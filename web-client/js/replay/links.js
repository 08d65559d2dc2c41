// Where a game's replay lives (pages/replay.js): /?view=replay&game=ID, and
// with `move`, at that move (&move=N).

export function replayUrl(gameId, move = null) {
  const q = new URLSearchParams({ view: 'replay', game: gameId });
  if (move != null) q.set('move', String(move));
  return `/?${q}`;
}
