// The unfinished casual games of this browser, by player and board (mode,
// preset, seed): returning to a board's address resumes the game left
// there (a closed tab, Back after New board, the link opened again)
// instead of dealing the board afresh and leaving that game behind. Only
// games without a competition; a game is forgotten when it ends. The
// latest MAX are kept; an unreadable store reads as empty.

const KEY = 'tilecrush.casual';
const MAX = 20;

const boardKey = (player, mode, preset, seed) => JSON.stringify([player, mode, preset, seed]);

function read() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(v) ? v.filter((e) => e && typeof e.key === 'string' && typeof e.game === 'string') : [];
  } catch {
    return [];
  }
}

function write(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(-MAX))); } catch { /* not remembered */ }
}

// The id of `player`'s unfinished game on this board, or null.
export function keptGame(player, mode, preset, seed) {
  if (!player || !seed) return null;
  const key = boardKey(player, mode, preset, seed);
  const found = read().find((e) => e.key === key);
  return found ? found.game : null;
}

// Remembers a casual GameView of `player` (the latest last), or forgets it
// once over. Competition games and boards without a preset and seed (a
// custom practice board has no address to come back to) are left alone.
export function keepGame(player, gv) {
  if (!player || !gv || gv.competition || !gv.preset || !gv.seed) return;
  const key = boardKey(player, gv.mode, gv.preset, gv.seed);
  const list = read().filter((e) => e.key !== key && e.game !== gv.game_id);
  if (!gv.over) list.push({ key, game: gv.game_id });
  write(list);
}
