// Same Game input: hover preview (mouse), click to remove; on touch the
// first tap previews and a second tap inside the previewed group confirms.
// Keyboard: the cursor previews like the mouse, Enter or Space removes the
// group under it. Undo and hint buttons. One group is lit at a time: a
// preview replaces the hint, and the hint replaces the preview and takes
// the keyboard cursor to the hinted tile (Enter then removes its group).

import { t } from '../i18n.js';

const key = (x, y) => `${x},${y}`;

export function sameMode(ctrl) {
  let hover = null;            // cell under the mouse
  let shown = null;            // {at, cells:Set} of the preview on screen
  let inFlight = false;
  let wanted = null;           // newest cell to preview once the current reply is in
  let armedTouch = null;       // touch: the group a second tap confirms

  function clearPreview() {
    shown = null;
    ctrl.view.unmark('preview');
    ctrl.ui.setPreview('');
  }

  async function requestPreview(x, y) {
    if (inFlight) { wanted = { x, y }; return; }
    if (!ctrl.model || ctrl.model.over || ctrl.busy) return;
    const cell = ctrl.model.board[y] && ctrl.model.board[y][x];
    if (!(cell > 0)) { clearPreview(); return; }
    inFlight = true;
    const generation = ctrl.generation;
    let reply = null;
    try {
      reply = await ctrl.net.request('preview', { game_id: ctrl.model.gameId, x, y }, { wait: false });
    } catch {
      reply = null;
    }
    inFlight = false;
    const stillWanted = (hover && hover.x === x && hover.y === y) || (armedTouch && armedTouch.at === key(x, y));
    if (generation === ctrl.generation && !ctrl.busy && stillWanted) {
      if (reply) {
        shown = { at: key(x, y), cells: new Set(reply.cells.map(([cx, cy]) => key(cx, cy))) };
        ctrl.view.unmark('hint');
        ctrl.view.mark('preview', reply.cells);
        ctrl.ui.setPreview(t('hud.preview', { points: reply.points, n: reply.cells.length }), reply);
        if (armedTouch && armedTouch.at === key(x, y)) armedTouch.cells = shown.cells;
      } else {
        clearPreview();
      }
    }
    if (wanted) {
      const next = wanted;
      wanted = null;
      if (hover && hover.x === next.x && hover.y === next.y) requestPreview(next.x, next.y);
    }
  }

  function click(x, y) {
    clearPreview();
    armedTouch = null;
    ctrl.view.unmark('hint');
    ctrl.move('click', { x, y });
  }

  return {
    onHover(x, y, pointerType) {
      if (pointerType !== 'mouse') return;
      hover = x == null ? null : { x, y };
      if (!hover) { clearPreview(); return; }
      if (shown && shown.cells.has(key(x, y))) return;
      requestPreview(x, y);
    },
    onTap(x, y, pointerType) {
      if (!ctrl.model || ctrl.model.over) return;
      if (pointerType === 'touch' || pointerType === 'pen') {
        if (armedTouch && armedTouch.cells && armedTouch.cells.has(key(x, y))) {
          click(x, y);
          return;
        }
        armedTouch = { at: key(x, y), cells: null };
        requestPreview(x, y);
        return;
      }
      click(x, y);
    },
    onCursor(x, y) {
      hover = { x, y };
      if (shown && shown.cells.has(key(x, y))) return;
      requestPreview(x, y);
    },
    onActivate(x, y) {
      if (!ctrl.model || ctrl.model.over) return;
      click(x, y);
    },
    onCancel() {
      hover = null;
      clearPreview();
    },
    afterIdle() {
      if (hover) requestPreview(hover.x, hover.y);
    },
    onLoad() {
      clearPreview();
      armedTouch = null;
    },
    async hint() {
      if (!ctrl.model || ctrl.model.over) return;
      const generation = ctrl.generation;
      const moves = ctrl.model.moveCount;
      try {
        const reply = await ctrl.net.request('hint', { game_id: ctrl.model.gameId });
        const [x, y] = reply.click;
        let cells = [[x, y]];
        try {
          const p = await ctrl.net.request('preview', { game_id: ctrl.model.gameId, x, y });
          cells = p.cells;
        } catch { /* the single cell then */ }
        // Another board or a move meanwhile: the hint was for what stood before.
        if (generation !== ctrl.generation || ctrl.model.moveCount !== moves) return reply;
        hover = null;
        clearPreview();
        ctrl.view.mark('hint', cells);
        ctrl.view.setCursor({ x, y });
        // A refusal still on screen was about another click; the hint is
        // said, for a player who cannot see the mark.
        ctrl.ui.setMessage('');
        ctrl.view.announce(t('say.hintClick', { col: x + 1, row: y + 1, n: cells.length }));
        armedTouch = { at: key(x, y), cells: new Set(cells.map(([cx, cy]) => key(cx, cy))) };
        return reply;
      } catch (err) {
        ctrl.showError(err);
        return null;
      }
    },
    undo() {
      clearPreview();
      return ctrl.undo();
    },
    buttons: ['hint', 'undo', 'resign'],
  };
}
