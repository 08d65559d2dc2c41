// Keyboard play on a board: which key does what, and where the cursor goes.
// The board view (board.js) calls these; the modes decide what an action
// means (Same Game: remove the group; match-3: pick, then swap; hidden:
// select or unselect, and P peeks).
//
// Pure: no DOM, so it is unit tested in node (tests/browser/unit).

const MOVES = {
  ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};

// The action of a KeyboardEvent's `key` (modifiers are the caller's
// business): {type: 'move', dx, dy}, {type: 'home'} / {type: 'end'} (first
// or last cell of the row), {type: 'activate'} (Enter, Space),
// {type: 'cancel'} (Escape), {type: 'peek'} (P), or null.
export function keyAction(key) {
  if (Object.hasOwn(MOVES, key)) return { type: 'move', dx: MOVES[key][0], dy: MOVES[key][1] };
  if (key === 'Home') return { type: 'home' };
  if (key === 'End') return { type: 'end' };
  if (key === 'Enter' || key === ' ' || key === 'Spacebar') return { type: 'activate' };
  if (key === 'Escape' || key === 'Esc') return { type: 'cancel' };
  if (key === 'p' || key === 'P') return { type: 'peek' };
  return null;
}

// The cursor after an action, kept on the board (it stops at the edges).
export function moveCursor(cursor, action, width, height) {
  const clamp = (v, n) => Math.min(Math.max(v, 0), Math.max(n - 1, 0));
  const x = clamp(cursor ? cursor.x : 0, width);
  const y = clamp(cursor ? cursor.y : 0, height);
  if (action.type === 'move') return { x: clamp(x + action.dx, width), y: clamp(y + action.dy, height) };
  if (action.type === 'home') return { x: 0, y };
  if (action.type === 'end') return { x: clamp(width - 1, width), y };
  return { x, y };
}
