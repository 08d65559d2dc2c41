// Match-3 input: tap a tile, then an adjacent one (tapping it again drops
// the pick), or drag / swipe a tile toward a neighbour. A swap the server
// refuses bounces back. Hint highlights the suggested pair. Keyboard: Enter
// or Space picks the cursor's tile, then (on a neighbour) swaps; Escape
// drops the pick.

import { animateBounce } from '../animate.js';
import { t } from '../i18n.js';

// Undo exists on practice boards only (rules.md): not on a preset's board
// without practice options, even in a game there that does not rank (a
// daily or competition board played as practice), which the server refuses.
// Such a board carries its key's commitment (rules version 2) or ranks
// (version 1).
export function undoAllowed(view) {
  return !view.ranked && !view.commitment;
}

export function match3Mode(ctrl) {
  let picked = null;

  function pick(cell) {
    picked = cell;
    if (cell) {
      ctrl.view.mark('picked', [cell]);
      // A new pick starts a new swap: the last refusal was about another.
      ctrl.ui.setMessage('');
    } else ctrl.view.unmark('picked');
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

  function tap(x, y, say) {
    if (!ctrl.model || ctrl.model.over || !filled(x, y)) return;
    if (!picked) {
      pick([x, y]);
      if (say) ctrl.view.announce(t('say.picked', { col: x + 1, row: y + 1 }));
      return;
    }
    const [px, py] = picked;
    if (px === x && py === y) {
      pick(null);
      if (say) ctrl.view.announce(t('say.unpicked'));
      return;
    }
    if (Math.abs(px - x) + Math.abs(py - y) === 1) { swap([px, py], [x, y]); return; }
    pick([x, y]);
    if (say) ctrl.view.announce(t('say.picked', { col: x + 1, row: y + 1 }));
  }

  return {
    onTap(x, y) { tap(x, y, false); },
    onActivate(x, y) { tap(x, y, true); },
    onCancel() {
      if (!picked) return;
      pick(null);
      ctrl.view.announce(t('say.unpicked'));
    },
    onSwipe(x, y, dx, dy) {
      if (!ctrl.model || ctrl.model.over) return;
      if (!filled(x, y) || !filled(x + dx, y + dy)) return;
      swap([x, y], [x + dx, y + dy]);
    },
    onLoad() { picked = null; },
    get picked() { return picked; },
    async hint() {
      if (!ctrl.model || ctrl.model.over) return null;
      try {
        const reply = await ctrl.net.request('hint', { game_id: ctrl.model.gameId });
        const [[ax, ay], [bx, by]] = reply.swap;
        ctrl.view.mark('hint', reply.swap);
        // As in Same Game: the keyboard's cursor goes to the hinted tile, a
        // refusal on screen (about another swap) goes, and the hint is said.
        ctrl.view.setCursor({ x: ax, y: ay });
        ctrl.ui.setMessage('');
        ctrl.view.announce(t('say.hintSwap', { col: ax + 1, row: ay + 1, col2: bx + 1, row2: by + 1 }));
        return reply;
      } catch (err) {
        ctrl.showError(err);
        return null;
      }
    },
    undo() { return ctrl.undo(); },
    swap,
    get buttons() {
      return ctrl.gameView && undoAllowed(ctrl.gameView) ? ['hint', 'undo', 'resign'] : ['hint', 'resign'];
    },
  };
}
