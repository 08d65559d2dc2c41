// Around a game's board: the "How to play" panel (the rules of the mode and
// its keys, open before the first move of a hidden-colours game on a wide
// screen, so that the cost of a peek is known before anything is spent; on
// a phone it would push the board a screen down, and the Peek button says
// the cost itself) and the Peek toggle
// of hidden colours (a peek is never a side effect: modes/hidden.js).
// Shared by the play page and a room's race view.

import { h } from './dom.js';
import { t } from './i18n.js';

// The panel: {el, update(ctrl)}; update() after every HUD refresh and
// language change.
export function makeHowTo() {
  const summary = h('summary', { i18n: 'howto.title' });
  const rules = h('p', { testid: 'howto-rules' });
  const keys = h('p', { class: 'howto-keys', testid: 'howto-keys' });
  const el = h('details', { class: 'howto', testid: 'howto', hidden: true }, summary, rules, keys);
  let gameId = null;
  return {
    el,
    update(ctrl) {
      const m = ctrl.model;
      if (!m) return;
      el.hidden = false;
      if (m.gameId !== gameId) {
        gameId = m.gameId;
        const narrow = globalThis.matchMedia && matchMedia('(max-width: 760px)').matches;
        el.open = m.mode === 'hidden' && m.moveCount === 0 && !m.over && !narrow;
      }
      summary.textContent = t('howto.title');
      rules.textContent = t(`howto.rules.${m.mode}`);
      keys.textContent = t(`howto.keys.${m.mode}`);
      el.dataset.mode = m.mode;
    },
  };
}

// The Peek toggle (data-testid="btn-peek", aria-pressed): shown in hidden
// colours only, disabled once the game is over.
export function makePeekButton(ctrl) {
  const el = h('button', { type: 'button', class: 'peek-toggle', testid: 'btn-peek',
    'aria-pressed': 'false', hidden: true, i18n: 'btn.peek' });
  const refresh = () => {
    const mode = ctrl.mode;
    const on = !!(mode && mode.togglePeek && mode.peekMode);
    el.hidden = !(mode && mode.togglePeek);
    el.disabled = !ctrl.model || ctrl.model.over;
    el.setAttribute('aria-pressed', String(on));
    el.textContent = t('btn.peek');
  };
  el.addEventListener('click', () => {
    if (ctrl.mode && ctrl.mode.togglePeek) ctrl.mode.togglePeek();
    refresh();
  });
  for (const name of ['loaded', 'over', 'peekmode']) ctrl.addEventListener(name, refresh);
  return { el, refresh };
}
