// Where a game's replay lives (pages/replay.js): /?view=replay&game=ID, and
// with `move`, at that move (&move=N).

export function replayUrl(gameId, move = null, { verify = false } = {}) {
  const q = new URLSearchParams({ view: 'replay', game: gameId });
  if (move != null) q.set('move', String(move));
  // The page then asks the server's verdict at once (pages/replay.js).
  if (verify) q.set('verify', '1');
  return `/?${q}`;
}
