// Match-3 input: tap a tile, then an adjacent one (tapping it again drops
// the pick), or drag / swipe a tile toward a neighbour. A swap the server
// refuses bounces back. Hint highlights the suggested pair.

import { animateBounce } from '../animate.js';

export function match3Mode(ctrl) {
  let picked = null;

  function pick(cell) {
    picked = cell;
    if (cell) ctrl.view.mark('picked', [cell]);
    else ctrl.view.unmark('picked');
  }

  function filled(x, y) {
    const m = ctrl.model;
    return m && y >= 0 && y < m.height && x >= 0 && x < m.width && m.board[y][x] > 0;
  }

  function swap(a, b) {
    pick(null);
    ctrl.view.unmark('hint');
    return ctrl.move('swap', { a, b }, {
      onError: async (err) => {
        if (err.code === 'invalid_move') await animateBounce(ctrl.view, a, b);
      },
    });
  }

  return {
    onTap(x, y) {
      if (!ctrl.model || ctrl.model.over || !filled(x, y)) return;
      if (!picked) { pick([x, y]); return; }
      const [px, py] = picked;
      if (px === x && py === y) { pick(null); return; }
      if (Math.abs(px - x) + Math.abs(py - y) === 1) { swap([px, py], [x, y]); return; }
      pick([x, y]);
    },
    onSwipe(x, y, dx, dy) {
      if (!ctrl.model || ctrl.model.over) return;
      if (!filled(x, y) || !filled(x + dx, y + dy)) return;
      swap([x, y], [x + dx, y + dy]);
    },
    onLoad() { picked = null; },
    async hint() {
      if (!ctrl.model || ctrl.model.over) return null;
      try {
        const reply = await ctrl.net.request('hint', { game_id: ctrl.model.gameId });
        ctrl.view.mark('hint', reply.swap);
        return reply;
      } catch (err) {
        ctrl.showError(err);
        return null;
      }
    },
    undo() { return ctrl.undo(); },
    swap,
    // Undo only exists for practice games (rules.md).
    get buttons() {
      return ctrl.gameView && !ctrl.gameView.ranked ? ['hint', 'undo', 'resign'] : ['hint', 'resign'];
    },
  };
}
