// Hidden colours: hovering a filled cell sends one `peek` per newly hovered
// cell (never more while the pointer stays on it); the colour shows while
// hovered and hides on leave. A click selects or unselects; the selection
// keeps its colours. On touch the first tap peeks and a second tap selects.
// The timer starts with the first accepted move (elapsed_ms on resume).

const key = (x, y) => `${x},${y}`;

export function hiddenMode(ctrl) {
  let hover = null;
  let peekedAt = null;         // cell whose colour is on screen
  let touchPeeked = null;
  let timerBase = 0;
  let timerStart = null;
  let ticker = null;

  function hideShown() {
    if (peekedAt) {
      ctrl.view.conceal(peekedAt[0], peekedAt[1]);
      peekedAt = null;
    }
  }

  function hiddenFilled(x, y) {
    const m = ctrl.model;
    if (!m || m.over || y < 0 || y >= m.height || x < 0 || x >= m.width) return false;
    return m.board[y][x] !== 0 && !m.selected.has(key(x, y));
  }

  function peek(x, y) {
    // Queued behind any running move; sent only if the cell is still the
    // one under the pointer when its turn comes.
    return ctrl.enqueue(async () => {
      const still = (hover && hover.x === x && hover.y === y) || touchPeeked === key(x, y);
      if (!still || !hiddenFilled(x, y)) return null;
      try {
        const reply = await ctrl.net.request('peek', { game_id: ctrl.model.gameId, x, y }, { wait: false });
        await ctrl.playReply(reply);
        return reply;
      } catch (err) {
        ctrl.showError(err);
        return null;
      }
    });
  }

  function startTimer() {
    if (timerStart == null) timerStart = Date.now();
    if (!ticker) ticker = setInterval(() => ctrl.ui.setHud(ctrl), 250);
  }

  function stopTimer() {
    if (timerStart != null) timerBase += Date.now() - timerStart;
    timerStart = null;
    clearInterval(ticker);
    ticker = null;
  }

  function toggle(x, y) {
    hideShown();
    touchPeeked = null;
    const m = ctrl.model;
    if (!m || m.over || m.board[y][x] === 0) return null;
    return ctrl.move(m.selected.has(key(x, y)) ? 'unselect' : 'select', { x, y }, {
      onError: async () => {
        const el = ctrl.view.tileAt(x, y);
        if (el) {
          el.classList.add('refused');
          setTimeout(() => el.classList.remove('refused'), 400);
        }
      },
    });
  }

  return {
    onHover(x, y, pointerType) {
      if (pointerType !== 'mouse') return;
      hideShown();
      hover = x == null ? null : { x, y };
      if (hover && hiddenFilled(x, y)) peek(x, y);
    },
    onTap(x, y, pointerType) {
      if (pointerType === 'touch' || pointerType === 'pen') {
        if (ctrl.model && !ctrl.model.selected.has(key(x, y)) && touchPeeked !== key(x, y)) {
          hideShown();
          touchPeeked = key(x, y);
          peek(x, y);
          return;
        }
      }
      toggle(x, y);
    },
    onEvent(ev) {
      if (ev.kind !== 'peek') return;
      const k = key(ev.x, ev.y);
      const hovered = hover && hover.x === ev.x && hover.y === ev.y;
      if (hovered || touchPeeked === k) {
        hideShown();
        ctrl.view.reveal(ev.x, ev.y, ev.color);
        peekedAt = [ev.x, ev.y];
      }
    },
    onLoad(view) {
      hideShown();
      stopTimer();
      timerBase = view.elapsed_ms || 0;
      if (!view.over && view.move_count > 0) startTimer();
      touchPeeked = null;
    },
    onFirstMove() { startTimer(); },
    onOver() { stopTimer(); hideShown(); },
    elapsedMs() {
      return timerBase + (timerStart != null ? Date.now() - timerStart : 0);
    },
    destroy() { stopTimer(); },
    select: toggle,
    peek,
    buttons: ['resign'],
  };
}
