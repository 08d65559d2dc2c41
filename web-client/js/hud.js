// The game HUD shared by the play page, a ghost race and a room's race
// view: the stat boxes (score, moves, moves left, peeks, timer), the game
// buttons and the lines under the board, and their update from a
// GameController.

import { h } from './dom.js';
import { formatDuration } from './i18n.js';

// optional: a box only some games have (moves left, peeks, time), hidden
// until showStats() knows the game: a Same Game loading showed them empty.
function stat(labelKey, testid, optional = false) {
  const value = h('span', { class: 'value', testid });
  const box = h('div', { class: 'stat', dataset: { stat: testid }, hidden: optional },
    h('span', { class: 'label', i18n: labelKey }), value);
  return { box, value };
}

export function makeStats() {
  return {
    score: stat('hud.score', 'score'),
    moves: stat('hud.moves', 'moves'),
    movesLeft: stat('hud.movesLeft', 'moves-left', true),
    peeks: stat('hud.peeks', 'peeks', true),
    time: stat('hud.time', 'timer', true),
  };
}

// Shows the controller's model in the boxes; false when there is no game yet.
export function showStats(stats, c) {
  const m = c.model;
  if (!m) return false;
  stats.score.value.textContent = String(m.score);
  stats.moves.value.textContent = String(m.moveCount);
  const left = c.movesLeft();
  stats.movesLeft.box.hidden = left == null;
  stats.movesLeft.value.textContent = left == null ? '' : String(left);
  stats.peeks.box.hidden = m.mode !== 'hidden';
  stats.peeks.value.textContent = String(m.peeks);
  stats.time.box.hidden = m.mode !== 'hidden';
  if (m.mode === 'hidden' && c.mode && c.mode.elapsedMs) {
    stats.time.value.textContent = formatDuration(c.mode.elapsedMs() / 1000);
  }
  return true;
}

// The buttons a mode may offer (its `buttons` list names them).
export function makeGameButtons() {
  return {
    hint: h('button', { type: 'button', testid: 'btn-hint', i18n: 'btn.hint' }),
    undo: h('button', { type: 'button', testid: 'btn-undo', i18n: 'btn.undo' }),
    resign: h('button', { type: 'button', testid: 'btn-resign', i18n: 'btn.resign' }),
  };
}

// Shows the buttons of makeGameButtons() the controller's mode offers,
// disabled once its game is over. Needs a model (after showStats()). A
// button disabled while it has the focus in a game still on (Undo back at
// the start) would drop it to the page: the board, where the next move is,
// gets it. (At the game's end the game-over panel takes it.)
export function showGameButtons(buttons, c) {
  const wanted = (c.mode && c.mode.buttons) || [];
  let lostFocus = false;
  for (const name of ['hint', 'undo', 'resign']) {
    const button = buttons[name];
    const focused = document.activeElement === button;
    button.hidden = !wanted.includes(name);
    // Nothing to take back before the first move.
    button.disabled = c.model.over || (name === 'undo' && c.model.moveCount === 0);
    if (focused && (button.disabled || button.hidden)) lostFocus = true;
  }
  if (lostFocus && !c.model.over && c.view && c.view.el && c.view.el.tabIndex >= 0) c.view.el.focus();
}

// The lines under the board: a hovered group's points and the status
// message (both announced to screen readers).
export function makeGameLines() {
  return {
    preview: h('div', { class: 'points-preview', testid: 'preview-points', 'aria-live': 'polite' }),
    message: h('div', { class: 'message game-message', testid: 'message', role: 'status' }),
  };
}
