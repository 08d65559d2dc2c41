// Hidden colours: a peek is always a deliberate act, never a side effect of
// moving the pointer (a peek costs a point and starts the clock, and a
// daily's first game is its only ranked one). Peek mode (the Peek button,
// data-testid="btn-peek", aria-pressed) makes a click or tap peek instead
// of select; the P key peeks the keyboard cursor's cell. A peeked colour
// shows while the pointer (or the cursor) stays on its cell and hides when
// it leaves, or at the next action. A click, a tap, Enter or Space
// otherwise selects or unselects; the selection keeps its colours. Hovering
// sends nothing at all. The timer starts with the first accepted move
// (elapsed_ms on resume).

import { t } from '../i18n.js';

const key = (x, y) => `${x},${y}`;

export function hiddenMode(ctrl) {
  let peekMode = false;
  let shownAt = null;          // cell whose peek was asked for: its colour may show
  let revealed = null;         // [x, y] whose colour is on screen
  let timerBase = 0;
  let timerStart = null;
  let ticker = null;

  function hideShown() {
    if (revealed) {
      ctrl.view.conceal(revealed[0], revealed[1]);
      revealed = null;
    }
    shownAt = null;
  }

  function hiddenFilled(x, y) {
    const m = ctrl.model;
    if (!m || m.over || y < 0 || y >= m.height || x < 0 || x >= m.width) return false;
    return m.board[y][x] !== 0 && !m.selected.has(key(x, y));
  }

  // Peeks (x, y) on the player's request. A cell whose colour is on screen
  // (selected, or peeked and still pointed at) is not peeked again: that
  // would only cost a point.
  function peek(x, y) {
    if (!hiddenFilled(x, y)) {
      if (ctrl.model && !ctrl.model.over) ctrl.view.announce(t('peek.nothing'));
      return null;
    }
    if (shownAt === key(x, y)) return null;
    hideShown();
    shownAt = key(x, y);
    // Queued behind any running move; sent only if the pointer has not left
    // the cell before its turn comes.
    return ctrl.enqueue(async () => {
      if (shownAt !== key(x, y) || !hiddenFilled(x, y)) return null;
      try {
        const reply = await ctrl.net.request('peek', { game_id: ctrl.model.gameId, x, y }, { wait: false });
        await ctrl.playReply(reply);
        return reply;
      } catch (err) {
        if (shownAt === key(x, y)) shownAt = null;
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
    const m = ctrl.model;
    if (!m || m.over || !m.board[y] || !m.board[y][x]) return null;
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

  function setPeekMode(on) {
    peekMode = !!on;
    ctrl.view.el.classList.toggle('peek-mode', peekMode);
    ctrl.dispatchEvent(new CustomEvent('peekmode', { detail: peekMode }));
    ctrl.view.announce(t(peekMode ? 'peek.on' : 'peek.off'));
  }

  // The pointer or the cursor is on (x, y) now (x null: off the board): a
  // colour peeked elsewhere hides.
  function pointAt(x, y) {
    if (shownAt && (x == null || shownAt !== key(x, y))) hideShown();
  }

  function act(x, y) {
    if (peekMode && !(ctrl.model && ctrl.model.selected.has(key(x, y)))) return peek(x, y);
    return toggle(x, y);
  }

  return {
    onHover(x, y, pointerType) {
      if (pointerType !== 'mouse') return;
      pointAt(x, y);
    },
    onCursor(x, y) { pointAt(x, y); },
    onTap(x, y) { return act(x, y); },
    onActivate(x, y) { return act(x, y); },
    onPeekKey(x, y) { return peek(x, y); },
    onCancel() {
      hideShown();
      if (peekMode) setPeekMode(false);
    },
    onEvent(ev) {
      if (ev.kind === 'peek' && shownAt === key(ev.x, ev.y)) {
        if (revealed) ctrl.view.conceal(revealed[0], revealed[1]);
        ctrl.view.reveal(ev.x, ev.y, ev.color);
        revealed = [ev.x, ev.y];
      }
    },
    onLoad(view) {
      hideShown();
      stopTimer();
      timerBase = view.elapsed_ms || 0;
      if (!view.over && view.move_count > 0) startTimer();
    },
    onFirstMove() { startTimer(); },
    onOver() {
      stopTimer();
      hideShown();
      if (peekMode) setPeekMode(false);
    },
    elapsedMs() {
      return timerBase + (timerStart != null ? Date.now() - timerStart : 0);
    },
    destroy() {
      stopTimer();
      ctrl.view.el.classList.remove('peek-mode');
      if (peekMode) ctrl.dispatchEvent(new CustomEvent('peekmode', { detail: false }));
    },
    get peekMode() { return peekMode; },
    togglePeek() { setPeekMode(!peekMode); },
    select: toggle,
    peek,
    buttons: ['peek', 'resign'],
  };
}
